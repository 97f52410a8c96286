import Foundation

/// Checks that a ``DocumentStore`` adapter keeps the promises an upgrade relies on, from its
/// own tests: key order and pages, the count, the re-read by key, compare and swap refusing a
/// changed document, and all or nothing with the checkpoint.
///
/// Run it against an empty, scratch store. It writes a few documents through `write`, the way
/// the service writes them (any write must change the revision), lists and counts them, and
/// commits through the adapter as an upgrade does; it leaves those documents and a checkpoint
/// named ``checkpointName`` behind.
///
/// <!-- snippet: store-adapter-check -->
/// ```swift
/// let store = InMemoryDocumentStore<String>()
/// let check = DocumentStoreCheck(store: store, keys: ["a", "b", "c"]) { key, data in
///     await store.put(data, at: key)
/// }
/// try await check.run()
/// ```
public struct DocumentStoreCheck<Store: DocumentStore>: Sendable {
    /// The store under check.
    public let store: Store

    /// Distinct keys, in the order the store lists them.
    public let keys: [Store.Key]

    /// Writes a document as the service does.
    public let write: @Sendable (Store.Key, Data) async throws -> Void

    /// The name of the checkpoint the check commits.
    public let checkpointName = "document-store-check@v1"

    /// Prepares a check.
    ///
    /// - Parameters:
    ///   - store: An empty store, made for the check.
    ///   - keys: At least three distinct keys, in the order the store lists them; keys that
    ///     Swift holds equal but the store keeps apart (`café` composed and decomposed in a
    ///     database comparing bytes) check that each is read by its own key.
    ///   - write: Writes a document as the service does: a new document at a new key, a new
    ///     revision at an existing one.
    public init(
        store: Store,
        keys: [Store.Key],
        write: @escaping @Sendable (Store.Key, Data) async throws -> Void
    ) {
        self.store = store
        self.keys = keys
        self.write = write
    }

    /// Runs every check, and throws the list of what failed.
    ///
    /// - Throws: ``DocumentStoreCheckFailure`` naming each promise the store broke;
    ///   ``StoreSettingError`` when fewer than three keys were given; the store's own errors.
    public func run() async throws {
        try StoreSettingError.check(keys.count, atLeast: 3, "the number of keys")
        var problems: [String] = []
        for (index, key) in keys.enumerated() {
            try await write(key, Self.body(index, "written"))
        }
        try await checkListing(&problems)
        try await checkCount(&problems)
        try await checkReRead(&problems)
        try await checkCompareAndSwap(&problems)
        guard problems.isEmpty else {
            throw DocumentStoreCheckFailure(problems: problems)
        }
    }

