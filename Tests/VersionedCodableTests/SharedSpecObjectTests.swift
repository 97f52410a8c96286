import Foundation
import Testing
import VersionedCodable

// A type whose keys are read by listing them, or that reads its whole object as a dictionary,
// shares `_metadata` with a spec at `_metadata.version` when it keeps keys of its own there
// (`createdBy`). The object is written merged; read back, it is the type's object without the
// spec's keys, never left out with what the type wrote in it.

@Suite("An object that holds the type's keys beside the spec's is the type's to list and read")
struct SharedSpecObjectTests {
    enum Field: String, Codable, CodingKeyRepresentable, Sendable {
        case title, _metadata
    }

    /// Written and read by Swift's own coding of a dictionary: with `String` keys as the coder
    /// writes and reads any `[String: …]`, with enum keys through a keyed container.
    struct Map<Key: Hashable & Codable>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var fields: [Key: [String: String]]

        init(_ fields: [Key: [String: String]]) { self.fields = fields }
        init(from decoder: any Decoder) throws { fields = try [Key: [String: String]](from: decoder) }
        func encode(to encoder: any Encoder) throws { try fields.encode(to: encoder) }
    }

    /// Reads every key its document lists, and writes each back.
    struct ListedMap: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var fields: [String: [String: String]]

        init(_ fields: [String: [String: String]]) { self.fields = fields }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: HandWrittenKeyTypesTests.AnyKey.self)
            var fields: [String: [String: String]] = [:]
            for key in container.allKeys {
                fields[key.stringValue] = try container.decode([String: String].self, forKey: key)
            }
            self.fields = fields
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: HandWrittenKeyTypesTests.AnyKey.self)
            for (key, value) in fields {
                try container.encode(value, forKey: HandWrittenKeyTypesTests.AnyKey(key))
            }
        }
    }

    /// An optional header two objects above a spec's version at `header.format.version`.
    struct Headed: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = DeepVersionSpec
        struct Header: Codable, Equatable {
            struct Format: Codable, Equatable { var note: String? }
            var format: Format?
            var owner: String?
        }
        var header: Header?
        var title: String
    }

    /// A dictionary one object above a spec's version at `header.format.version`: its entry
    /// `format` is where the spec writes its object.
    struct HeaderMap<Entry: Codable & Equatable>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = DeepVersionSpec
        var header: [String: Entry]
        var title: String
    }

    struct Format: Codable, Equatable { var note: String? }

    /// An optional `_metadata` of the type's own, and one that is not optional.
    struct Described: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Metadata: Codable, Equatable { var createdBy: String? }
        var _metadata: Metadata?
        var title: String
    }

    /// Opens `_metadata` by hand while it has one, through a nested container or a super
    /// encoder, and reads it back when `contains` says it is there.
    struct OpenedByHand: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        enum CodingKeys: String, CodingKey { case _metadata, title }
        enum MetadataKeys: String, CodingKey { case createdBy }
        var _metadata: Described.Metadata?
        var title: String
        var throughSuperEncoder = false

        init(_ metadata: Described.Metadata?, throughSuperEncoder: Bool = false) {
            _metadata = metadata
            title = "t"
            self.throughSuperEncoder = throughSuperEncoder
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(._metadata) {
                let metadata = try container.nestedContainer(keyedBy: MetadataKeys.self, forKey: ._metadata)
                _metadata = .init(createdBy: try metadata.decodeIfPresent(String.self, forKey: .createdBy))
            }
            title = try container.decode(String.self, forKey: .title)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let _metadata {
                var metadata =
                    throughSuperEncoder
                    ? container.superEncoder(forKey: ._metadata).container(keyedBy: MetadataKeys.self)
                    : container.nestedContainer(keyedBy: MetadataKeys.self, forKey: ._metadata)
                try metadata.encodeIfPresent(_metadata.createdBy, forKey: .createdBy)
            }
            try container.encode(title, forKey: .title)
        }

        static func == (lhs: Self, rhs: Self) -> Bool { lhs._metadata == rhs._metadata && lhs.title == rhs.title }
    }

    struct AlwaysDescribed: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: Described.Metadata
        var title: String
    }

    struct Shelf<Item: VersionedCodable & Equatable>: Codable, Equatable {
        var item: Versioned<Item>
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.item.wrappedValue == rhs.item.wrappedValue }
    }

    private static let shared = ["title": ["text": "t"], "_metadata": ["createdBy": "ann"]]
    private static let specOnly = ["title": ["text": "t"]]

    private func roundTrip<Item: VersionedCodable & Equatable>(_ value: Item, _ format: SpecTruth.Format) throws {
        let written = try format.write(value)
        #expect(try format.readValue(Item.self, written) == value)
        let shelf = Shelf(item: Versioned(value))
        let writtenShelf = try format.writePlain(shelf)
        #expect(try format.readPlain(Shelf<Item>.self, writtenShelf) == shelf)
    }

    @Test("The type's keys in the spec's object read back, in every format", arguments: SpecTruth.Format.allCases)
    func typeKeysInSpecObject(format: SpecTruth.Format) throws {
        for fields in [Self.shared, Self.specOnly] {
            try roundTrip(Map<String>(fields), format)
            try roundTrip(ListedMap(fields), format)
            let byField = Dictionary(uniqueKeysWithValues: fields.map { (Field(rawValue: $0)!, $1) })
            try roundTrip(Map<Field>(byField), format)
        }
    }

    @Test("A nil object anywhere on the version's path reads back as nil", arguments: SpecTruth.Format.allCases)
    func nilOnTheVersionsPath(format: SpecTruth.Format) throws {
        let values = [
            Headed(header: nil, title: "t"),
            Headed(header: .init(format: .init(note: "n"), owner: nil), title: "t"),
            Headed(header: .init(format: nil, owner: "ann"), title: "t"),
        ]
        for value in values {
            try roundTrip(value, format)
        }
    }

    @Test("The spec's keys stay out of the object the type lists and reads")
    func specKeysStayOut() throws {
        let data = try JSONEncoder().encode(versioned: ListedMap(Self.shared))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        #expect(object["_metadata"]?["version"] as? Int == 2)
        #expect(object["_metadata"]?["createdBy"] as? String == "ann")
        let read = try JSONDecoder().decode(versioned: ListedMap.self, from: data)
        #expect(read.fields["_metadata"] == ["createdBy": "ann"])
        // A `_metadata` that holds only the version is the spec's alone, and is not listed.
        let specOnly = Data(#"{"_metadata": {"version": 2}, "title": {"text": "t"}}"#.utf8)
        #expect(try JSONDecoder().decode(versioned: ListedMap.self, from: specOnly).fields == Self.specOnly)
        #expect(try JSONDecoder().decode(versioned: Map<String>.self, from: specOnly).fields == Self.specOnly)
    }

    @Test(
        "A dictionary's entry where the spec writes an object is merged with it and reads back, in every format",
        arguments: SpecTruth.Format.allCases
    )
    func dictionaryEntryAtSpecObject(format: SpecTruth.Format) throws {
        try roundTrip(HeaderMap(header: ["format": ["note": "n"], "owner": ["name": "ann"]], title: "t"), format)
        try roundTrip(HeaderMap(header: ["format": Format(note: "n"), "owner": Format(note: nil)], title: "t"), format)
        let written = try format.write(HeaderMap(header: ["format": ["note": "n"]], title: "t"))
        let read = try format.read(HeaderMap<[String: String]>.self, written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue.header == ["format": ["note": "n"]])
        // An entry that is not an object cannot hold the spec's part.
        #expect(throws: VersionedEncodingError.versionLocationNotAnObject(codingPath: ["header", "format"])) {
            try format.write(HeaderMap(header: ["format": "plain"], title: "t"))
        }
    }

    @Test(
        "An optional object or an entry that holds only what the spec writes there is refused, not read back as nil",
        arguments: SpecTruth.Format.allCases
    )
    func emptyObjectAtSpecObject(format: SpecTruth.Format) throws {
        let refused: [(any VersionedCodable, [String])] = [
            (Map<String>(["_metadata": [:], "title": ["text": "t"]]), ["_metadata"]),
            (Map<Field>([._metadata: [:], .title: ["text": "t"]]), ["_metadata"]),
            (Described(_metadata: .init(createdBy: nil), title: "t"), ["_metadata"]),
            (HeaderMap<[String: String]>(header: ["format": [:]], title: "t"), ["header", "format"]),
            (HeaderMap(header: ["format": Format(note: nil)], title: "t"), ["header", "format"]),
            (Headed(header: .init(format: nil, owner: nil), title: "t"), ["header"]),
            (Headed(header: .init(format: .init(note: nil), owner: nil), title: "t"), ["header", "format"]),
            (Headed(header: .init(format: .init(note: nil), owner: "ann"), title: "t"), ["header", "format"]),
            // Opened by hand, an object may be an optional's value: nothing tells.
            (OpenedByHand(.init(createdBy: nil)), ["_metadata"]),
            (OpenedByHand(.init(createdBy: nil), throughSuperEncoder: true), ["_metadata"]),
        ]
        for (value, path) in refused {
            #expect("\(type(of: value))") {
                try format.write(value)
            } throws: { error in
                guard case .notRepresentable(_, let context)? = error as? VersionedEncodingError else {
                    return false
                }
                return context.codingPath.map(\.stringValue) == path
            }
        }
        // Written where it is read whatever it holds, or with something of its own, it reads back.
        try roundTrip(AlwaysDescribed(_metadata: .init(createdBy: nil), title: "t"), format)
        try roundTrip(Described(_metadata: .init(createdBy: "ann"), title: "t"), format)
        try roundTrip(Described(_metadata: nil, title: "t"), format)
        try roundTrip(Headed(header: .init(format: .init(note: "n"), owner: nil), title: "t"), format)
        for throughSuperEncoder in [false, true] {
            try roundTrip(OpenedByHand(nil, throughSuperEncoder: throughSuperEncoder), format)
            try roundTrip(OpenedByHand(.init(createdBy: "ann"), throughSuperEncoder: throughSuperEncoder), format)
        }
    }

    @Test("A part whose optional object holds only what the spec writes names the part and the object")
    func emptyObjectInPart() throws {
        let shelf = Shelf(item: Versioned(Described(_metadata: .init(createdBy: nil), title: "t")))
        #expect {
            try JSONEncoder().encode(shelf)
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error,
                case .notRepresentable(_, let inner)? = context.underlyingError as? VersionedEncodingError
            else { return false }
            return context.codingPath.map(\.stringValue) == ["item"]
                && inner.codingPath.map(\.stringValue) == ["item", "_metadata"]
                && context.debugDescription.contains("`_metadata`")
        }
    }
}
