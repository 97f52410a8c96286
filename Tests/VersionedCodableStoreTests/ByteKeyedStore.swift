import Foundation
import VersionedCodableStore

/// A store whose keys are distinct when their bytes differ, as in a database that compares
/// keys byte for byte: `café` written with a composed `é` and with `e` and a combining accent
/// are two documents here, though Swift's `String` holds them equal.
actor ByteKeyedStore: DocumentStore {
    private var entries: [(key: String, document: StoredDocument<String, Int>)] = []
    private var checkpoints: [String: UpgradeCheckpoint<String>] = [:]
    private var nextRevision = 1
    private var serviceWrites: [@Sendable (ByteKeyedStore) async -> Void] = []

    init(documents: [(String, Data)]) {
        for (key, data) in documents {
            entries.append((key, StoredDocument(key: key, data: data, revision: nextRevision)))
            nextRevision += 1
        }
        entries.sort { Self.bytes($0.key).lexicographicallyPrecedes(Self.bytes($1.key)) }
    }

    /// Runs `writes` against the store just before the next commits, one per commit, as the
    /// service would between the read and the write.
    func beforeCommits(_ writes: [@Sendable (ByteKeyedStore) async -> Void]) {
        serviceWrites = writes
    }

    /// Writes a document as the service does; its revision changes.
    func put(_ data: Data, at key: String) {
        let document = StoredDocument(key: key, data: data, revision: nextRevision)
        nextRevision += 1
        if let index = index(of: key) {
            entries[index].document = document
        } else {
            entries.append((key, document))
            entries.sort { Self.bytes($0.key).lexicographicallyPrecedes(Self.bytes($1.key)) }
        }
    }

    func data(at key: String) -> Data? {
        index(of: key).map { entries[$0].document.data }
    }

    func documents(after key: String?, limit: Int) -> [StoredDocument<String, Int>] {
        let start =
            key.map { key in
                entries.firstIndex { Self.bytes(key).lexicographicallyPrecedes(Self.bytes($0.key)) } ?? entries.count
            } ?? 0
        return entries[start..<min(entries.count, start + limit)].map(\.document)
    }

    func document(at key: String) -> StoredDocument<String, Int>? {
        index(of: key).map { entries[$0].document }
    }

    func countOfDocuments(after key: String?) -> Int {
        documents(after: key, limit: entries.count).count
    }

    func checkpoint(named name: String) -> UpgradeCheckpoint<String>? {
        checkpoints[name]
    }

    func commit(_ writes: [DocumentWrite<String, Int>], checkpoint: UpgradeCheckpoint<String>) async -> [String] {
        if !serviceWrites.isEmpty {
            await serviceWrites.removeFirst()(self)
        }
        let changed = writes.filter { document(at: $0.key)?.revision != $0.readRevision }.map(\.key)
        guard changed.isEmpty else {
            return changed
        }
        for write in writes {
            put(write.data, at: write.key)
        }
        checkpoints[checkpoint.name] = checkpoint
        return []
    }

    private func index(of key: String) -> Int? {
        entries.firstIndex { Self.bytes($0.key) == Self.bytes(key) }
    }

    private static func bytes(_ key: String) -> [UInt8] {
        Array(key.utf8)
    }
}
