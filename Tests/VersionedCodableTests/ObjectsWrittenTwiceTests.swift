import Foundation
import Testing
import VersionedCodable

// A type may write twice at a key where the spec writes an object (`_metadata` under a
// `_metadata.version` spec): open it, then write a value there, or the other way round. A coder
// merges the two objects or keeps one of them, and which it keeps depends on the coder and on
// when a super encoder is released. Every object the type opens or writes there gets the spec's
// part, so whichever one the document keeps holds the version.

@Suite("A type that writes twice where the spec writes an object")
struct ObjectsWrittenTwiceTests {
    /// The two writes at `_metadata`, in order.
    enum Order: String, CaseIterable, Sendable {
        case nestedThenValue, valueThenNested, valueThenValue, valueThenSuper
        case superThenValue, nestedThenNested, superThenNested, nestedThenSuper
    }

    enum Keys: String, CodingKey { case name, _metadata, createdBy, app }

    struct Fields: Codable, Equatable {
        var createdBy: String
    }

    /// The version at `_metadata.format.version`: an object of the spec's below the one the type
    /// writes twice.
    struct FormatVersionSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.format.version }
        struct Format: Codable { var version: Int? }
        struct Metadata: Codable { var format: Format }
        var _metadata: Metadata
        init(withVersion version: Int?) { _metadata = Metadata(format: Format(version: version)) }
    }

    struct Note<Spec: VersionPathSpec>: VersionedCodable, Equatable {
        static var version: Int? { 1 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = Spec
        var name = "n"
        var order: Order

        init(order: Order) { self.order = order }

        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .name)
            order = .nestedThenValue
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
            func nested(_ app: String) throws {
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: ._metadata)
                try nested.encode(app, forKey: .app)
            }
            func byHand(_ app: String) throws {
                var nested = container.superEncoder(forKey: ._metadata).container(keyedBy: Keys.self)
                try nested.encode(app, forKey: .app)
            }
            func value(_ by: String) throws { try container.encode(Fields(createdBy: by), forKey: ._metadata) }
            switch order {
            case .nestedThenValue: try nested("old"); try value("me")
            case .valueThenNested: try value("me"); try nested("new")
            case .valueThenValue: try value("me"); try value("again")
            case .valueThenSuper: try value("me"); try byHand("new")
            case .superThenValue: try byHand("old"); try value("me")
            case .nestedThenNested: try nested("old"); try nested("new")
            case .superThenNested: try byHand("old"); try nested("new")
            case .nestedThenSuper: try nested("old"); try byHand("new")
            }
        }
    }

    /// The type's encoding without the library, for what a plain encode keeps.
    struct Plain<Spec: VersionPathSpec>: Encodable {
        let note: Note<Spec>
        func encode(to encoder: any Encoder) throws { try note.encode(to: encoder) }
    }

    @Test("Whichever object the coder keeps holds the version", arguments: Order.allCases)
    func keptObjectHoldsTheVersion(order: Order) throws {
        try check(Note<MetadataVersionSpec>(order: order), versionAt: ["version"])
        try check(Note<FormatVersionSpec>(order: order), versionAt: ["format", "version"])
    }

    /// Encodes `note` in JSON and both property-list formats, and expects each document to read
    /// back as version 1, with `_metadata` the plain encode's plus the version at `path` in it.
    private func check<Spec: VersionPathSpec>(_ note: Note<Spec>, versionAt path: [String]) throws {
        let json = try JSONEncoder().encode(versioned: note)
        let plain = try JSONEncoder().encode(Plain(note: note))
        try expectSameMetadata(json, plain, path, "\(note.order) json") { try JSONSerialization.jsonObject(with: $0) }
        #expect(try JSONDecoder().decodeWithStoredVersion(Note<Spec>.self, from: json).storedVersion == 1)
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let plist = try encoder.encode(versioned: note)
            try expectSameMetadata(plist, try encoder.encode(Plain(note: note)), path, "\(note.order) \(format)") {
                try PropertyListSerialization.propertyList(from: $0, format: nil)
            }
            #expect(try PropertyListDecoder().decodeWithStoredVersion(Note<Spec>.self, from: plist).storedVersion == 1)
        }
    }

    /// `versioned`'s `_metadata` is `plain`'s with the version added at `path` in it.
    private func expectSameMetadata(
        _ versioned: Data,
        _ plain: Data,
        _ path: [String],
        _ label: String,
        parse: (Data) throws -> Any
    ) throws {
        let written = try parse(versioned) as? [String: Any]
        let expected = try parse(plain) as? [String: Any]
        var metadata = try #require(written?["_metadata"] as? [String: Any], "\(label)")
        if path.count == 2 {
            var format = try #require(metadata[path[0]] as? [String: Any], "\(label)")
            #expect(format.removeValue(forKey: path[1]) as? Int == 1, "\(label)")
            if format.isEmpty {
                metadata.removeValue(forKey: path[0])
            } else {
                metadata[path[0]] = format
            }
        } else {
            #expect(metadata.removeValue(forKey: path[0]) as? Int == 1, "\(label)")
        }
        let plainMetadata = try #require(expected?["_metadata"] as? [String: Any], "\(label)")
        #expect(metadata as NSDictionary == plainMetadata as NSDictionary, "\(label)")
    }
}

/// A spec that keeps the version in a dictionary, whose keys are data.
struct DictionaryVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.meta["formatVersion"] }
    var meta: [String: Int]
    init(withVersion version: Int?) { meta = version.map { ["formatVersion": $0] } ?? [:] }
}

struct DictionarySpecNote: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = DictionaryVersionSpec
    var name: String
}

/// A type that keeps a dictionary of its own under the key where the spec writes its dictionary.
struct SharedDictionaryNote: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = DictionaryVersionSpec
    var name: String
    var meta: [String: Int]
}

@Suite("A spec that keeps the version in a dictionary")
struct DictionarySpecTests {
    @Test("A spec's dictionary is written as a plain encode writes it, and reads back under a key strategy")
    func writtenAsPlain() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(versioned: DictionarySpecNote(name: "x"))
        // The dictionary's key is data: no key strategy renames it, as in a plain encode.
        #expect(String(decoding: data, as: UTF8.self) == #"{"meta":{"formatVersion":2},"name":"x"}"#)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decodeWithStoredVersion(DictionarySpecNote.self, from: data).storedVersion == 2)
    }

    @Test("A type that writes under the key of the spec's dictionary is refused, rather than read back changed")
    func typeAtTheSpecsDictionary() throws {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: SharedDictionaryNote(name: "x", meta: ["a": 1]))
        }
    }
}
