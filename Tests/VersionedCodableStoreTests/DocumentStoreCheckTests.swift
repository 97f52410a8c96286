import Foundation
import Testing
import VersionedCodableStore

@Suite("The adapter check holds a store to the promises an upgrade relies on")
struct DocumentStoreCheckTests {
    @Test("The in-memory store keeps every promise")
    func inMemoryStorePasses() async throws {
        // snippet: store-adapter-check
        let store = InMemoryDocumentStore<String>()
        let check = DocumentStoreCheck(store: store, keys: ["a", "b", "c"]) { key, data in
            await store.put(data, at: key)
        }
        try await check.run()
        // end snippet
        #expect(await store.checkpoint(named: check.checkpointName)?.isFinished == true)
    }

    @Test("A store that keeps keys apart that Swift holds equal passes, each read by its own key")
    func byteKeyedStorePasses() async throws {
        let store = ByteKeyedStore(documents: [])
        // Byte for byte, the decomposed spelling sorts first.
        let keys = ["cafe\u{301}", "caf\u{E9}", "tea"]
        try await DocumentStoreCheck(store: store, keys: keys) { key, data in await store.put(data, at: key) }.run()
    }

    @Test("A store that writes over a changed document fails, naming the broken promise")
    func carelessStoreFails() async throws {
        let store = CarelessStore()
        await #expect {
            try await DocumentStoreCheck(store: store, keys: [1, 2, 3]) { key, data in
                await store.base.put(data, at: key)
            }
            .run()
        } throws: { error in
            let failure = error as? DocumentStoreCheckFailure
            return failure?.problems.contains("commit did not refuse 2, changed after it was read") == true
                && failure?.problems.contains("a refused commit replaced the service's write to 2") == true
        }
    }

    @Test("A store whose count is wrong fails")
    func miscountingStoreFails() async throws {
        let store = CarelessStore(countsOneMore: true)
        let check = DocumentStoreCheck(store: store, keys: [1, 2, 3]) { key, data in await store.base.put(data, at: key)
        }
        await #expect {
            try await check.run()
        } throws: { error in
            "\(error)".contains("countOfDocuments(after: nil) is 4, not 3")
        }
    }

    @Test("Fewer than three keys are refused")
    func tooFewKeys() async {
        let store = InMemoryDocumentStore<Int>()
        await #expect(throws: StoreSettingError.self) {
            try await DocumentStoreCheck(store: store, keys: [1]) { key, data in await store.put(data, at: key) }.run()
        }
    }
}

/// A store that commits without comparing revisions, and may miscount.
actor CarelessStore: DocumentStore {
    let base = InMemoryDocumentStore<Int>()
    let countsOneMore: Bool
    private var checkpoints: [String: UpgradeCheckpoint<Int>] = [:]

    init(countsOneMore: Bool = false) {
        self.countsOneMore = countsOneMore
    }

    func documents(after key: Int?, limit: Int) async -> [StoredDocument<Int, Int>] {
        await base.documents(after: key, limit: limit)
    }

    func document(at key: Int) async -> StoredDocument<Int, Int>? {
        await base.document(at: key)
    }

    func countOfDocuments(after key: Int?) async -> Int {
        await base.countOfDocuments(after: key) + (countsOneMore ? 1 : 0)
    }

    func checkpoint(named name: String) -> UpgradeCheckpoint<Int>? {
        checkpoints[name]
    }

    func commit(_ writes: [DocumentWrite<Int, Int>], checkpoint: UpgradeCheckpoint<Int>) async -> [Int] {
        for write in writes {
            await base.put(write.data, at: write.key)
        }
        checkpoints[checkpoint.name] = checkpoint
        return []
    }
}
