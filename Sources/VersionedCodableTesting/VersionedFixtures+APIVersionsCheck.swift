import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

extension VersionedFixtures where Value: Equatable {
    /// Records a test issue for every fixture of the current version that some API version
    /// cannot serve: it must write the value, read its own response back, and merge that echo
    /// into the stored value without changing it.
    ///
    /// A declaration can list a version whose step down the type does not implement, or whose
    /// steps do not carry a value back as it went: `APIVersions` finds that only when a
    /// request meets it. This check meets it first, with every stored document of the current
    /// version and every API version:
    ///
    /// - the value is written as the API version shows it (a missing `downgraded()` fails here);
    /// - the response is read back at the same API version, as a request that sends it;
    /// - the response, sent back as an edit that changes nothing, merges into the value and
    ///   gives the value unchanged, hidden fields included.
    ///
    /// <!-- snippet: api-versions-fixture-check -->
    /// ```swift
    /// VersionedFixtures(Contact.self, bundle: .module).checkEveryAPIVersion(try ContactAPI.versions())
    /// ```
    ///
    /// - Parameters:
    ///   - versions: The service's API versions.
    ///   - sourceLocation: Where issues are reported; leave the default.
    /// - Returns: How many fixtures were checked at every API version; the check records an
    ///   issue when there is none, since it then checked nothing.
    @discardableResult
    public func checkEveryAPIVersion(
        _ versions: APIVersions,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        let current: [VersionedFixture]
        do {
            current = try Self.fixtures(in: folder).filter { $0.version == Value.version }
        } catch {
            recordIssue("\(error)", at: sourceLocation)
            return 0
        }
        guard !current.isEmpty else {
            recordIssue(
                "\(Self.folderName) has no fixture of its current version \(describe(Value.version)) in "
                    + "\(folder.path), so no API version was checked.",
                at: sourceLocation
            )
            return 0
        }
        var checked = 0
        for fixture in current {
            let value: Value
            do {
                value = try decode(fixture).wrappedValue
            } catch {
                recordIssue("\(fixture.fileName) does not decode: \(error)", at: sourceLocation)
                continue
            }
            var served = true
            for version in versions.versions {
                if let problem = Self.problem(serving: value, at: version, with: versions) {
                    recordIssue("\(fixture.fileName) at API version \(version.name): \(problem)", at: sourceLocation)
                    served = false
                }
            }
            checked += served ? 1 : 0
        }
        return checked
    }

    /// What goes wrong when `value` is written at `version`, read back and merged, or `nil`.
    private static func problem(serving value: Value, at version: APIVersion, with versions: APIVersions) -> String? {
        let response: Data
        do {
            response = try versions.encode(value, at: version)
        } catch {
            return "it cannot be written: \(error)"
        }
        do {
            _ = try versions.decode(Value.self, from: response, at: version)
        } catch {
            return "its own response cannot be read back: \(error)"
        }
        do {
            let merged = try versions.merge(Value.self, from: response, at: version, into: value)
            if merged != value {
                return "its own response, sent back unchanged, merges into another value: \(merged)"
            }
        } catch {
            return "its own response, sent back unchanged, cannot be merged: \(error)"
        }
        return nil
    }
}
