import Foundation
import GRDB
import VersionedCodable

/// Reads every note through its version chain and writes back the ones that had to be
/// migrated, one transaction per batch: upgrade-on-read for a whole store.
///
/// Each batch is read and rewritten inside one write transaction, so a stop at any moment
/// leaves every row either as it was or fully migrated, and running again finishes the job:
/// rows already at the current version decode without migration and are not written.
///
/// ```swift
/// let report = try DocumentUpgrader(batchSize: 500).upgrade(database)
/// print(report.migrated, "documents upgraded")
/// ```
public struct DocumentUpgrader: Sendable {
    /// How many rows each transaction reads (and rewrites, where needed).
    public let batchSize: Int

    /// Creates an upgrader.
    ///
    /// - Parameter batchSize: How many rows each transaction reads.
    public init(batchSize: Int = 500) {
        self.batchSize = max(1, batchSize)
    }

    /// Upgrades every document of the store that is not at the current version.
    ///
    /// - Parameters:
    ///   - database: The store.
    ///   - beforeCommit: Called inside each batch's transaction, after its rows are rewritten
    ///     and before it commits; throwing rolls that batch back and stops the run. The
    ///     program uses it for nothing; it lets a caller stop the run at a chosen point.
    /// - Returns: What the run read and wrote.
    /// - Throws: `DatabaseError`, `CancellationError` when the task is cancelled (checked
    ///   between batches), and whatever `beforeCommit` throws. Batches committed before the
    ///   error stay committed.
    @discardableResult
    public func upgrade(
        _ database: DocumentDatabase,
        beforeCommit: (UpgradeReport) throws -> Void = { _ in }
    ) throws -> UpgradeReport {
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var report = UpgradeReport()
        var lastID: Int64 = 0
        while true {
            try Task.checkCancellation()
            let batch = try database.queue.write { db -> UpgradeReport? in
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT id, body FROM documents WHERE id > ? ORDER BY id LIMIT ?",
                    arguments: [lastID, batchSize]
                )
                guard let last = rows.last else {
                    return nil
                }
                var batch = report
                batch.batches += 1
                let update = try db.makeStatement(sql: "UPDATE documents SET body = ? WHERE id = ?")
                for row in rows {
                    let id: Int64 = row["id"]
                    let body: String = row["body"]
                    batch.read += 1
                    let note: Versioned<Note>
                    do {
                        note = try decoder.decodeWithStoredVersion(Note.self, from: Data(body.utf8))
                    } catch {
                        // A document the chain cannot read stays as it is, for a person to
                        // look at; the rest of the store is still upgraded.
                        batch.undecodable.append(id)
                        continue
                    }
                    guard note.wasMigrated else {
                        continue
                    }
                    let upgraded = try encoder.encode(versioned: note.wrappedValue)
                    try update.execute(arguments: [String(decoding: upgraded, as: UTF8.self), id])
                    batch.migrated += 1
                }
                lastID = last["id"]
                try beforeCommit(batch)
                return batch
            }
            guard let batch else {
                return report
            }
            report = batch
        }
    }
}

/// What an upgrade run did, counted over the batches committed so far.
public struct UpgradeReport: Equatable, Sendable {
    /// Transactions committed (or, inside `beforeCommit`, about to commit).
    public var batches = 0
    /// Rows read.
    public var read = 0
    /// Rows rewritten at the current version.
    public var migrated = 0
    /// Ids of rows that did not decode and were left as they are.
    public var undecodable: [Int64] = []
}
