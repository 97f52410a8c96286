import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("An upgrade never overwrites what the service wrote meanwhile")
struct UpgradeConflictTests {
    static let encoder = JSONEncoder()
    static let decoder = JSONDecoder()

    @Test("A document the service changed after the read is read again and migrated from the service's write")
    func conflictRetried() async throws {
        let mixed = try MixedStore(count: 20)
        let store = FaultyStore(base: mixed.makeStore())
        let edit = StoreNoteV2(title: "service edit", lines: ["x"])
        let editData = try Self.encoder.encode(versioned: edit)
        await store.beforeCommits([{ base in await base.put(editData, at: 4) }])
        let report = try await DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(batchSize: 5)
        )
        .run(on: store)
        #expect(report.conflictsRetried == 1)
        let read = try Self.decoder.decodeWithStoredVersion(
            StoreNote.self,
            from: #require(await store.base.data(at: 4))
        )
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue == StoreNote(from: edit))
        // The rest of the page was written once, with the retry.
        #expect(await store.writes.values.allSatisfy { $0 == 1 })
    }

    @Test("A service write at the current version is kept as the service wrote it")
    func serviceWriteAtTargetKept() async throws {
        let mixed = try MixedStore(count: 8)
        let store = FaultyStore(base: mixed.makeStore())
        let edit = try Self.encoder.encode(versioned: StoreNote(title: "pinned now", lines: [], pinned: true))
        // Key 4 stores version 1: the upgrade reads it, then the service writes it.
        await store.beforeCommits([{ base in await base.put(edit, at: 4) }])
        let report = try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: store)
        #expect(await store.base.data(at: 4) == edit)
        #expect(report.conflictsRetried == 1)
        #expect(await store.writes[4] == nil)
    }

    @Test("A document the service deleted meanwhile stays deleted")
    func deletedDocument() async throws {
        let store = FaultyStore(base: try MixedStore(count: 8).makeStore())
        await store.beforeCommits([{ base in await base.remove(at: 4) }])
        let report = try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: store)
        #expect(await store.base.data(at: 4) == nil)
        #expect(report.conflictsRetried == 1)
    }

    @Test("Documents that change at every attempt stop the run without losing a write")
    func keepsChanging() async throws {
        let store = FaultyStore(base: try MixedStore(count: 8).makeStore())
        let writes: [@Sendable (InMemoryDocumentStore<Int>) async -> Void] = (0..<3).map { attempt in
            { base in
                let data = try! JSONEncoder().encode(versioned: StoreNoteV1(title: "attempt \(attempt)", text: ""))
                await base.put(data, at: 4)
            }
        }
        await store.beforeCommits(writes)
        let upgrade = try DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(maximumAttempts: 3)
        )
        await #expect(throws: UpgradeError.documentsKeptChanging(["4"])) { try await upgrade.run(on: store) }
        let last = try Self.decoder.decode(versioned: StoreNoteV1.self, from: #require(await store.base.data(at: 4)))
        #expect(last.title == "attempt 2")
        #expect(await store.writes.isEmpty)
        // The service calmed down: the next run finishes from the same place.
        let report = try await upgrade.run(on: store)
        #expect(report.upgraded == 4)
        let read = try Self.decoder.decode(versioned: StoreNote.self, from: #require(await store.base.data(at: 4)))
        #expect(read.title == "attempt 2")
    }
}
