import ArgumentParser
import DocumentStore
import Foundation
import VersionedCodableStore

/// What the commands share: the coder, the one validation of settings, the exit statuses and
/// how a database is opened.
enum ToolSettings {
    static let retireStatus: Int32 = 3
    static let leftBehindStatus: Int32 = 4
    static let notAStoreStatus: Int32 = 66
    static let interruptedStatus: Int32 = 130

    /// The coder every command uses; sorted keys, as the generator writes.
    static var coder: JSONDocumentCoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return JSONDocumentCoder(encoder: encoder)
    }

    /// Settings as the library checks them: its refusal is the command's validation error.
    static func upgradeSettings(
        batchSize: Int,
        pause: Double = 0,
        isDryRun: Bool = false,
        name: String = "upgrade"
    ) throws -> UpgradeSettings {
        do {
            return try UpgradeSettings(
                batchSize: batchSize,
                pauseBetweenBatches: pause,
                isDryRun: isDryRun,
                checkpointName: name
            )
        } catch let error as StoreSettingError {
            throw ValidationError("\(error)")
        }
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
            throw ExitCode(notAStoreStatus)
        }
    }

    /// `unversioned`, `v1`, `v2`: the chain as a person reads it.
    static func describe(_ version: Int?) -> String {
        version.map { "v\($0)" } ?? "unversioned"
    }

    /// Prints a value as JSON with sorted keys on standard output.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
