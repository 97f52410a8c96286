import ArgumentParser
import Foundation
import NotesModel
import NotesStore
import PostgresNIO
import VersionedCodable

/// Compares the table with the ledger: what was planted (`notes_planted`) and what the live
/// writers wrote (`live_writes`, the last write of each note, and, with `--ledger FILE`, the
/// service's edits through either build).
///
/// - A readable note must decode as the value its migration gives from the planted document,
///   or, when it was written live, from the last write. A note whose last live write does not
///   come back is lost; any other readable note that differs is changed.
/// - It must be stored as the version its last writer writes: the version the service's ledger
///   line names (2 through an old build, 3 through a new one), the current version for the
///   direct writers, and for a note nobody wrote the target, or the planted version when that
///   is the target or above it, since the upgrade leaves such a note as it is. Below the target,
///   or as any other version, it is changed.
/// - An unreadable or newer note must be byte for byte as planted; otherwise it is changed.
/// - A planted note missing from the table is lost.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare the table with what was planted and written, and print the counts.",
        discussion: "Exits with status 1 when a note was lost or changed; the first ten are named on standard error."
    )

    @Option(help: "The version the upgrade wrote (default: the current one).")
    var to: Int?

    @Option(help: "The service's edits, one JSON line each, as `notes-load edits` writes them.")
    var ledger: String?

    /// A line of the service's ledger, as `notes-load edits` writes it.
    struct LedgerLine: Decodable {
        var id: String
        var body: String
        /// The version the build that took the write stores the note as.
        var version: Int
    }

    struct Counts {
        var notes = 0
        var upgraded = 0
        var keptAtOrAboveTarget = 0
        var oldBuildWrites = 0
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

    func run() async throws {
        let target = to ?? Note.version!
        let logger = Tool.logger
        // The service's edits, one JSON line each: the last line of a note is its last write.
        var lastServiceWrite: [String: LedgerLine] = [:]
        var serviceWriteCount = 0
        var oldBuildWriteCount = 0
        if let path = ledger {
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
                let write = try JSONDecoder().decode(LedgerLine.self, from: Data(line.utf8))
                lastServiceWrite[write.id] = write
                serviceWriteCount += 1
                if write.version < Note.version! {
                    oldBuildWriteCount += 1
                }
            }
        }
        let lastServiceWrites = lastServiceWrite
        let serviceWrites = serviceWriteCount
        let oldBuildWrites = oldBuildWriteCount
        let counts = try await Tool.withDatabase { client in
            var counts = Counts()
            counts.oldBuildWrites = oldBuildWrites
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
                // The direct writers write the current version; a note that nobody wrote is
                // moved to the target, or left as it is at or above it.
                let lastWrite: String?
                let expectedVersion: Int
                if let line = lastServiceWrites[id] {
                    (lastWrite, expectedVersion) = (line.body, line.version)
                } else if let lastDirectWrite {
                    (lastWrite, expectedVersion) = (lastDirectWrite, Note.version!)
                } else {
                    (lastWrite, expectedVersion) = (nil, max(version, target))
                }
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
                } else if read.storedVersion != expectedVersion {
                    counts.changed += 1
                    let stored = read.storedVersion.map(String.init) ?? "none"
                    let below = (read.storedVersion ?? Int.min) < target ? ", below the target \(target)" : ""
                    counts.report(
                        "\(id): stored as version \(stored)\(below), not \(expectedVersion)"
                            + (lastWrite != nil ? " as its last live write was" : " (planted as \(version))")
                    )
                } else if lastWrite == nil {
                    if version < target { counts.upgraded += 1 } else { counts.keptAtOrAboveTarget += 1 }
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
                + "changed=\(counts.changed) kept_at_or_above_target=\(counts.keptAtOrAboveTarget) "
                + "old_build_writes=\(counts.oldBuildWrites)"
        )
        if counts.lost > 0 || counts.changed > 0 {
            throw ExitCode.failure
        }
    }
}
