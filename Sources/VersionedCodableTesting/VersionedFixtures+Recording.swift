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

        var written: [String] = []
        for format in recordedFormats {
            let fileName = VersionedFixture.fileName(forVersion: Value.version, format: format)
            let url = recordingFolder.appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: url.path) {
                recordIssue(
                    "Record mode found \(url.path) in the source folder, but \(folder.path) has no fixture of "
                        + "version \(describe(Value.version)): check that the test target copies its fixtures "
                        + "with `resources: [.copy(\"Fixtures\")]`.",
                    at: sourceLocation
                )
                return false
            }
            do {
                try writeFixture(of: sample, as: format, to: url)
                written.append(url.path)
            } catch {
                recordIssue(
                    "Record mode could not write \(url.path) from the sample: \(error)",
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
        try data.write(to: url, options: .withoutOverwriting)

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
