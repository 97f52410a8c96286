/// A place that keeps versioned documents under keys, as an upgrade and a census need it.
///
/// A store lists its documents in a stable key order, a page at a time, so that a run can stop
/// anywhere and go on from the last key it reached. It replaces a document only if the
/// document is unchanged since it was read: each ``StoredDocument`` carries a ``Revision``,
/// and ``commit(_:checkpoint:)`` writes only when every written document still has the
/// revision it was read with. What "unchanged" means is the store's to say, as long as any
/// write by anyone else changes it: a counter that every write increases, or the bytes
/// themselves.
///
/// The checkpoint is written in the same transaction as the page's writes, so that after a
/// crash the position and the documents agree: either both moved or neither did.
///
/// Keys: the store's order and its equality are the ones that count. `Key`'s `==` must hold
/// two keys equal whenever the store does (or the run would write one document as another);
/// it may hold more keys equal than the store does, as Swift's `String` holds `café` with a
/// composed and with a decomposed accent equal where a database comparing bytes keeps two
/// documents: every document is read again by its own key, never looked up by an equal one.
/// ``documents(after:limit:)`` must list each document once, in an order that does not change
/// during a run; documents the service inserts during a run are upgraded when they sort after
/// the run's position, and left to the next run otherwise, and those it deletes are counted
/// in ``UpgradeReport/gone`` when the run had read them.
///
/// ``DocumentStoreCheck`` checks an adapter against these promises from its own tests.
///
/// <!-- snippet: store-one-line -->
/// ```swift
/// let store = InMemoryDocumentStore<String>()
/// let report = try await DocumentUpgrade(Bookmark.self, coder: JSONDocumentCoder()).run(on: store)
/// ```
public protocol DocumentStore: Sendable {
    /// What names a document; the store lists documents in its own stable order of keys.
    associatedtype Key: Hashable & Sendable

    /// What tells whether a document changed since it was read.
    associatedtype Revision: Equatable & Sendable

    /// Lists documents in the store's key order, starting after `key`.
    ///
    /// - Parameters:
    ///   - key: The last key already seen, or `nil` to start at the first document.
    ///   - limit: The most documents to return; always more than zero.
    /// - Returns: Up to `limit` documents, in key order. An empty page means there are no
    ///   documents after `key`.
    /// - Throws: The store's own errors.
    func documents(after key: Key?, limit: Int) async throws -> [StoredDocument<Key, Revision>]

    /// Reads one document as it is now, to retry a write that found it changed.
    ///
    /// - Parameter key: The document's key.
    /// - Returns: The document, or `nil` when it no longer exists.
    /// - Throws: The store's own errors.
    func document(at key: Key) async throws -> StoredDocument<Key, Revision>?

    /// Counts the documents after `key`, for progress reports.
    ///
    /// An upgrade calls it at most once per run, and only when a progress report is asked
    /// for with ``UpgradeSettings/countsRemainingDocuments`` on; a census never calls it.
    ///
    /// - Parameter key: The last key already seen, or `nil` to count every document.
    /// - Returns: How many documents follow `key` in the store's order.
    /// - Throws: The store's own errors.
    func countOfDocuments(after key: Key?) async throws -> Int

    /// Reads the checkpoint a run left under `name`.
    ///
    /// - Parameter name: The run's name, as in ``UpgradeCheckpoint/name``.
    /// - Returns: The last checkpoint committed under `name`, or `nil` when there is none.
    /// - Throws: The store's own errors.
    func checkpoint(named name: String) async throws -> UpgradeCheckpoint<Key>?

    /// Replaces documents and records a checkpoint, all in one transaction, if every document
    /// is unchanged since it was read.
    ///
    /// All or nothing: when any document's revision differs from
    /// ``DocumentWrite/readRevision`` (or the document is gone), nothing is written, neither
    /// the documents nor the checkpoint, and the keys that changed are returned so that the
    /// caller can read them again.
    ///
    /// - Parameters:
    ///   - writes: The documents to replace; may be empty, to move the checkpoint alone.
    ///   - checkpoint: The position to record with the writes.
    /// A throw must mean that the transaction was committed whole or not at all, never in part.
    /// A database over a network cannot always say which: its `COMMIT` may take effect and the
    /// reply be lost. That is safe as long as it was all or nothing: the run stops with the
    /// error, and the next run resumes from whichever checkpoint the store holds; documents
    /// already written at the target are then found at the target and left as they are.
    ///
    /// - Returns: The keys of the documents that changed since they were read; empty when the
    ///   transaction was committed.
    /// - Throws: The store's own errors; then the transaction was either not written or, when
    ///   the store cannot know (a lost reply), written whole.
    func commit(
        _ writes: [DocumentWrite<Key, Revision>],
        checkpoint: UpgradeCheckpoint<Key>
    ) async throws -> [Key]
}
