import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("A census of stored documents")
struct DocumentCensusTests {
    @Test("Counts readable documents by stored version")
    func countsByVersion() async throws {
        let mixed = try MixedStore(count: 103)
        let census = try await DocumentCensus(StoreNote.self, coder: JSONDocumentCoder(), batchSize: 10)
            .take(of: mixed.makeStore())
        // The document with a damaged field stores version 1: reading only versions counts it.
        var expected = mixed.countsByVersion
        expected[1, default: 0] += 1
        #expect(census.countsByVersion == expected)
        #expect(census.total == 103 + 6)
        #expect(census.chainVersions == [1, 2, 3])
    }

    @Test("Reports documents whose version cannot be read or is retired, with a reason for each")
    func unreadableDocuments() async throws {
        let census = try await DocumentCensus(StoreNote.self, coder: JSONDocumentCoder())
            .take(of: MixedStore(count: 8).makeStore())
        #expect(census.unreadable.count == 3)
        #expect(Set(census.unreadable.sample.map(\.key)) == [1_001, 1_002, 1_003])
        let retired = try #require(census.unreadable.sample.first { $0.key == 1_003 })
        #expect(
            "\(retired.reason)"
                == "version 0 was retired: the oldest this build reads is version 1 (StoreNoteV1)"
        )
        guard case .versionUnreadable = try #require(census.unreadable.sample.first { $0.key == 1_001 }).reason else {
            Issue.record("a document that is not JSON has no readable version")
            return
        }
    }

    @Test("Reports documents of newer builds apart from unreadable ones")
    func newerDocuments() async throws {
        let census = try await DocumentCensus(StoreNote.self, coder: JSONDocumentCoder())
            .take(of: MixedStore(count: 8).makeStore())
        #expect(census.newer.count == 2)
        #expect(Set(census.newer.sample.map(\.key)) == [1_005, 1_006])
        #expect(
            census.newer.sample.allSatisfy {
                "\($0.reason)".contains("newer than this build, whose newest is version 3")
            }
        )
    }

    @Test("Keeps a bounded sample of problems but counts them all")
    func boundedSample() async throws {
        var documents: [Int: Data] = [:]
        for key in 1...50 {
            documents[key] = Data("damaged \(key)".utf8)
        }
        let census = try await DocumentCensus(StoreNote.self, coder: JSONDocumentCoder(), sampleLimit: 5)
            .take(of: InMemoryDocumentStore(documents: documents))
        #expect(census.unreadable.count == 50)
        #expect(census.unreadable.sample.map(\.key) == [1, 2, 3, 4, 5])
    }

    @Test("Decoding every document also finds damaged fields")
    func decodingFindsDamagedFields() async throws {
        let census = try await DocumentCensus(StoreNote.self, coder: JSONDocumentCoder(), decodesDocuments: true)
            .take(of: MixedStore(count: 8).makeStore())
        #expect(census.unreadable.count == 4)
        let damaged = try #require(census.unreadable.sample.first { $0.key == 1_004 })
        guard case .undecodable(stored: 1, _) = damaged.reason else {
            Issue.record("expected the damaged field to be reported, got \(damaged.reason)")
            return
        }
    }

    @Test("Says versions may be retired only when no document is stored below them")
    func retiring() async throws {
        let store = InMemoryDocumentStore<Int>()
        let encoder = JSONEncoder()
        await store.put(try encoder.encode(versioned: StoreNoteV2(title: "a", lines: [])), at: 1)
        await store.put(try encoder.encode(versioned: StoreNote(title: "b", lines: [], pinned: true)), at: 2)
        await store.put(Data("damaged".utf8), at: 3)
        let census = try await DocumentCensus(StoreNote.self, coder: JSONDocumentCoder()).take(of: store)
        #expect(census.mayRetireVersions(below: 2))
        #expect(!census.mayRetireVersions(below: 3))
        #expect(census.documentsStored(below: 3) == 1)

        // A document of a retired version still holds its version back.
        await store.put(Data(#"{"version": 0}"#.utf8), at: 4)
        let again = try await DocumentCensus(StoreNote.self, coder: JSONDocumentCoder()).take(of: store)
        #expect(!again.mayRetireVersions(below: 1))
        #expect(again.mayRetireVersions(below: 0))
    }

    @Test("Writes nothing")
    func writesNothing() async throws {
        let mixed = try MixedStore(count: 20)
        let store = mixed.makeStore()
        _ = try await DocumentCensus(StoreNote.self, coder: JSONDocumentCoder(), decodesDocuments: true).take(of: store)
        #expect(await store.allDocuments == mixed.documents)
    }
}
