import Foundation
import Testing
import VersionedCodable

extension VersionedFixtures {
    /// Records a test issue for every version in the type's chain that has no fixture, saying
    /// which file to add.
    ///
    /// A version has a fixture when a file in ``folder`` is named for it (`v2.json`,
    /// `v2-empty.plist`, `unversioned.json` for the version `nil`).
    ///
    /// When a `sample` is given and record mode is on (``isRecording``, set by
    /// `VERSIONED_CODABLE_RECORD=1`), a missing fixture of the current version is written from
    /// the sample into ``recordingFolder`` in each of ``recordedFormats``, read back to prove it
    /// decodes, and counted as present; a warning names the new file so that it is committed.
    /// Fixtures of older versions are never written: they must be documents the older code
    /// wrote.
    ///
    /// <!-- snippet: coverage-check -->
    /// ```swift
    /// @Test("Every version of a recipe has a fixture")
    /// func everyRecipeVersionHasFixture() {
    ///     VersionedFixtures(Recipe.self, bundle: .module)
    ///         .checkEveryVersionHasFixture(recordingFrom: .sample)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sample: A typical value of the current version, written as its fixture in record
    ///     mode; `nil` never to record.
    ///   - sourceLocation: Where issues are reported; leave the default.
    /// - Returns: The versions that have no fixture after the check, oldest first.
    @discardableResult
    public func checkEveryVersionHasFixture(
        recordingFrom sample: Value? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Int?] {
        let chain = VersionChain(for: Value.self)
        if let problem = chain.problem {
            recordIssue("The version chain of \(Self.folderName) is invalid: \(problem)", at: sourceLocation)
            return []
        }

        let fixtures: [VersionedFixture]
        do {
            fixtures = try Self.fixtures(in: folder)
        } catch FixtureFolderError.folderMissing {
            fixtures = []
        } catch {
            recordIssue("\(error)", at: sourceLocation)
            return []
        }
        let covered = Set(fixtures.map(\.version))

        var missing: [Int?] = []
        for type in chain.types.reversed() where !covered.contains(type.version) {
            let isCurrent = type == Value.self
            if isCurrent, isRecording, let sample {
                if record(sample, at: sourceLocation) {
                    continue
                }
            } else {
                recordIssue(
                    missingFixtureMessage(for: type, isCurrent: isCurrent, hasSample: sample != nil),
                    at: sourceLocation
                )
            }
            missing.append(type.version)
        }
        return missing
    }

    private func missingFixtureMessage(
        for type: any VersionedCodable.Type,
        isCurrent: Bool,
        hasSample: Bool
    ) -> String {
        let fileName = VersionedFixture.fileName(forVersion: type.version)
        var message =
            "\(type) (version \(describe(type.version))) has no fixture. "
            + "Add \(suggestedLocation(of: fileName)) holding a document that version wrote."
        if isCurrent {
            message +=
                hasSample
                ? " To write it from the sample, run the tests with \(FixtureRecordMode.environmentVariable)=1."
                : " To write it from a sample, pass one as `recordingFrom:` and run the tests with "
                    + "\(FixtureRecordMode.environmentVariable)=1."
        }
        if let recordingFolder, recordingFolder.standardizedFileURL != folder.standardizedFileURL,
            let inSource = try? Self.fixtures(in: recordingFolder),
            inSource.contains(where: { $0.version == type.version })
        {
            message +=
                " The source folder \(recordingFolder.path) has one, but \(folder.path) does not: "
                + "check that the test target copies it with `resources: [.copy(\"Fixtures\")]`."
        }
        return message
    }
}
