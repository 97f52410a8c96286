import Foundation
import Testing
import VersionedCodable

extension VersionedFixtures {
    /// Writes the current version's fixture from a sample in each recorded format, reads each
    /// back, and reports the result; `true` when every file was written and decodes.
    func record(_ sample: Value, at sourceLocation: SourceLocation) -> Bool {
        guard let recordingFolder else {
            recordIssue(
                "Record mode cannot write the fixture of \(Self.folderName) (version \(describe(Value.version))): "
                    + "the source folder of the fixtures was not found. Pass `sourceDirectory:` to "
                    + "VersionedFixtures(_:bundle:subdirectory:jsonDecoder:propertyListDecoder:sourceDirectory:filePath:).",
                at: sourceLocation
            )
            return false
        }
        guard !recordedFormats.isEmpty else {
            recordIssue(
                "Record mode cannot write the fixture of \(Self.folderName): `recordedFormats` is empty.",
                at: sourceLocation
            )
            return false
        }

        let urls = recordedFormats.map {
            recordingFolder.appendingPathComponent(VersionedFixture.fileName(forVersion: Value.version, format: $0))
        }
        if let existing = urls.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            recordIssue(
                "Record mode found \(existing.path) in the source folder, but \(folder.path) has no fixture of "
                    + "version \(describe(Value.version)). If it was recorded earlier in this run, run the tests "
                    + "again so that the build copies it; otherwise check that the test target copies its "
                    + "fixtures with `resources: [.copy(\"Fixtures\")]`.",
                at: sourceLocation
            )
            return false
        }
        var written: [String] = []
        for (format, url) in zip(recordedFormats, urls) {
            do {
                try writeFixture(of: sample, as: format, to: url)
                written.append(url.path)
            } catch {
                // All of the version's formats or none: a partial set would pass the coverage check
                // later with the other formats never written.
                for path in written {
                    try? FileManager.default.removeItem(atPath: path)
                }
                recordIssue(
                    "Record mode could not write \(url.path) from the sample, or could not read it back; "
                        + "no fixture of version \(describe(Value.version)) was kept: \(error)",
                    at: sourceLocation
                )
                return false
            }
        }
        recordIssue(
            "Recorded the fixture of \(Self.folderName) (version \(describe(Value.version))): "
                + "\(written.joined(separator: ", ")). Review and commit it.",
            severity: .warning,
            at: sourceLocation
        )
        return true
    }

    /// Writes one fixture and removes it again when it does not decode, so that record mode
    /// leaves no broken fixture behind.
    private func writeFixture(of sample: Value, as format: VersionedFixture.Format, to url: URL) throws {
        let fileManager = FileManager.default
        try fileManager.createDirectory(
            at: url.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )

        let data: Data
        switch format {
        case .json:
            data = try jsonEncoder.encode(versioned: sample) + Data("\n".utf8)
        case .xmlPropertyList, .binaryPropertyList:
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format == .xmlPropertyList ? .xml : .binary
            encoder.userInfo = propertyListEncoder.userInfo
            data = try encoder.encode(versioned: sample)
        }
        // Written beside it and moved into place, which refuses an existing file, so that a test
        // reading the folder meanwhile never sees part of it.
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).partial")
        try data.write(to: partial)
        do {
            try fileManager.moveItem(at: partial, to: url)
        } catch {
            try? fileManager.removeItem(at: partial)
            throw error
        }

        do {
            guard let fixture = VersionedFixture(url: url) else {
                throw FixtureFolderError.unrecognizedFileNames([url.lastPathComponent], folder: url)
            }
            _ = try decode(fixture)
        } catch {
            try? fileManager.removeItem(at: url)
            throw error
        }
    }
}
