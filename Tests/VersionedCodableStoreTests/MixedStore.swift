import Foundation
import VersionedCodable
import VersionedCodableStore

/// A store of notes of every version, with documents planted that this build cannot read and
/// documents of a newer build, and what each readable document must read as.
struct MixedStore {
    /// The keys of the planted documents that cannot be read or are newer.
    static let unreadableKeys: Set<Int> = [1_001, 1_002, 1_003, 1_004]
    static let newerKeys: Set<Int> = [1_005, 1_006]

    let documents: [Int: Data]

    /// What each readable document reads as, through the whole chain.
    let expected: [Int: StoreNote]

    /// How many readable documents are stored with each version.
    let countsByVersion: [Int?: Int]

    init(count: Int) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var documents: [Int: Data] = [:]
        var counts: [Int?: Int] = [:]
        for key in 1...count {
            let title = "note \(key)"
            let data: Data
            switch key % 4 {
            case 0:
                data = try encoder.encode(versioned: StoreNoteV1(title: title, text: "first\nsecond \(key)"))
                counts[1, default: 0] += 1
            case 1:
                data = try encoder.encode(versioned: StoreNoteV2(title: title, lines: ["only \(key)"]))
                counts[2, default: 0] += 1
            default:
                data = try encoder.encode(versioned: StoreNote(title: title, lines: ["a", "b"], pinned: key % 4 == 3))
                counts[3, default: 0] += 1
            }
            documents[key] = data
        }
        documents[1_001] = Data("not json at all".utf8)
        documents[1_002] = Data(#"{"version": "two", "title": "x"}"#.utf8)
        // Version 0 is older than the chain's oldest type: a retired version.
        documents[1_003] = Data(#"{"version": 0, "title": "ancient"}"#.utf8)
        // A version the chain has, with a field of the wrong type.
        documents[1_004] = Data(#"{"version": 1, "title": 7, "text": "x"}"#.utf8)
        documents[1_005] = Data(#"{"version": 9, "title": "from the future", "lines": [], "pinned": true}"#.utf8)
        documents[1_006] = Data(#"{"version": 4, "title": "next release"}"#.utf8)
        self.documents = documents
        self.countsByVersion = counts
        let decoder = JSONDecoder()
        var expected: [Int: StoreNote] = [:]
        for (key, data) in documents where key <= count {
            expected[key] = try decoder.decode(versioned: StoreNote.self, from: data)
        }
        self.expected = expected
    }

    func makeStore() -> InMemoryDocumentStore<Int> {
        InMemoryDocumentStore(documents: documents)
    }
}
