import ArgumentParser
import DocumentStore
import Foundation
import VersionedCodableStore

/// What the commands share: the coder and how a database is opened.
enum ToolSettings {
    /// The coder every command uses; sorted keys, as the generator writes.
    static var coder: JSONDocumentCoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return JSONDocumentCoder(encoder: encoder)
    }

    @Sendable static func sayWaiting() {
        FileHandle.standardError.write(
            Data("document-store: another process holds the database (another upgrade?); waiting for it\n".utf8)
        )
    }

    /// Opens a store that exists; a file that is not one ends the command with status 66.
    static func open(_ path: String, mode: DocumentDatabase.OpenMode, wait: Double) throws -> DocumentDatabase {
        do {
            return try DocumentDatabase(path: path, mode: mode, busyTimeout: wait, onWait: sayWaiting)
        } catch let error as NotAStoreError {
            FileHandle.standardError.write(Data("document-store: \(error)\n".utf8))
            throw ExitCode(ExitStatus.notAStore)
        }
    }
}