    private static func body(_ index: Int, _ state: String) -> Data {
        Data(#"{"check":\#(index),"state":"\#(state)"}"#.utf8)
    }

    private func checkListing(_ problems: inout [String]) async throws {
        for limit in [1, 2, keys.count + 1] {
            var listed: [Store.Key] = []
            var position: Store.Key?
            while listed.count <= keys.count {
                let page = try await store.documents(after: position, limit: limit)
                if page.count > limit {
                    problems.append("a page asked for \(limit) documents returned \(page.count)")
                }
                guard let last = page.last else { break }
                listed += page.map(\.key)
                position = last.key
            }
            if !listed.elementsEqual(keys, by: Self.sameKey) {
                problems.append("pages of \(limit) list \(listed), not the keys in order \(keys)")
            }
        }
    }

    private func checkCount(_ problems: inout [String]) async throws {
        let all = try await store.countOfDocuments(after: nil)
        if all != keys.count {
            problems.append("countOfDocuments(after: nil) is \(all), not \(keys.count)")
        }
        for (index, key) in keys.enumerated() {
            let after = try await store.countOfDocuments(after: key)
            if after != keys.count - index - 1 {
                problems.append("countOfDocuments(after: \(key)) is \(after), not \(keys.count - index - 1)")
            }
        }
    }

    private func checkReRead(_ problems: inout [String]) async throws {
        let listed = try await store.documents(after: nil, limit: keys.count)
        for (index, document) in listed.enumerated() {
            guard let read = try await store.document(at: document.key) else {
                problems.append("document(at: \(document.key)) found nothing")
                continue
            }
            if !Self.sameKey(read.key, document.key) || read.data != Self.body(index, "written")
                || read.revision != document.revision
            {
                problems.append("document(at: \(document.key)) is not the document listed under that key")
            }
        }
    }

    private func checkCompareAndSwap(_ problems: inout [String]) async throws {
        let page = try await store.documents(after: nil, limit: 2)
        guard page.count == 2 else { return }
        // The service changes the second document after the page was read.
        try await write(page[1].key, Self.body(1, "edited by the service"))
        let writes = page.enumerated().map { index, document in
            DocumentWrite(
                key: document.key,
                readRevision: document.revision,
                data: Self.body(index, "upgraded"),
                version: 1
            )
        }
        let moved = UpgradeCheckpoint(name: checkpointName, position: page[1].key, isFinished: false)
        let changed = try await store.commit(writes, checkpoint: moved)
        if !changed.contains(where: { Self.sameKey($0, page[1].key) }) {
            problems.append("commit did not refuse \(page[1].key), changed after it was read")
        }
        // Keys that `==` holds equal cannot be told apart in the answer; the writes below can.
        if !Self.sameKey(page[0].key, page[1].key), changed.contains(where: { Self.sameKey($0, page[0].key) }) {
            problems.append("commit called \(page[0].key) changed, though nobody wrote it")
        }
        if try await store.document(at: page[0].key)?.data != Self.body(0, "written") {
            problems.append("a refused commit wrote \(page[0].key): it must write all or nothing")
        }
        if try await store.document(at: page[1].key)?.data != Self.body(1, "edited by the service") {
            problems.append("a refused commit replaced the service's write to \(page[1].key)")
        }
        if try await store.checkpoint(named: checkpointName) != nil {
            problems.append("a refused commit recorded its checkpoint: it must write all or nothing")
        }
        // Read again, the page commits whole, with its checkpoint.
        guard let fresh = try await store.document(at: page[1].key) else { return }
        var retry = writes
        retry[1].readRevision = fresh.revision
        let committed = try await store.commit(retry, checkpoint: moved)
        if !committed.isEmpty {
            problems.append("commit refused \(committed) though nothing changed since the read")
        }
        for (index, document) in page.enumerated()
        where try await store.document(at: document.key)?.data != Self.body(index, "upgraded") {
            problems.append("a commit that returned no changed key did not write \(document.key)")
        }
        if try await store.checkpoint(named: checkpointName) != moved {
            problems.append("a commit did not record its checkpoint \(moved)")
        }
        // The store's own write is a change too: the revision read before it is stale.
        let stale = try await store.commit([retry[0]], checkpoint: moved)
        if !stale.contains(where: { Self.sameKey($0, page[0].key) }) {
            problems.append("commit accepted a revision of \(page[0].key) read before the last commit")
        }
        let finished = UpgradeCheckpoint(name: checkpointName, position: page[1].key, isFinished: true)
        _ = try await store.commit([], checkpoint: finished)
        if try await store.checkpoint(named: checkpointName) != finished {
            problems.append("a commit without documents did not record its checkpoint")
        }
    }

    /// Equal, as the check compares keys: by `==`, which may hold more keys equal than the
    /// store does; the store's own reads tell the documents apart.
    private static func sameKey(_ a: Store.Key, _ b: Store.Key) -> Bool {
        a == b
    }
}

/// The promises a ``DocumentStore`` broke under ``DocumentStoreCheck``.
public struct DocumentStoreCheckFailure: Error, Sendable, CustomStringConvertible {
    /// One sentence per broken promise.
    public let problems: [String]

    /// The problems, one per line.
    public var description: String {
        "The store breaks \(problems.count) promise(s) of DocumentStore:\n"
            + problems.map { "- \($0)" }
            .joined(separator: "\n")
    }
}
