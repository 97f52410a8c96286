import Foundation
import Testing
import VersionedCodable

// `JSONEncoder`'s key strategy is public, so `encode(versioned:)` compares what the strategy
// makes of the type's keys with what it makes of the spec's, where the spec writes: a key that
// becomes one of the spec's is refused, never silently overwritten, and a document that has no
// such key is the plain document plus the version.

@Suite("Keys a key strategy turns into the spec's")
struct KeyStrategyClashTests {
    struct Score: Codable, Equatable, Sendable { var points: Int }
    enum Heading: String, Codable, CodingKeyRepresentable, Hashable, Sendable { case title, Version, VERSION }

    /// Hands its encoder to a map.
    struct Outline<Key: Codable & Hashable & Sendable>: VersionedCodable {
        static var version: Int? { 1 }
        typealias PreviousVersion = NothingEarlier
        var map: [Key: Int]

        init(_ map: [Key: Int]) { self.map = map }
        init(from decoder: any Decoder) throws { map = try [Key: Int](from: decoder) }
        func encode(to encoder: any Encoder) throws { try map.encode(to: encoder) }
    }

    /// Keeps a map under `_metadata`, beside a spec at `_metadata.version`.
    struct MetadataOutline: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: [Heading: Int]
    }

    /// Writes a map's entries itself, with a key type of its own.
    struct Tabulated: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var rows: [String: Int]

        init(rows: [String: Int]) { self.rows = rows }
        init(from decoder: any Decoder) throws { rows = [:] }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: HandWrittenKeyTypesTests.AnyKey.self)
            for (key, value) in rows {
                try container.encode(value, forKey: HandWrittenKeyTypesTests.AnyKey(key))
            }
        }
    }

    struct CapitalVersion: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var title: String
        var Version: String
    }

    struct Revised: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var title: String
        var revision: String
    }

    /// Names a field as the strategy writes the spec's key.
    struct SnakeField: VersionedCodable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = CamelSpec
        var schema_version: String
    }

    static func encoder(_ strategy: JSONEncoder.KeyEncodingStrategy = .convertToSnakeCase) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = strategy
        return encoder
    }

    static let renamingRevision = JSONEncoder.KeyEncodingStrategy.custom { path in
        let key = path.last!.stringValue
        return HandWrittenKeyTypesTests.AnyKey(key == "revision" ? "version" : key)
    }

    static func object(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test("A map entry that snake case turns into the version's key is refused, not overwritten")
    func mapEntryAtRoot() throws {
        let encoder = Self.encoder()
        #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "Version")) {
            try encoder.encode(versioned: Outline<Heading>([.title: 1, .Version: 7]))
        }
        // Foundation's snake case writes `VERSION` as `v_ersion`: what the strategy does decides,
        // not a guess at it.
        #expect(
            try Self.object(encoder.encode(versioned: Outline<Heading>([.VERSION: 7])))
                == Self.object(encoder.encode(Outline<Heading>([.VERSION: 7]))).adding(["version": 1])
        )
        #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "Version")) {
            try encoder.encode(versioned: Outline<String>(["title": 1, "Version": 7]))
        }
        // A map the type writes itself, key by key, is the type's own: a clash of its field.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try encoder.encode(versioned: Tabulated(rows: ["title": 1, "Version": 7]))
        }
        let kept = Outline<Heading>([.title: 1])
        #expect(try Self.object(encoder.encode(versioned: kept)) == ["title": 1, "version": 1])
    }

    @Test("A map entry under _metadata that snake case turns into the version's key is refused")
    func mapEntryUnderMetadata() throws {
        #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "Version")) {
            try Self.encoder().encode(versioned: MetadataOutline(_metadata: [.title: 1, .Version: 7]))
        }
        let data = try Self.encoder().encode(versioned: MetadataOutline(_metadata: [.title: 1]))
        #expect(try Self.object(data) == ["_metadata": ["title": 1, "version": 2]])
    }

    @Test("A field that a key strategy writes under the spec's key is a clash")
    func fieldsRenamedOntoTheSpecsKey() throws {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try Self.encoder().encode(versioned: CapitalVersion(title: "t", Version: "2.0"))
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try Self.encoder(Self.renamingRevision).encode(versioned: Revised(title: "t", revision: "r2"))
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try Self.encoder().encode(versioned: SnakeField(schema_version: "three"))
        }
        // Without a strategy that renames them, the same fields are written beside the version.
        #expect(
            try Self.object(JSONEncoder().encode(versioned: CapitalVersion(title: "t", Version: "2.0")))
                == ["title": "t", "Version": "2.0", "version": 1]
        )
        #expect(
            try Self.object(Self.encoder().encode(versioned: Revised(title: "t", revision: "r2")))
                == ["title": "t", "revision": "r2", "version": 1]
        )
    }

    struct DeclaredV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var title: String
    }

    /// A compatible version, written with the oldest version that may read it beside its own,
    /// and a field that snake case writes under that declaration's key.
    struct Declared: VersionedCodable, Equatable {
        static let version: Int? = 2
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = DeclaredV1
        var title: String
        var version_readable_from: String
        init(title: String, version_readable_from: String) {
            self.title = title
            self.version_readable_from = version_readable_from
        }
        init(from old: DeclaredV1) { self.init(title: old.title, version_readable_from: "") }
    }

    @Test("A field that a key strategy writes under the declaration of older builds is a clash")
    func fieldRenamedOntoTheDeclaration() throws {
        let value = Declared(title: "t", version_readable_from: "mine")
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try Self.encoder().encode(versioned: value)
        }
        // Without the strategy the two keys differ, and both are written.
        let object = try Self.object(JSONEncoder().encode(versioned: value))
        #expect(object["version_readable_from"] as? String == "mine")
        #expect(object["versionReadableFrom"] as? Int == 1)
        #expect(object["version"] as? Int == 2)
    }

    @Test("A dictionary that is itself the versioned type keeps its keys as a plain encode does")
    func rootDictionaryUnderSnakeCase() throws {
        let scores: [String: Score] = ["carolJones": Score(points: 3)]
        let encoder = Self.encoder()
        let versioned = try Self.object(encoder.encode(versioned: scores)).mutableCopy() as! NSMutableDictionary
        #expect(versioned["version"] as? Int == 1)
        versioned.removeObject(forKey: "version")
        #expect(versioned == (try Self.object(encoder.encode(scores))))
        let read = try JSONDecoder().decode(versioned: [String: Score].self, from: encoder.encode(versioned: scores))
        #expect(read == scores)
    }

    /// A key a custom strategy makes.
    struct Upper: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Holds a versioned map as a part, beside a field of its own.
    struct Board: Codable, Equatable {
        var title: String
        var scores: Versioned<[String: Score]>
    }

    /// The same without versioning.
    struct PlainBoard: Codable, Equatable {
        var title: String
        var scores: [String: Score]
    }

    @Test(
        "A versioned map inside a document keeps its keys as a plain encode and decode of one do, under any key strategy",
        arguments: [
            JSONEncoder.KeyEncodingStrategy.convertToSnakeCase,
            .custom { path in Upper(stringValue: path.last!.stringValue.uppercased()) },
        ]
    )
    func partDictionaryUnderStrategies(strategy: JSONEncoder.KeyEncodingStrategy) throws {
        let scores: [String: Score] = [
            "carolJones": Score(points: 3), "myURL": Score(points: 1), "a_b": Score(points: 2),
        ]
        let encoder = Self.encoder(strategy)
        let written = try Self.object(encoder.encode(Board(title: "t", scores: Versioned(wrappedValue: scores))))
        let plain = try Self.object(encoder.encode(PlainBoard(title: "t", scores: scores)))
        // The part's own key, as the strategy writes it: the key that is not the title's.
        let partKey = try #require(plain.allKeys.first { "\($0)".lowercased() != "title" })
        let part = try #require(written.object(forKey: partKey) as? NSDictionary)
        let plainPart = try #require(plain.object(forKey: partKey) as? NSDictionary)
        #expect(part == plainPart.adding(["version": 1]))
    }

    @Test("A versioned map is read with its keys as they are under a key strategy, as a plain decode reads one")
    func dictionaryReadUnderSnakeCase() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let entries = #""carol_jones":{"points":3},"myURL":{"points":1}"#
        let expected = try decoder.decode([String: Score].self, from: Data("{\(entries)}".utf8))
        #expect(expected.keys.sorted() == ["carol_jones", "myURL"])
        let root = Data("{\(entries),\"version\":1}".utf8)
        #expect(try decoder.decode(versioned: [String: Score].self, from: root) == expected)
        let board = Data(("{\"title\":\"t\",\"scores\":{" + entries + ",\"version\":1}}").utf8)
        #expect(try decoder.decode(Board.self, from: board).scores.wrappedValue == expected)
    }
}

// A dictionary conforms itself, as a program whose documents are maps may make it.
extension [String: KeyStrategyClashTests.Score]: VersionedCodable {
    /// The only version.
    public static var version: Int? { 1 }
    /// The oldest version.
    public typealias PreviousVersion = NothingEarlier
}

extension NSDictionary {
    /// The dictionary with `entries` added.
    fileprivate func adding(_ entries: [String: Any]) -> NSDictionary {
        let copy = mutableCopy() as! NSMutableDictionary
        copy.addEntries(from: entries)
        return copy
    }
}
