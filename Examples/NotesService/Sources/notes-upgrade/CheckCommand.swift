import Foundation
import Logging
import NotesModel
import NotesStore
import PostgresNIO
import VersionedCodable

/// Compares the table with the ledger: what was planted (`notes_planted`) and what the live
/// writers wrote (`live_writes`, the last write of each note, and, with `--ledger FILE`, the
/// service's edits).
///
/// - A readable note must decode at the target version (the live writers write the current
///   one), as the value its migration gives from the planted document, or, when the service
///   wrote it, from the last write. A note whose
///   last live write does not come back is lost; any other readable note that differs is
///   changed.
/// - An unreadable or newer note must be byte for byte as planted; otherwise it is changed.
/// - A planted note missing from the table is lost.
enum CheckCommand {
    /// A line of the service's ledger, as `notes-load edits` writes it.
    struct LedgerLine: Decodable {
        var id: String
        var body: String
    }

    struct Counts {
        var notes = 0
        var upgraded = 0
        var unreadableKept = 0
        var newerKept = 0
        var liveWrites = 0
        var lost = 0
        var changed = 0
        var problems: [String] = []

        mutating func report(_ problem: String) {
            if problems.count < 10 {
                problems.append(problem)
            }
        }
    }

    static func run(_ arguments: Arguments, database: PostgresConnectionSettings, logger: Logger) async throws -> Int32
    {
        let target = try arguments.int("--to", default: Note.version)
        // The service's edits, one JSON line each: the last line of a note is its last write.
        var lastServiceWrite: [String: String] = [:]
        var serviceWriteCount = 0
        if let path = arguments.string("--ledger") {
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
                let write = try JSONDecoder().decode(LedgerLine.self, from: Data(line.utf8))
                lastServiceWrite[write.id] = write.body
                serviceWriteCount += 1
            }
        }
        let lastServiceWrites = lastServiceWrite
        let serviceWrites = serviceWriteCount
        let counts = try await database.withClient(logger: logger) { client in
            var counts = Counts()
            for try await writes in try await client.query("SELECT count(*)::bigint FROM live_writes", logger: logger)
                .decode(Int.self)
            {
                counts.liveWrites = writes + serviceWrites
            }
            let rows = try await client.query(
                """
                SELECT p.id, p.body, p.kind, p.version, n.body, w.body
                FROM notes_planted AS p
                LEFT JOIN notes AS n ON n.id = p.id
                LEFT JOIN (SELECT DISTINCT ON (id) id, body FROM live_writes ORDER BY id, seq DESC) AS w ON w.id = p.id
                """,
                logger: logger
            )
            let decoder = JSONDecoder()
            for try await (id, planted, kind, version, stored, lastDirectWrite) in rows.decode(
                (String, String, String, Int, String?, String?).self
            ) {
                let lastWrite = lastServiceWrites[id] ?? lastDirectWrite
                counts.notes += 1
                guard let stored else {
                    counts.lost += 1
                    counts.report("\(id): missing from the table")
                    continue
                }
                guard kind == "readable" else {
                    if stored == planted {
                        if kind == "newer" { counts.newerKept += 1 } else { counts.unreadableKept += 1 }
                    } else {
                        counts.changed += 1
                        counts.report("\(id): a \(kind) note was rewritten: \(stored.prefix(120))")
                    }
                    continue
                }
                let expected = try decoder.decode(versioned: Note.self, from: Data((lastWrite ?? planted).utf8))
                let read: Versioned<Note>
                do {
                    read = try decoder.decodeWithStoredVersion(Note.self, from: Data(stored.utf8))
                } catch {
                    counts.changed += 1
                    counts.report("\(id): no longer decodes: \(error)")
                    continue
                }
                if read.wrappedValue != expected {
                    if lastWrite != nil { counts.lost += 1 } else { counts.changed += 1 }
                    counts.report("\(id): reads as another value\(lastWrite != nil ? ", the live write is lost" : "")")
                } else if read.storedVersion != target {
                    counts.changed += 1
                    counts.report(
                        "\(id): stored as version \(read.storedVersion.map(String.init) ?? "none"), not the target"
                    )
                } else if version != target, lastWrite == nil {
                    counts.upgraded += 1
                }
            }
            return counts
        }
        for problem in counts.problems {
            FileHandle.standardError.write(Data("check: \(problem)\n".utf8))
        }
        print(
            "check notes=\(counts.notes) upgraded=\(counts.upgraded) unreadable_kept=\(counts.unreadableKept) "
                + "newer_kept=\(counts.newerKept) live_writes=\(counts.liveWrites) lost=\(counts.lost) "
                + "changed=\(counts.changed)"
        )
        return counts.lost == 0 && counts.changed == 0 ? 0 : 1
    }
}
