import Foundation
import Testing
import VersionedCodableStore

@Suite("The in-memory store")
struct InMemoryDocumentStoreTests {
    static func data(_ text: String) -> Data { Data(text.utf8) }

    @Test("Lists documents in ascending key order, a page at a time")
    func paging() async {
        let store = InMemoryDocumentStore(documents: [5: Self.data("e"), 1: Self.data("a"), 3: Self.data("c")])
        await store.put(Self.data("b"), at: 2)
        #expect(await store.documents(after: nil, limit: 2).map(\.key) == [1, 2])
        #expect(await store.documents(after: 2, limit: 2).map(\.key) == [3, 5])
        #expect(await store.documents(after: 4, limit: 2).map(\.key) == [5])
        #expect(await store.documents(after: 5, limit: 2).isEmpty)
        #expect(await store.countOfDocuments(after: 2) == 2)
        await store.remove(at: 3)
        #expect(await store.documents(after: nil, limit: 9).map(\.key) == [1, 2, 5])
    }

    @Test("Commits all writes and the checkpoint, or nothing when a document changed")
    func compareAndSwap() async throws {
        let store = InMemoryDocumentStore(documents: [1: Self.data("a"), 2: Self.data("b")])
        let page = await store.documents(after: nil, limit: 2)
        await store.put(Self.data("b2"), at: 2)
        let writes = page.map {
            DocumentWrite(key: $0.key, readRevision: $0.revision, data: Self.data("new"), version: 1)
        }
        let checkpoint = UpgradeCheckpoint(name: "run", position: 2, isFinished: false)
        #expect(await store.commit(writes, checkpoint: checkpoint) == [2])
        #expect(await store.data(at: 1) == Self.data("a"))
        #expect(await store.checkpoint(named: "run") == nil)

        let fresh = try #require(await store.document(at: 2))
        let retry = [
            writes[0], DocumentWrite(key: 2, readRevision: fresh.revision, data: Self.data("new"), version: 1),
        ]
        #expect(await store.commit(retry, checkpoint: checkpoint) == [])
        #expect(await store.allDocuments == [1: Self.data("new"), 2: Self.data("new")])
        #expect(await store.checkpoint(named: "run") == checkpoint)
    }
}
