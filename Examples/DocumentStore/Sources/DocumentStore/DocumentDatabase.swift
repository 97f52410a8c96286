import Foundation
import GRDB

/// A SQLite file of JSON documents: one `documents` table of `id` and `body` (the JSON text).
///
/// The body is kept as text so that documents of every version sit side by side and SQLite's
/// JSON functions can look inside them without the program's types.
public struct DocumentDatabase: Sendable {
    /// The connection to the file; GRDB serializes access to it.
    public let queue: DatabaseQueue

    /// Opens the database at `path`, creating the file and the tables when they are missing.
    ///
    /// - Parameter path: The SQLite file.
    /// - Throws: `DatabaseError` when the file cannot be opened or created.
    public init(path: String) throws {
        queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS documents (
                        id INTEGER PRIMARY KEY,
                        body TEXT NOT NULL
                    )
                    """
            )
            // Where an upgrade records how far it came, in the same file as the documents so
            // that a page's writes and its position commit in one transaction.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS upgrade_checkpoints (
                        name TEXT PRIMARY KEY,
                        position INTEGER,
                        finished INTEGER NOT NULL
                    )
                    """
            )
        }
    }

    /// The number of documents in the store.
    ///
    /// - Returns: The row count of `documents`.
    /// - Throws: `DatabaseError`.
    public func documentCount() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? 0 }
    }

    /// How many documents are stored with each version, read by SQLite from the JSON itself.
    ///
    /// The count does not go through the program's decoding, so it also shows what is really
    /// in the file when the program's types disagree with it. Documents without a `version`
    /// key count under `nil`.
    ///
    /// - Returns: The counts, keyed by the stored version.
    /// - Throws: `DatabaseError`, also when a body is not JSON.
    public func countsByStoredVersion() throws -> VersionCounts {
        try queue.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT json_extract(body, '$.version') AS version, COUNT(*) AS count
                    FROM documents GROUP BY 1
                    """
            )
            var counts: [Int?: Int] = [:]
            for row in rows {
                let version: Int? = row["version"]
                counts[version] = row["count"]
            }
            return VersionCounts(counts)
        }
    }

    /// Every document's body, keyed by id, for checks that compare the store before and after.
    ///
    /// - Returns: The bodies keyed by id.
    /// - Throws: `DatabaseError`.
    public func allBodies() throws -> [Int64: String] {
        try queue.read { db in
            var bodies: [Int64: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, body FROM documents")
            while let row = try rows.next() {
                bodies[row["id"]] = row["body"]
            }
            return bodies
        }
    }
}

/// The number of documents stored with each version.
public struct VersionCounts: Equatable, Sendable, CustomStringConvertible {
    /// The count for each stored version; `nil` is documents without a version.
    public let counts: [Int?: Int]

    /// Wraps counts keyed by version.
    ///
    /// - Parameter counts: The count for each stored version.
    public init(_ counts: [Int?: Int]) {
        self.counts = counts.filter { $0.value != 0 }
    }

    /// All documents counted.
    public var total: Int { counts.values.reduce(0, +) }

    /// The count for one version, zero when there is none.
    ///
    /// - Parameter version: A stored version, `nil` for documents without one.
    public subscript(version: Int?) -> Int { counts[version] ?? 0 }

    /// One line per version, oldest first, then the total.
    public var description: String {
        let ordered = counts.keys.sorted { ($0 ?? Int.min) < ($1 ?? Int.min) }
        let lines = ordered.map { version in
            let name = version.map { "v\($0)" } ?? "none"
            return "  \(name.padding(toLength: 5, withPad: " ", startingAt: 0)) \(counts[version] ?? 0)"
        }
        return (lines + ["  total \(total)"]).joined(separator: "\n")
    }
}
