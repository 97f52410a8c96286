import Foundation
import GRDB

/// A SQLite file of JSON documents: one `documents` table of `id` and `body` (the JSON text).
///
/// The body is kept as text so that documents of every version sit side by side and SQLite's
/// JSON functions can look inside them without the program's types.
public struct DocumentDatabase: Sendable {
    /// The connection to the file; GRDB serializes access to it.
    public let queue: DatabaseQueue

    /// How a database is opened.
    public enum OpenMode: Sendable {
        /// Creates the file and the tables when they are missing: for a new store.
        case create
        /// Writes to a store that exists; refuses a file without the store's tables.
        case readWrite
        /// Only reads, as a census and a dry run do; refuses a file without the store's tables.
        case readOnly
    }

    /// Opens the database at `path`.
    ///
    /// While another connection holds the file (another upgrade commits a page), a write
    /// waits up to `busyTimeout` seconds, calling `onWait` once when the wait begins, rather
    /// than failing at once with "database is locked".
    ///
    /// - Parameters:
    ///   - path: The SQLite file.
    ///   - mode: Whether to create the store, write to an existing one or only read it.
    ///   - busyTimeout: Seconds to wait for another connection's lock.
    ///   - onWait: Called when a statement starts waiting for another connection's lock.
    /// - Throws: ``NotAStoreError`` when `mode` is not `create` and the file is missing, is not
    ///   a SQLite database or has not the store's tables; `DatabaseError` otherwise.
    public init(
        path: String,
        mode: OpenMode = .create,
        busyTimeout: Double = 60,
        onWait: @escaping @Sendable () -> Void = {}
    ) throws {
        var configuration = Configuration()
        configuration.readonly = mode == .readOnly
        // SQLite calls this each time a statement finds the file locked; each try waits 50 ms.
        configuration.busyMode = .callback { tries in
            if tries == 0 {
                onWait()
            }
            guard Double(tries) * 0.05 < busyTimeout else { return false }
            usleep(50_000)
            return true
        }
        if mode != .create {
            guard FileManager.default.fileExists(atPath: path) else {
                throw NotAStoreError(path: path, reason: "there is no such file")
            }
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            if mode != .create {
                let tables = try queue.read { db in
                    try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                }
                let missing = ["documents", "upgrade_checkpoints"].filter { !tables.contains($0) }
                guard missing.isEmpty else {
                    throw NotAStoreError(
                        path: path,
                        reason: "it has no table \(missing.joined(separator: " or "))"
                    )
                }
                return
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw NotAStoreError(path: path, reason: "it is not a SQLite database")
        }
        // snippet: store-sqlite-schema
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
        // end snippet
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

/// A file that a command meant to read or upgrade as a document store is not one; nothing was
/// written to it.
public struct NotAStoreError: Error, CustomStringConvertible {
    /// The file.
    public let path: String
    /// Why it is not a store.
    public let reason: String

    /// The file and the reason, in a sentence.
    public var description: String {
        "\(path) is not a document store: \(reason). Nothing was written to it."
    }
}
