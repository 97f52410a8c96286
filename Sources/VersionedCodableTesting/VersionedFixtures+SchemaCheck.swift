import Foundation
import Testing
import VersionedCodable
import VersionedCodableSchema

extension VersionedFixtures {
    /// Records a test issue for every JSON fixture that does not match the JSON Schema of its
    /// version, derived from that version's own decoding with ``jsonDecoder``, naming the file
    /// and each place it breaks the schema.
    ///
    /// A fixture is a document a version really wrote, so one that its version's schema
    /// refuses shows a schema that says something other than what the code reads: the check
    /// that a derived schema can be trusted, and that a schema published for a version (a lock
    /// file, an OpenAPI document) describes its real documents. Property-list fixtures are not
    /// checked: a JSON Schema describes JSON.
    ///
    /// <!-- snippet: fixtures-schema-check -->
    /// ```swift
    /// VersionedFixtures(Poem.self, bundle: .module).checkEveryFixtureMatchesItsSchema()
    /// ```
    ///
    /// - Parameter sourceLocation: Where issues are reported; leave the default.
    /// - Returns: How many fixtures were checked; the check records an issue when there is
    ///   none, since it then checked nothing.
    @discardableResult
    public func checkEveryFixtureMatchesItsSchema(sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let fixtures: [VersionedFixture]
        do {
            fixtures = try Self.fixtures(in: folder).filter { $0.format == .json }
        } catch {
            recordIssue("\(error)", at: sourceLocation)
            return 0
        }
        guard !fixtures.isEmpty else {
            recordIssue(
                "\(Self.folderName) has no JSON fixture in \(folder.path), so no schema was checked.",
                at: sourceLocation
            )
            return 0
        }
        let schemas = VersionSchemas(for: Value.self, decoder: jsonDecoder)
        var checked = 0
        for fixture in fixtures {
            guard let schema = schemas[fixture.version] else {
                recordIssue(
                    "\(fixture.fileName) is version \(describe(fixture.version)), which is not in the chain of "
                        + "\(Value.self), so it has no schema.",
                    at: sourceLocation
                )
                continue
            }
            do {
                let problems = try schema.violations(in: fixture.data())
                if !problems.isEmpty {
                    recordIssue(
                        "\(fixture.fileName) does not match the schema of version \(describe(fixture.version)): "
                            + problems.map(\.description).joined(separator: "; "),
                        at: sourceLocation
                    )
                }
            } catch {
                recordIssue("\(fixture.fileName) could not be checked against its schema: \(error)", at: sourceLocation)
            }
            checked += 1
        }
        return checked
    }
}
