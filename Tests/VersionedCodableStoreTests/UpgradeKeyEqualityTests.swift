import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("An upgrade re-reads each document by its own key, whatever Swift's string equality says")
struct UpgradeKeyEqualityTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test("A service write to one of two keys Swift holds equal is retried on that document alone")
    func equalKeysRetriedApart() async throws {
        #expect(Self.composed == Self.decomposed)
        let encoder = JSONEncoder()
        let store = ByteKeyedStore(documents: [
            (Self.composed, try encoder.encode(versioned: StoreNoteV1(title: "composed", text: "a"))),
            (Self.decomposed, try encoder.encode(versioned: StoreNoteV1(title: "decomposed", text: "b"))),
        ])
        let edit = try encoder.encode(versioned: StoreNoteV2(title: "service edit", lines: ["c"]))
        // Byte for byte, the decomposed key sorts first: the write goes to the page's second entry.
        await store.beforeCommits([{ store in await store.put(edit, at: Self.composed) }])
        let report = try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: store)
        #expect(report.upgraded == 2)
        let decoder = JSONDecoder()
        let first = try decoder.decode(versioned: StoreNote.self, from: #require(await store.data(at: Self.composed)))
        let second = try decoder.decode(
            versioned: StoreNote.self,
            from: #require(await store.data(at: Self.decomposed))
        )
        #expect(first == StoreNote(title: "service edit", lines: ["c"], pinned: false))
        #expect(second == StoreNote(title: "decomposed", lines: ["b"], pinned: false))
    }
}
