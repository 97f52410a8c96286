import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away, so
/// that tests which write fixtures never touch the source tree or each other.
final class TemporaryDirectory: @unchecked Sendable {
    // Immutable after `init`; `@unchecked` only because `deinit` removes the folder.
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("VersionedCodableTesting-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Copies the fixtures of `folderName` from the test bundle, leaving out the files
    /// `leavingOut` names, and returns the folder that holds the copy's type folder.
    func copyingBundledFixtures(of folderName: String, leavingOut excluded: Set<String> = []) throws -> URL {
        let source = Bundle.module.resourceURL!
            .appendingPathComponent("Fixtures", isDirectory: true)
            .appendingPathComponent(folderName, isDirectory: true)
        let destination = url.appendingPathComponent(folderName, isDirectory: true)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path)
        where !excluded.contains(name) {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name),
                to: destination.appendingPathComponent(name)
            )
        }
        return url
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
