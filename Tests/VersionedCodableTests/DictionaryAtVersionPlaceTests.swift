import Foundation
import Testing
import VersionedCodable

// Dictionaries a type keeps where its spec keeps a version: written with the version merged
// in, read back without it, with their keys as written.

/// Keeps the version in `_metadata.schemaVersion`, a key that snake-case strategies rewrite.
struct CamelMetadataSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.schemaVersion }
    struct Metadata: Codable { var schemaVersion: Int? }
    var _metadata: Metadata
    init(withVersion version: Int?) { _metadata = Metadata(schemaVersion: version) }
}

/// Keeps the version three objects down, at `a.b.c.version`.
struct DeepSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.a.b.c.version }
    struct C: Codable { var version: Int? }
    struct B: Codable { var c: C }
    struct A: Codable { var b: B }
    var a: A
    init(withVersion version: Int?) { a = A(b: B(c: C(version: version))) }
}

/// Writes the version at two root keys, and reads it from one, in a chain of two versions.
struct TwoPlacesSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
    var version: Int?
    var v: Int?
    init(withVersion version: Int?) {
        self.version = version
        v = version
    }
}

extension DictionaryAtVersionPlaceTests.RootCounts {
    init(from decoder: any Decoder) throws {
        self.init(counts: try decoder.singleValueContainer().decode([String: Int].self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(counts)
    }
}

@Suite("Dictionaries where the version goes")
struct DictionaryAtVersionPlaceTests {
    /// Keeps a dictionary with keys of `Key` in `_metadata`, where the version goes.
    struct KeyedMetadata<Key: Codable & Hashable & Sendable>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: [Key: String]
        var title: String
    }

    typealias Numbered = KeyedMetadata<Int>

    struct CamelLabelled: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = CamelMetadataSpec
        var _metadata: [String: String]
    }

