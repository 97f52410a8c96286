import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("An upgrade of stored documents")
struct DocumentUpgradeTests {
    static let decoder = JSONDecoder()

    @Test("Moves every readable document below the target to it, with the value its migration gives")
    func upgradesToCurrent() async throws {
        let mixed = try MixedStore(count: 101)
        let store = mixed.makeStore()
        let report = try await DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(batchSize: 7)
        )
        .run(on: store)
        for (key, value) in mixed.expected {
            let data = try #require(await store.data(at: key))
            let read = try Self.decoder.decodeWithStoredVersion(StoreNote.self, from: data)
            #expect(read.storedVersion == 3)
            #expect(read.wrappedValue == value)
        }
        #expect(report.upgraded == (mixed.countsByVersion[1] ?? 0) + (mixed.countsByVersion[2] ?? 0))
        #expect(report.upgradedFrom == [1: mixed.countsByVersion[1] ?? 0, 2: mixed.countsByVersion[2] ?? 0])
        #expect(report.alreadyAtTarget == mixed.countsByVersion[3])
        #expect(report.examined == 107)
        #expect(report.batches == 16)
    }

    @Test("Leaves documents at the target byte for byte")
    func leavesCurrentDocuments() async throws {
        let mixed = try MixedStore(count: 40)
        let store = mixed.makeStore()
        try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: store)
        for (key, data) in mixed.documents where key <= 40 {
            if try Self.decoder.storedVersion(of: StoreNote.self, from: data) == 3 {
                #expect(await store.data(at: key) == data)
            }
        }
    }

    @Test("Leaves unreadable and newer documents byte for byte and reports them")
    func keepsUnreadableAndNewer() async throws {
        let mixed = try MixedStore(count: 12)
        let store = mixed.makeStore()
        let report = try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: store)
        for key in MixedStore.unreadableKeys.union(MixedStore.newerKeys) {
            #expect(await store.data(at: key) == mixed.documents[key])
        }
        #expect(Set(report.unreadable.sample.map(\.key)) == MixedStore.unreadableKeys)
        #expect(Set(report.newer.sample.map(\.key)) == MixedStore.newerKeys)
        #expect(report.unreadable.count == 4)
        #expect(report.newer.count == 2)
    }

    @Test("A second run over an upgraded store writes nothing")
    func idempotent() async throws {
        let mixed = try MixedStore(count: 30)
        let store = FaultyStore(base: mixed.makeStore())
        let upgrade = try DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder(), settings: .init(batchSize: 4))
        try await upgrade.run(on: store)
        let after = await store.base.allDocuments
        let writesAfterFirst = await store.writes
        let second = try await upgrade.run(on: store)
        #expect(await store.base.allDocuments == after)
        #expect(await store.writes == writesAfterFirst)
        #expect(second.upgraded == 0)
        #expect(second.examined == 36)
        #expect(!second.resumed)
    }

    @Test("A target older than the current version writes that version and leaves newer ones")
    func olderTarget() async throws {
        let mixed = try MixedStore(count: 40)
        let store = mixed.makeStore()
        let report = try await DocumentUpgrade(StoreNote.self, to: .version(2), coder: JSONDocumentCoder()).run(
            on: store
        )
        #expect(report.upgraded == mixed.countsByVersion[1])
        #expect(report.alreadyAtTarget == (mixed.countsByVersion[2] ?? 0) + (mixed.countsByVersion[3] ?? 0))
        for (key, original) in mixed.documents where key <= 40 {
            let data = try #require(await store.data(at: key))
            let stored = try Self.decoder.storedVersion(of: StoreNote.self, from: original)
            if stored == 1 {
                #expect(try Self.decoder.storedVersion(of: StoreNote.self, from: data) == 2)
                // What a build whose newest version is 2 reads is the same note.
                let old = try Self.decoder.decode(versioned: StoreNoteV2.self, from: data)
                #expect(old == StoreNoteV2(from: try Self.decoder.decode(versioned: StoreNoteV1.self, from: original)))
            } else {
                #expect(data == original)
            }
            #expect(try Self.decoder.decode(versioned: StoreNote.self, from: data) == mixed.expected[key])
        }
    }

    @Test("A target that is not in the chain is refused before anything is read")
    func targetNotInChain() throws {
        #expect(throws: UpgradeError.targetNotInChain(7, chain: [1, 2, 3])) {
            try DocumentUpgrade(StoreNote.self, to: .version(7), coder: JSONDocumentCoder())
        }
    }

    @Test(
        "A document that would not read back as the same value is left as it is and reported apart from unreadable ones"
    )
    func refusesLossyWrites() async throws {
        let store = InMemoryDocumentStore<Int>()
        let original = try JSONEncoder().encode(versioned: StoreNoteV1(title: "keep me", text: "x"))
        await store.put(original, at: 1)
        let report = try await DocumentUpgrade(StoreNote.self, coder: TitleDroppingCoder()).run(on: store)
        #expect(await store.data(at: 1) == original)
        #expect(report.upgraded == 0)
        #expect(report.unreadable.isEmpty)
        let problem = try #require(report.notWritableAtTarget.sample.first)
        #expect("\(problem.reason)".contains("cannot be written as version 3 without losing something"))
    }

    @Test("Works with property lists as with JSON")
    func propertyLists() async throws {
        let encoder = PropertyListEncoder()
        let store = InMemoryDocumentStore<String>()
        await store.put(try encoder.encode(versioned: StoreNoteV1(title: "t", text: "a\nb")), at: "a")
        await store.put(try encoder.encode(versioned: StoreNoteV2(title: "u", lines: ["c"])), at: "b")
        let report = try await DocumentUpgrade(StoreNote.self, coder: PropertyListDocumentCoder()).run(on: store)
        #expect(report.upgraded == 2)
        let read = try PropertyListDecoder().decodeWithStoredVersion(
            StoreNote.self,
            from: #require(await store.data(at: "a"))
        )
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue == StoreNote(title: "t", lines: ["a", "b"], pinned: false))
    }

    @Test("The upgrade, its store and reports can be used from other tasks")
    func sendable() async throws {
        let store = try MixedStore(count: 10).makeStore()
        let upgrade = try DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder())
        let census = try DocumentCensus(StoreNote.self, coder: JSONDocumentCoder())
        let report = try await Task.detached { try await upgrade.run(on: store) }.value
        let counted = try await Task.detached { try await census.take(of: store) }.value
        #expect(report.upgraded == 5)
        #expect(counted.countsByVersion == [3: 10, 1: 1])
    }
}

/// A coder whose writes lose the title, as a coder with a wrong setting could.
struct TitleDroppingCoder: DocumentCoder {
    let json = JSONDocumentCoder()

    func storedVersion<Value: VersionedCodable>(of type: Value.Type, from data: Data) throws -> Int? {
        try json.storedVersion(of: type, from: data)
    }

    func decode<Value: VersionedCodable>(_ type: Value.Type, from data: Data) throws -> Versioned<Value> {
        try json.decode(type, from: data)
    }

    func encode<Value: VersionedCodable>(_ value: Value, asVersion version: Int?) throws -> Data {
        let data = try json.encode(value, asVersion: version)
        var object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        object["title"] = ""
        return try JSONSerialization.data(withJSONObject: object)
    }
}
