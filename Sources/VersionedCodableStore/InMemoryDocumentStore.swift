import Foundation

/// A store that keeps its documents in memory, for tests and for trying an upgrade out.
///
/// Its revision is a counter that every write of a document increases, so a write made with
/// ``put(_:at:)`` (as the service would) between an upgrade's read and its commit is a
/// conflict. Keys are listed in ascending order.
///
/// <!-- snippet: store-in-memory -->
/// ```swift
/// let store = InMemoryDocumentStore<Int>()
/// await store.put(try JSONEncoder().encode(versioned: bookmark), at: 1)
/// ```
public actor InMemoryDocumentStore<Key: Comparable & Hashable & Sendable>: DocumentStore {
    private var entries: [Key: StoredDocument<Key, Int>] = [:]
    /// The keys in ascending order, kept sorted on insertion so that a page is a binary search
    /// and a slice.
    private var orderedKeys: [Key] = []
    private var checkpoints: [String: UpgradeCheckpoint<Key>] = [:]
    private var nextRevision = 1

    /// Makes a store holding `documents`.
    ///
    /// - Parameter documents: The documents' bytes by key.
    public init(documents: [Key: Data] = [:]) {
        for (key, data) in documents {
            entries[key] = StoredDocument(key: key, data: data, revision: nextRevision)
            nextRevision += 1
        }
        orderedKeys = entries.keys.sorted()
    }

    /// Writes a document whatever it holds, as the service does; its revision changes.
    ///
    /// - Parameters:
    ///   - data: The document's new bytes.
    ///   - key: The document's key; a new key adds a document.
    public func put(_ data: Data, at key: Key) {
        if entries[key] == nil {
            orderedKeys.insert(key, at: firstIndex(after: key, inclusive: true))
        }
        entries[key] = StoredDocument(key: key, data: data, revision: nextRevision)
        nextRevision += 1
    }

    /// Deletes a document.
    ///
    /// - Parameter key: The document's key.
    public func remove(at key: Key) {
        guard entries.removeValue(forKey: key) != nil else { return }
        orderedKeys.remove(at: firstIndex(after: key, inclusive: true))
    }

    /// The bytes of a document.
    ///
    /// - Parameter key: The document's key.
    /// - Returns: The bytes, or `nil` when there is no such document.
    public func data(at key: Key) -> Data? {
        entries[key]?.data
    }

    /// Every document's bytes by key, to compare the store before and after a run.
    public var allDocuments: [Key: Data] {
        entries.mapValues(\.data)
    }

    /// Lists documents in ascending key order after `key`.
    ///
    /// - Parameters:
    ///   - key: The last key seen, or `nil` to start at the first document.
    ///   - limit: The most documents to return.
    /// - Returns: Up to `limit` documents.
    public func documents(after key: Key?, limit: Int) -> [StoredDocument<Key, Int>] {
        let start = key.map { firstIndex(after: $0, inclusive: false) } ?? 0
        return orderedKeys[start..<min(orderedKeys.count, start + max(0, limit))].map { entries[$0]! }
    }

    /// Reads one document.
    ///
    /// - Parameter key: The document's key.
    /// - Returns: The document, or `nil` when there is none.
    public func document(at key: Key) -> StoredDocument<Key, Int>? {
        entries[key]
    }

    /// Counts the documents after `key`.
    ///
    /// - Parameter key: The last key seen, or `nil` to count them all.
    /// - Returns: The number of documents after `key`.
    public func countOfDocuments(after key: Key?) -> Int {
        orderedKeys.count - (key.map { firstIndex(after: $0, inclusive: false) } ?? 0)
    }

    /// Reads a checkpoint.
    ///
    /// - Parameter name: The run's name.
    /// - Returns: The last checkpoint committed under `name`.
    public func checkpoint(named name: String) -> UpgradeCheckpoint<Key>? {
        checkpoints[name]
    }

    /// Replaces documents and records the checkpoint if every document still has the revision
    /// it was read at; otherwise changes nothing.
    ///
    /// - Parameters:
    ///   - writes: The documents to replace.
    ///   - checkpoint: The position to record.
    /// - Returns: The keys whose documents changed since they were read.
    public func commit(_ writes: [DocumentWrite<Key, Int>], checkpoint: UpgradeCheckpoint<Key>) -> [Key] {
        let changed = writes.filter { entries[$0.key]?.revision != $0.readRevision }.map(\.key)
        guard changed.isEmpty else {
            return changed
        }
        for write in writes {
            entries[write.key] = StoredDocument(key: write.key, data: write.data, revision: nextRevision)
            nextRevision += 1
        }
        checkpoints[checkpoint.name] = checkpoint
        return []
    }

    /// The index of the first key above `key` (or, when `inclusive`, not below it).
    private func firstIndex(after key: Key, inclusive: Bool) -> Int {
        var low = 0
        var high = orderedKeys.count
        while low < high {
            let middle = (low + high) / 2
            if orderedKeys[middle] < key || (!inclusive && orderedKeys[middle] == key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