    struct Deep: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = DeepSpec
        struct B: Codable, Equatable { var c: [String: Int] }
        struct A: Codable, Equatable { var b: B }
        var a: A
    }

    /// Reads and writes its root as a dictionary of counts.
    protocol RootCounts: VersionedCodable {
        var counts: [String: Int] { get }
        init(counts: [String: Int])
    }

    struct TwoPlacesV1: RootCounts, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = TwoPlacesSpec
        var counts: [String: Int]
    }

    struct TwoPlaces: RootCounts, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = TwoPlacesV1
        typealias VersionSpec = TwoPlacesSpec
        var counts: [String: Int]
        init(counts: [String: Int]) { self.counts = counts }
        init(from old: TwoPlacesV1) { counts = old.counts }
    }

    /// Reads and writes its root as a dictionary of counts, under a `_metadata.version` spec:
    /// the spec's object stands where the dictionary has no entry.
    struct MetadataCountsV1: RootCounts, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var counts: [String: Int]
    }

    struct MetadataCounts: RootCounts, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = MetadataCountsV1
        typealias VersionSpec = MetadataVersionSpec
        var counts: [String: Int]
        init(counts: [String: Int]) { self.counts = counts }
        init(from old: MetadataCountsV1) { counts = old.counts.mapValues { $0 * 10 } }
    }

    /// Opens `_metadata` by hand and keeps every key it finds there.
    struct Listing: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var found: [String]

        init(found: [String]) { self.found = found }

        enum CodingKeys: String, CodingKey { case _metadata }

        init(from decoder: any Decoder) throws {
            let metadata = try decoder.container(keyedBy: CodingKeys.self)
                .nestedContainer(keyedBy: PathKey.self, forKey: ._metadata)
            found = metadata.allKeys.map(\.stringValue).sorted()
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var metadata = container.nestedContainer(keyedBy: PathKey.self, forKey: ._metadata)
            for key in found {
                try metadata.encode(true, forKey: PathKey(stringValue: key))
            }
        }

        struct PathKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    @Test(
        "A dictionary with integer keys where the version goes reads back without it",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func integerKeys(format: String) throws {
        let encode = try #require(VersionPlacementTests.formats.first { $0.name == format }).encode
        let value = Numbered(_metadata: [1: "one", 20: "twenty"], title: "t")
        let data = try value.encodeTransparently(using: encode)
        let metadata = try #require(try VersionPlacementTests.object(data)["_metadata"] as? [String: Any])
        #expect(Set(metadata.keys) == ["1", "20", "version"])
        #expect(try VersionPlacementTests.decode(Numbered.self, data).wrappedValue == value)
    }

    @Test(
        "A dictionary three objects down, where the version goes, reads back without it",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func deepDictionary(format: String) throws {
        let encode = try #require(VersionPlacementTests.formats.first { $0.name == format }).encode
        let value = Deep(a: .init(b: .init(c: ["k": 1])))
        let data = try value.encodeTransparently(using: encode)
        let read = try VersionPlacementTests.decode(Deep.self, data)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == value)
    }

    @Test(
        "A root dictionary gets the spec's object beside its entries, and reads back without it",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func rootDictionaryBesideSpecObject(format: String) throws {
        let encode = try #require(VersionPlacementTests.formats.first { $0.name == format }).encode
        for counts in [["a": 1, "b": 2], [:]] {
            let value = MetadataCounts(counts: counts)
            let data = try value.encodeTransparently(using: encode)
            let object = try VersionPlacementTests.object(data)
            #expect(Set(object.keys) == Set(counts.keys).union(["_metadata"]))
            #expect((object["_metadata"] as? [String: Any])?["version"] as? Int == 2)
            let read = try VersionPlacementTests.decode(MetadataCounts.self, data)
            #expect(read.storedVersion == 2)
            #expect(read.wrappedValue == value)
        }
        let old = try MetadataCountsV1(counts: ["x": 1]).encodeTransparently(using: encode)
        #expect(try VersionPlacementTests.decode(MetadataCounts.self, old).wrappedValue.counts == ["x": 10])
    }

    @Test("A root dictionary keeps its keys under snake-case strategies both ways")
    func rootDictionaryUnderKeyStrategies() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let tally = VersionPlacementTests.Tally(counts: ["snake_key": 1, "camelKey": 2])
        let data = try encoder.encode(versioned: tally)
        #expect(Set(try VersionPlacementTests.object(data).keys) == ["snake_key", "camelKey", "version"])
        #expect(try decoder.decode(versioned: VersionPlacementTests.Tally.self, from: data) == tally)
    }

    @Test("A metadata dictionary keeps its keys as written, the spec's among them, under both strategies")
    func metadataDictionaryUnderKeyStrategies() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let value = CamelLabelled(_metadata: ["x_y": "z", "editorName": "Ada"])
        let data = try encoder.encode(versioned: value)
        let metadata = try #require(try VersionPlacementTests.object(data)["_metadata"] as? [String: Any])
        // A dictionary's keys are data, written as they are; the spec's key in it too.
        #expect(Set(metadata.keys) == ["x_y", "editorName", "schemaVersion"])
        let read = try decoder.decodeWithStoredVersion(CamelLabelled.self, from: data)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == value)
    }

    @Test(
        "A root dictionary does not get either of two version places as an entry",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func twoVersionPlaces(format: String) throws {
        let encode = try #require(VersionPlacementTests.formats.first { $0.name == format }).encode
        let value = TwoPlaces(counts: ["a": 1])
        let data = try value.encodeTransparently(using: encode)
        let object = try VersionPlacementTests.object(data)
        #expect(object["a"] as? Int == 1)
        #expect(object["version"] as? Int == 2)
        #expect(object["v"] as? Int == 2)
        #expect(try VersionPlacementTests.decode(TwoPlaces.self, data).wrappedValue == value)
    }

    @Test("A type that lists the keys of the object where the version goes does not see it")
    func listedKeys() throws {
        let value = Listing(found: ["draft", "reviewed"])
        let data = try JSONEncoder().encode(versioned: value)
        let metadata = try #require(try VersionPlacementTests.object(data)["_metadata"] as? [String: Any])
        #expect(metadata["version"] as? Int == 2)
        #expect(try JSONDecoder().decode(versioned: Listing.self, from: data) == value)
    }

    /// A level named by an integer, written as an integer key by Swift's dictionary coding.
    enum Level: Int, Codable, CodingKeyRepresentable, Hashable {
        case low = 1, high = 2
    }

    typealias Levelled = KeyedMetadata<Level>

    /// Reads and writes its root as a dictionary keyed by levels.
    struct LevelRoot: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        var levels: [Level: String]
        init(levels: [Level: String]) { self.levels = levels }
        init(from decoder: any Decoder) throws {
            levels = try decoder.singleValueContainer().decode([Level: String].self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(levels)
        }
    }

    @Test(
        "Dictionaries keyed by CodingKeyRepresentable integers read back where the version goes",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func codingKeyRepresentableKeys(format: String) throws {
        let encode = try #require(VersionPlacementTests.formats.first { $0.name == format }).encode
        let nested = Levelled(_metadata: [.low: "l", .high: "h"], title: "t")
        let nestedData = try nested.encodeTransparently(using: encode)
        #expect(try VersionPlacementTests.decode(Levelled.self, nestedData).wrappedValue == nested)
        let root = LevelRoot(levels: [.low: "l", .high: "h"])
        let rootData = try root.encodeTransparently(using: encode)
        let read = try VersionPlacementTests.decode(LevelRoot.self, rootData)
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue == root)
    }

    @Test(
        "A root dictionary with its own version entry is refused, not overwritten",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func rootDictionaryWithVersionEntry(format: String) throws {
        let encode = try #require(VersionPlacementTests.formats.first { $0.name == format }).encode
        #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "version")) {
            try VersionPlacementTests.Tally(counts: ["version": 5, "dark": 1]).encodeTransparently(using: encode)
        }
        let kept = VersionPlacementTests.Tally(counts: ["dark": 1, "versions": 2])
        #expect(
            try VersionPlacementTests.decode(VersionPlacementTests.Tally.self, kept.encodeTransparently(using: encode))
                .wrappedValue
                == kept
        )
    }

    @Test("A metadata dictionary reads back under custom key strategies that prefix and strip keys")
    func metadataDictionaryUnderCustomStrategy() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .custom { path in
            AnyKey(stringValue: "x_" + path.last!.stringValue)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let name = path.last!.stringValue
            return AnyKey(stringValue: name.hasPrefix("x_") ? String(name.dropFirst(2)) : name)
        }
        let value = VersionPlacementTests.Labelled(_metadata: ["editor": "Ada", "x_y": "z"], text: "t")
        let data = try encoder.encode(versioned: value)
        let read = try decoder.decodeWithStoredVersion(VersionPlacementTests.Labelled.self, from: data)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == value)
        let numbered = Numbered(_metadata: [1: "one", 20: "twenty"], title: "t")
        #expect(try decoder.decode(versioned: Numbered.self, from: encoder.encode(versioned: numbered)) == numbered)
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { Int(stringValue) }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { stringValue = String(intValue) }
    }
}
