import Foundation
import Logging
import PostgresNIO
import VersionedCodableStore

/// The `notes` table as a store for census and upgrade, or the share of it that one upgrade
/// worker owns.
///
/// Documents are listed by `id`. A note counts as unchanged while its `revision` is the one it
/// was read at: the service increases it by one on every write, and so does ``commit(_:checkpoint:)``,
/// so an upgrade's write is a compare-and-set on it. The service's reads write notes back
/// through the same commit, with `UpgradeOnRead`.
///
/// Several workers share the table by partitioning the keys: worker `index` of `count` owns the
/// notes whose `hashtext(id)` is `index` modulo `count`. No two workers ever write the same
/// note, each keeps its own checkpoint, and a worker that is killed and started again with the
/// same share resumes from its checkpoint. A partition rather than `FOR UPDATE SKIP LOCKED`,
/// because a share that does not depend on timing gives each worker a position of its own to
/// resume from.
///
/// A page's updates and its checkpoint commit in one transaction; when a note's revision
/// moved, the transaction is rolled back and the moved notes are returned.
package struct PostgresNoteStore: DocumentStore {
    /// The share of the notes one worker owns.
    package struct Share: Sendable, Hashable, CustomStringConvertible {
        package var index: Int
        package var count: Int

        /// Every note.
        package static let all = Share(index: 0, count: 1)

        package init(index: Int, count: Int) {
            precondition(count > 0 && (0..<count).contains(index), "a share is an index below its count")
            self.index = index
            self.count = count
        }

        package var description: String { "\(index + 1) of \(count)" }
    }

    let client: PostgresClient
    let logger: Logger
    package let share: Share

    package init(client: PostgresClient, share: Share = .all, logger: Logger) {
        self.client = client
        self.share = share
        self.logger = logger
    }

    /// Creates the notes table, as the service does, and the checkpoints table, if missing.
    package func prepare() async throws {
        try await client.withConnection { connection in
            try await Self.createTables(on: connection, logger: logger)
        }
    }

    /// The statements of ``prepare()`` on a connection the caller holds: the service runs them
    /// under its advisory lock, since its instances start at once and its reads commit
    /// checkpoints when they write notes back.
    package static func createTables(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS notes (
                id text PRIMARY KEY, body text NOT NULL, version integer NOT NULL,
                revision bigint NOT NULL)
            """,
            logger: logger
        )
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS upgrade_checkpoints (
                name text PRIMARY KEY, position text, finished boolean NOT NULL)
            """,
            logger: logger
        )
    }

    /// Whether the database holds the service's notes table: the tool refuses a database that
    /// does not, rather than creating the table in it.
    package func holdsNotesTable() async throws -> Bool {
        try await tableExists("notes")
    }

    private func tableExists(_ name: String) async throws -> Bool {
        let rows = try await client.query("SELECT to_regclass(\(name)) IS NOT NULL", logger: logger)
        for try await exists in rows.decode(Bool.self) {
            return exists
        }
        return false
    }

    // snippet: store-postgres-documents
    package func documents(after key: String?, limit: Int) async throws -> [StoredDocument<String, Int>] {
        let rows = try await client.query(
            """
            SELECT id, body, revision FROM notes
            WHERE (\(key)::text IS NULL OR id > \(key)) AND abs(hashtext(id)::bigint) % \(share.count) = \(share.index)
            ORDER BY id LIMIT \(limit)
            """,
            logger: logger
        )
        var page: [StoredDocument<String, Int>] = []
        page.reserveCapacity(limit)
        for try await (id, body, revision) in rows.decode((String, String, Int).self) {
            page.append(StoredDocument(key: id, data: Data(body.utf8), revision: revision))
        }
        return page
    }
    // end snippet

    package func document(at key: String) async throws -> StoredDocument<String, Int>? {
        let rows = try await client.query("SELECT body, revision FROM notes WHERE id = \(key)", logger: logger)
        for try await (body, revision) in rows.decode((String, Int).self) {
            return StoredDocument(key: key, data: Data(body.utf8), revision: revision)
        }
        return nil
    }

    package func countOfDocuments(after key: String?) async throws -> Int {
        let rows = try await client.query(
            """
            SELECT count(*)::bigint FROM notes
            WHERE (\(key)::text IS NULL OR id > \(key)) AND abs(hashtext(id)::bigint) % \(share.count) = \(share.index)
            """,
            logger: logger
        )
        for try await count in rows.decode(Int.self) {
            return count
        }
        return 0
    }

    /// The checkpoint, or `nil` when there is none; a database that has never been upgraded has
    /// no checkpoints table, and a dry run, which cannot create it, reads none.
    package func checkpoint(named name: String) async throws -> UpgradeCheckpoint<String>? {
        guard try await tableExists("upgrade_checkpoints") else {
            return nil
        }
        let rows = try await client.query(
            "SELECT position, finished FROM upgrade_checkpoints WHERE name = \(name)",
            logger: logger
        )
        for try await (position, finished) in rows.decode((String?, Bool).self) {
            return UpgradeCheckpoint(name: name, position: position, isFinished: finished)
        }
        return nil
    }

    // snippet: store-postgres-commit
    package func commit(
        _ writes: [DocumentWrite<String, Int>],
        checkpoint: UpgradeCheckpoint<String>
    ) async throws -> [String] {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                var changed: [String] = []
                if !writes.isEmpty {
                    let ids = writes.map(\.key)
                    let bodies = writes.map { String(decoding: $0.data, as: UTF8.self) }
                    let versions = writes.map { $0.version ?? 0 }
                    let revisions = writes.map(\.readRevision)
                    // One statement for the page: the compare-and-set of every note at once.
                    let rows = try await connection.query(
                        """
                        UPDATE notes AS n SET body = w.body, version = w.version::int, revision = n.revision + 1
                        FROM unnest(\(ids)::text[], \(bodies)::text[], \(versions)::bigint[], \(revisions)::bigint[])
                            AS w(id, body, version, revision)
                        WHERE n.id = w.id AND n.revision = w.revision
                        RETURNING n.id
                        """,
                        logger: logger
                    )
                    var written = Set<String>()
                    for try await id in rows.decode(String.self) {
                        written.insert(id)
                    }
                    changed = ids.filter { !written.contains($0) }
                }
                guard changed.isEmpty else {
                    try await connection.query("ROLLBACK", logger: logger)
                    return changed
                }
                try await connection.query(
                    """
                    INSERT INTO upgrade_checkpoints (name, position, finished)
                    VALUES (\(checkpoint.name), \(checkpoint.position), \(checkpoint.isFinished))
                    ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, finished = EXCLUDED.finished
                    """,
                    logger: logger
                )
                try await connection.query("COMMIT", logger: logger)
                return []
            } catch {
                // The connection goes back to the pool: leave it outside any transaction.
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }
    // end snippet
}
