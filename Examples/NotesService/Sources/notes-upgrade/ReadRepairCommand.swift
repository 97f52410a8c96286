import Foundation
import Logging
import NotesModel
import NotesStore
import PostgresNIO
import VersionedCodable
import VersionedCodableStore

/// Reads notes as a service that repairs on read does, while the upgrade runs: random planted
/// notes of every kind, through `UpgradeOnRead` with write-back on, until the stop file appears.
/// A note below the target is written back at it through the store's compare and swap, so never
/// over a write made since the read; unreadable and newer notes are never written. Prints the
/// reader's report, and `repaired on read: <q>` for the fault test.
enum ReadRepairCommand {
    static func run(_ arguments: Arguments, database: PostgresConnectionSettings, logger: Logger) async throws -> Int32
    {
        guard let stopFile = arguments.string("--stop-file") else {
            throw ArgumentError("read-repair needs --stop-file PATH")
        }
        let readers = try arguments.int("--readers", default: 2)!
        guard readers > 0 else {
            throw ArgumentError("--readers needs at least 1, not \(readers)")
        }
        let rate = try arguments.double("--rate", default: 200)
        let target = try arguments.int("--to", default: Note.version)!
        let seed = UInt64(try arguments.int("--seed", default: 3)!)
        let reader = try UpgradeOnRead(
            Note.self,
            to: .version(target),
            coder: JSONDocumentCoder(encoder: NotesAPI.encoders[target] ?? JSONEncoder()),
            writesBackPerSecond: rate
        )
        try await database.withClient(logger: logger) { client in
            let store = PostgresNoteStore(client: client, share: .all, logger: logger)
            var ids: [String] = []
            for try await id in try await client.query("SELECT id FROM notes_planted ORDER BY id", logger: logger)
                .decode(String.self)
            {
                ids.append(id)
            }
            guard !ids.isEmpty else {
                throw ArgumentError("no planted notes: run plant first")
            }
            let planted = ids
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<readers {
                    group.addTask {
                        var random = SplitMix64(seed: seed &+ UInt64(index))
                        while !FileManager.default.fileExists(atPath: stopFile) {
                            // A note this build cannot read throws, as a service's read would;
                            // the reader counts it as unreadable.
                            _ = try? await reader.read(
                                at: planted.randomElement(using: &random)!,
                                from: store,
                                writeBack: true
                            )
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        print("read repair: \(reader.report)")
        print("repaired on read: \(reader.report.writtenBack)")
        return reader.report.failed == 0 ? 0 : 1
    }
}
