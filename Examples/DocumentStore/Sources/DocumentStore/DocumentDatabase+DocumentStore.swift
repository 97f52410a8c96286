import Foundation
import GRDB
import VersionedCodableStore

/// The `documents` table as a store that an upgrade and a census go through.
///
/// Documents are listed by `id`. A document counts as unchanged when its body is the same
/// text as when it was read: the table has no revision column, and any write that matters
/// changes the body. The checkpoints live in `upgrade_checkpoints`, written in the same
/// transaction as each page.
///
/// ```swift
/// let database = try DocumentDatabase(path: "notes.sqlite")
/// let report = try await DocumentUpgrade(Note.self, coder: JSONDocumentCoder()).run(on: database)
/// ```
extension DocumentDatabase: DocumentStore {
    // snippet: store-sqlite-documents
    /// Lists documents by ascending `id`, after `key`.
    ///
    /// - Parameters:
    ///   - key: The last id seen, or `nil` to start at the first document.
    ///   - limit: The most documents to return.
    /// - Returns: Up to `limit` documents; each one's revision is its body.
    /// - Throws: `DatabaseError`.
    public func documents(after key: Int64?, limit: Int) async throws -> [StoredDocument<Int64, Data>] {
        try await queue.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT id, body FROM documents WHERE id > ? ORDER BY id LIMIT ?",
                arguments: [key ?? Int64.min, limit]
            )
            var page: [StoredDocument<Int64, Data>] = []
            while let row = try rows.next() {
                page.append(Self.document(from: row))
            }
            return page
        }
    }
    // end snippet

    // snippet: store-sqlite-document
    /// Reads one document.
    ///
    /// - Parameter key: The document's id.
    /// - Returns: The document, or `nil` when there is none.
    /// - Throws: `DatabaseError`.
    public func document(at key: Int64) async throws -> StoredDocument<Int64, Data>? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT id, body FROM documents WHERE id = ?", arguments: [key])
                .map(Self.document(from:))
        }
    }
    // end snippet

    // snippet: store-sqlite-count
    /// Counts the documents after `key`.
    ///
    /// - Parameter key: The last id seen, or `nil` to count them all.
    /// - Returns: The number of documents whose id is above `key`.
    /// - Throws: `DatabaseError`.
    public func countOfDocuments(after key: Int64?) async throws -> Int {
        try await queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents WHERE id > ?", arguments: [key ?? Int64.min])
                ?? 0
        }
    }
    // end snippet

    // snippet: store-sqlite-checkpoint
    /// Reads a checkpoint.
    ///
    /// - Parameter name: The run's name.
    /// - Returns: The last checkpoint committed under `name`, or `nil` when there is none.
    /// - Throws: `DatabaseError`.
    public func checkpoint(named name: String) async throws -> UpgradeCheckpoint<Int64>? {
        try await queue.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT position, finished FROM upgrade_checkpoints WHERE name = ?",
                arguments: [name]
            ).map { row in
                UpgradeCheckpoint(name: name, position: row["position"], isFinished: row["finished"])
            }
        }
    }
    // end snippet

    // snippet: store-sqlite-commit
    /// Replaces the documents whose body is unchanged and records the checkpoint, in one
    /// transaction, or writes nothing when any body changed.
    ///
    /// - Parameters:
    ///   - writes: The documents to replace, each with the body it was read with.
    ///   - checkpoint: The position to record.
    /// - Returns: The ids whose body changed since it was read; empty when committed.
    /// - Throws: `DatabaseError`; then nothing was written.
    public func commit(
        _ writes: [DocumentWrite<Int64, Data>],
        checkpoint: UpgradeCheckpoint<Int64>
    ) async throws -> [Int64] {
        try await queue.writeWithoutTransaction { db in
            var changed: [Int64] = []
            try db.inTransaction {
                let update = try db.makeStatement(sql: "UPDATE documents SET body = ? WHERE id = ? AND body = ?")
                for write in writes {
                    try update.execute(
                        arguments: [
                            String(decoding: write.data, as: UTF8.self), write.key,
                            String(decoding: write.readRevision, as: UTF8.self),
                        ]
                    )
                    if db.changesCount == 0 {
                        changed.append(write.key)
                    }
                }
                guard changed.isEmpty else {
                    return .rollback
                }
                try db.execute(
                    sql: """
                        INSERT INTO upgrade_checkpoints (name, position, finished) VALUES (?, ?, ?)
                        ON CONFLICT (name) DO UPDATE SET position = excluded.position, finished = excluded.finished
                        """,
                    arguments: [checkpoint.name, checkpoint.position, checkpoint.isFinished]
                )
                return .commit
            }
            return changed
        }
    }
    // end snippet

    // snippet: store-sqlite-row
    private static func document(from row: Row) -> StoredDocument<Int64, Data> {
        let body = Data((row["body"] as String).utf8)
        return StoredDocument(key: row["id"], data: body, revision: body)
    }
    // end snippet
}
