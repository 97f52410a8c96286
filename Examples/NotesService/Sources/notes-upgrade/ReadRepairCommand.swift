import ArgumentParser
import Foundation
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
struct ReadRepairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-repair",
        abstract: "Read random planted notes with repair on, as a service does, until the stop file appears.",
        discussion: """
            A note below the target is written back at it through the store's compare and swap, \
            at most --rate a second. Prints the reader's report and `repaired on read: <q>`; \
            exits with status 1 when a write-back failed.
            """
    )

    @Option(help: "Stop when a file appears at this path.")
    var stopFile: String

    @Option(help: "The version to write back (default: the current one).")
    var to: Int?

    @Option(help: "Readers at once (1 or more).")
    var readers = 2

    @Option(help: "Write-backs a second, at most (more than 0).")
    var rate = 200.0

    @Option(help: "Seed for the choice of notes.")
    var seed: UInt64 = 3

    mutating func validate() throws {
        guard readers >= 1 else {
            throw ValidationError("--readers must be 1 or more, not \(readers)")
        }
        _ = try reader()
    }

    /// The reader as the library checks it: its refusal is the command's validation error.
    func reader() throws -> UpgradeOnRead<Note, JSONDocumentCoder> {
        let target = to ?? Note.version!
        do {
            return try UpgradeOnRead(
                Note.self,
                to: .version(target),
                coder: JSONDocumentCoder(encoder: NotesAPI.encoders[target] ?? JSONEncoder()),
                writesBackPerSecond: rate
            )
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        let reader = try reader()
        let (stopFile, readers, seed) = (stopFile, readers, seed)
        try await Tool.withDatabase { client in
            let store = PostgresNoteStore(client: client, share: .all, logger: Tool.logger)
            var ids: [String] = []
            for try await id in try await client.query("SELECT id FROM notes_planted ORDER BY id", logger: Tool.logger)
                .decode(String.self)
            {
                ids.append(id)
            }
            guard !ids.isEmpty else {
                throw ToolError("no planted notes: run plant first")
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
        if reader.report.failed > 0 {
            throw ExitCode.failure
        }
    }
}
