import DocumentStore
import Foundation

/// A real SQLite file in a folder of its own, removed when the value goes away.
final class TemporaryDatabase {
    let folder: URL
    let path: String
    let database: DocumentDatabase

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("DocumentStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("documents.sqlite").path
        database = try DocumentDatabase(path: path)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}
