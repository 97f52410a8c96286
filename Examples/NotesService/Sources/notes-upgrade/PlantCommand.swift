import ArgumentParser
import Foundation
import NotesModel
import NotesStore
import PostgresNIO
import VersionedCodable

/// Fills an empty notes table as five years of releases would have: notes of versions 1, 2 and
/// 3, version 2 notes with version 1 attachments, a few damaged notes and a few written by a
/// newer build. A copy of each note as planted goes into `notes_planted`, with its kind, for
/// the check.
struct PlantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plant",
        abstract: "Fill an empty notes table with notes of every version, damaged notes and notes of a newer build.",
        discussion: """
            Creates the notes table when the database has none, and refuses a table that holds \
            notes. Keeps a copy of each note as planted in notes_planted, for check.
            """
    )

    @Option(help: "Notes to plant (1 or more).")
    var notes = 100_000

    @Option(help: "Seed for the generated notes.")
    var seed: UInt64 = 1

    mutating func validate() throws {
        guard notes >= 1 else {
            throw ValidationError("--notes must be 1 or more, not \(notes)")
        }
    }

    func run() async throws {
        let count = notes
        let seed = seed
        let logger = Tool.logger
        try await Tool.withDatabase(requiringNotes: false) { client in
            let store = PostgresNoteStore(client: client, logger: logger)
            try await store.prepare()
            try await client.query(
                """
                CREATE TABLE IF NOT EXISTS notes_planted (
                    id text PRIMARY KEY, body text NOT NULL, kind text NOT NULL, version integer NOT NULL)
                """,
                logger: logger
            )
            try await client.query(
                "CREATE TABLE IF NOT EXISTS live_writes (seq bigserial PRIMARY KEY, id text NOT NULL, body text NOT NULL)",
                logger: logger
            )
            for try await existing in try await client.query("SELECT count(*)::bigint FROM notes", logger: logger)
                .decode(Int.self) where existing > 0
            {
                throw ToolError("the notes table already holds \(existing) notes; plant into an empty database")
            }
            let writer = PlantWriter()
            var random = SplitMix64(seed: seed)
            var kinds: [String: Int] = [:]
            var start = 0
            while start < count {
                var ids: [String] = []
                var bodies: [String] = []
                var versions: [Int] = []
                var planted: [String] = []
                for index in start..<min(count, start + 1_000) {
                    let id = String(format: "note-%07d", index)
                    let (body, version, kind) = try writer.document(id: id, using: &random)
                    ids.append(id)
                    bodies.append(body)
                    versions.append(version)
                    planted.append(kind)
                    kinds[kind, default: 0] += 1
                }
                try await client.query(
                    """
                    INSERT INTO notes (id, body, version, revision)
                    SELECT id, body, version::int, 1 FROM unnest(\(ids)::text[], \(bodies)::text[], \(versions)::bigint[])
                        AS p(id, body, version)
                    """,
                    logger: logger
                )
                try await client.query(
                    """
                    INSERT INTO notes_planted (id, body, kind, version)
                    SELECT id, body, kind, version::int
                    FROM unnest(\(ids)::text[], \(bodies)::text[], \(planted)::text[], \(versions)::bigint[])
                        AS p(id, body, kind, version)
                    """,
                    logger: logger
                )
                start += 1_000
            }
            let summary = kinds.keys.sorted().map { "\($0) \(kinds[$0]!)" }.joined(separator: ", ")
            print("planted \(count) notes: \(summary)")
        }
    }
}
