import ArgumentParser
import Foundation
import Logging
import NotesModel
import NotesStore
import PostgresNIO
import VersionedCodable

/// Edits notes as the service does while the upgrade runs, directly in the table: read a note,
/// decode it through its chain, change it, and write it at the current version if its revision
/// has not moved. Each
/// write and its ledger row (`live_writes`) are one statement, so the ledger holds exactly the
/// writes that happened. Half the edits go to notes just ahead of an upgrade worker's
/// checkpoint, where the worker is about to write, so that conflicts happen.
struct LiveWritesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-writes",
        abstract: "Edit planted notes directly in the table, as the service does, until the stop file appears.",
        discussion: """
            Each write and its row in live_writes are one statement, so that check knows every \
            note's last write. Half the edits go to notes just ahead of an upgrade worker.
            """
    )

    @Option(help: "Stop when a file appears at this path.")
    var stopFile: String

    @Option(help: "Writers at once (1 or more).")
    var writers = 3

    @Option(help: "Milliseconds each writer waits between edits (0 or more).")
    var intervalMs = 5

    @Option(help: "Seed for the choice of notes.")
    var seed: UInt64 = 2

    mutating func validate() throws {
        guard writers >= 1 else {
            throw ValidationError("--writers must be 1 or more, not \(writers)")
        }
        guard intervalMs >= 0 else {
            throw ValidationError("--interval-ms must be 0 or more, not \(intervalMs)")
        }
    }

    func run() async throws {
        let logger = Tool.logger
        let (stopFile, writers, seed) = (stopFile, writers, seed)
        let interval = UInt64(intervalMs) * 1_000_000
        let (writes, conflicts) = try await Tool.withDatabase { client in
            var readable: [String] = []
            for try await id in try await client.query(
                "SELECT id FROM notes_planted WHERE kind = 'readable' ORDER BY id",
                logger: logger
            ).decode(String.self) {
                readable.append(id)
            }
            guard !readable.isEmpty else {
                throw ToolError("no readable planted notes: run plant first")
            }
            // The notes at even positions: those at odd ones are edited through the service
            // (`notes-load edits`), so that each note has one writer and its last write is
            // known.
            let ids = readable.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            return try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        var random = SplitMix64(seed: seed &+ UInt64(writer))
                        var writes = 0
                        var conflicts = 0
                        var ahead: [String] = []
                        while !FileManager.default.fileExists(atPath: stopFile) {
                            if writes % 20 == 0 {
                                ahead = try await Self.idsAheadOfWorkers(client: client, logger: logger)
                            }
                            let id = Bool.random(using: &random) ? ahead.randomElement(using: &random) : nil
                            let chosen =
                                id.flatMap { ids.contains(binarySearchFor: $0) ? $0 : nil }
                                ?? ids.randomElement(using: &random)!
                            let (written, moved) = try await Self.edit(
                                id: chosen,
                                label: "\(writer)-\(writes)",
                                client: client,
                                logger: logger
                            )
                            writes += written ? 1 : 0
                            conflicts += moved
                            if interval > 0 {
                                try await Task.sleep(nanoseconds: interval)
                            }
                        }
                        return (writes, conflicts)
                    }
                }
                var total = (0, 0)
                for try await (writes, conflicts) in group {
                    total = (total.0 + writes, total.1 + conflicts)
                }
                return total
            }
        }
        print("live writes: \(writes) writes, \(conflicts) retried after the note moved")
    }

    /// Notes just after each running worker's checkpoint: the page it is working on.
    static func idsAheadOfWorkers(client: PostgresClient, logger: Logger) async throws -> [String] {
        var ids: [String] = []
        let rows = try await client.query(
            """
            SELECT n.id FROM upgrade_checkpoints AS c
            CROSS JOIN LATERAL (SELECT id FROM notes WHERE id > c.position ORDER BY id LIMIT 200) AS n
            WHERE NOT c.finished AND c.position IS NOT NULL
            """,
            logger: logger
        )
        for try await id in rows.decode(String.self) {
            ids.append(id)
        }
        return ids
    }

    /// Edits one note, reading it again when its revision moved; returns whether it wrote and
    /// how many times it had to read again.
    static func edit(id: String, label: String, client: PostgresClient, logger: Logger) async throws -> (Bool, Int) {
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        var retries = 0
        for _ in 0..<10 {
            var row: (String, Int)?
            for try await found in try await client.query(
                "SELECT body, revision FROM notes WHERE id = \(id)",
                logger: logger
            ).decode((String, Int).self) {
                row = found
            }
            guard let (body, revision) = row else { return (false, retries) }
            var note = try decoder.decode(versioned: Note.self, from: Data(body.utf8))
            note.title = "Note \(id), live edit \(label)"
            note.pinned.toggle()
            let written = String(decoding: try encoder.encode(versioned: note), as: UTF8.self)
            let rows = try await client.query(
                """
                WITH w AS (
                    UPDATE notes SET body = \(written), version = \(Note.version!), revision = revision + 1
                    WHERE id = \(id) AND revision = \(revision) RETURNING id)
                INSERT INTO live_writes (id, body) SELECT id, \(written) FROM w RETURNING seq
                """,
                logger: logger
            )
            for try await _ in rows.decode(Int.self) {
                return (true, retries)
            }
            retries += 1
        }
        return (false, retries)
    }
}

extension Array where Element == String {
    /// Whether the sorted array holds `value`.
    func contains(binarySearchFor value: String) -> Bool {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < count && self[low] == value
    }
}
