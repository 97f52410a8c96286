import Foundation

/// Folders of the source tree the tests read: the committed schema files, which recording
/// writes beside the tests, and the Poem fixtures of the core's tests.
enum SourceFolders {
    private static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static let schemas = tests.appendingPathComponent("Schemas", isDirectory: true)

    static let poemFixtures = tests.deletingLastPathComponent()
        .appendingPathComponent("VersionedCodableTests/Fixtures/Poem", isDirectory: true)

    /// A new, empty folder for one test, removed by `remove()`.
    static func temporary() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("schema-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
