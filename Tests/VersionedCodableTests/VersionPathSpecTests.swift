import Foundation
import Testing
import VersionedCodable

// snippet: metadata-version-spec
/// The version under `_metadata.version`, beside whatever else the type keeps in `_metadata`.
struct MetadataVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }

    init(withVersion version: Int?) {
        _metadata = Metadata(version: version)
    }

    struct Metadata: Codable {
        var version: Int?
    }
    var _metadata: Metadata
}

// end snippet

/// The version under a root key with another name.
struct SchemaVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.schemaVersion }

    init(withVersion version: Int?) {
        schemaVersion = version
    }

    var schemaVersion: Int?
}

/// Three levels deep.
struct DeepVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header.format.version }

    init(withVersion version: Int?) {
        header = Header(format: Format(version: version))
    }

    struct Format: Codable {
        var version: Int?
    }
    struct Header: Codable {
        var format: Format
    }
    var header: Header
}

@Suite("Where the version lives, and writing it without losing anything")
struct VersionPathSpecTests {
    struct NoteV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var text: String
    }

    struct Note: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NoteV1
        typealias VersionSpec = MetadataVersionSpec
        struct Metadata: Codable, Equatable {
            var editor: String
            var tags: [String]
        }
        var _metadata: Metadata
        var text: String

        init(_metadata: Metadata, text: String) {
            self._metadata = _metadata
            self.text = text
        }
        init(from old: NoteV1) throws {
            _metadata = Metadata(editor: "unknown", tags: [])
            text = old.text
        }
    }

    struct Schema: VersionedCodable, Equatable {
        static let version: Int? = 5
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SchemaVersionSpec
        var name: String
        var version: String  // not the version: this spec keeps it under schemaVersion
    }

    struct Deep: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = DeepVersionSpec
        struct Format: Codable, Equatable { var compression: String }
        struct Header: Codable, Equatable { var author: String; var format: Format }
        var header: Header
    }

    /// Writes `_metadata` through a hand-written `encode(to:)` that forwards to a nested
    /// struct with a single-value container.
    struct ForwardingNote: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Inner: Codable, Equatable {
            var _metadata: [String: String]
            var text: String
        }
        var inner: Inner

        init(inner: Inner) { self.inner = inner }
        init(from decoder: any Decoder) throws {
            inner = try decoder.singleValueContainer().decode(Inner.self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    /// Writes `_metadata` by hand with a nested container.
    struct HandWrittenNote: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var editor: String
        var text: String

        enum Keys: String, CodingKey { case _metadata, text, editor }

        init(editor: String, text: String) {
            self.editor = editor
            self.text = text
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            text = try container.decode(String.self, forKey: .text)
            editor = try container.nestedContainer(keyedBy: Keys.self, forKey: ._metadata).decode(
                String.self,
                forKey: .editor
            )
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(text, forKey: .text)
            var metadata = container.nestedContainer(keyedBy: Keys.self, forKey: ._metadata)
            try metadata.encode(editor, forKey: .editor)
        }
    }

    static let note = Note(_metadata: .init(editor: "Ada", tags: ["draft"]), text: "Hello")

    static func encoders() -> [(String, (any Encodable) throws -> Data)] {
        let xml = PropertyListEncoder()
        xml.outputFormat = .xml
        let binary = PropertyListEncoder()
        binary.outputFormat = .binary
        return [
            ("json", { try JSONEncoder().encode($0) }),
            ("xml plist", { try xml.encode($0) }),
            ("binary plist", { try binary.encode($0) }),
        ]
    }

    static func topLevel(_ data: Data) throws -> [String: Any] {
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            return object
        }
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    static func decode<T: VersionedCodable>(_ type: T.Type, _ data: Data) throws -> T {
        if (try? JSONSerialization.jsonObject(with: data)) != nil {
            return try JSONDecoder().decode(versioned: type, from: data)
        }
        return try PropertyListDecoder().decode(versioned: type, from: data)
    }

    @Test("A root key with another name is read and written", arguments: encoders().map(\.0))
    func customRootKey(format: String) throws {
        let encode = Self.encoders().first { $0.0 == format }!.1
        let value = Schema(name: "orders", version: "not a number")
        let data = try value.encodeTransparently(using: encode)
        let object = try Self.topLevel(data)
        #expect(object["schemaVersion"] as? Int == 5)
        #expect(object["version"] as? String == "not a number")
        #expect(try Self.decode(Schema.self, data) == value)
    }

    @Test("The version merges into the object the type writes at its path", arguments: encoders().map(\.0))
    func versionMergesIntoMetadata(format: String) throws {
        let encode = Self.encoders().first { $0.0 == format }!.1
        let data = try Self.note.encodeTransparently(using: encode)
        let metadata = try #require(try Self.topLevel(data)["_metadata"] as? [String: Any])
        #expect(metadata["version"] as? Int == 2)
        #expect(metadata["editor"] as? String == "Ada")
        #expect(metadata["tags"] as? [String] == ["draft"])
        #expect(try Self.decode(Note.self, data) == Self.note)
    }

    @Test("A nested version path creates the objects it needs when the type writes none")
    func nestedPathCreatesObjects() throws {
        let data = try JSONEncoder().encode(versioned: NoteV1(text: "old"))
        let object = try Self.topLevel(data)
        #expect((object["_metadata"] as? [String: Any])?["version"] as? Int == 1)
        #expect(
            try JSONDecoder().decode(versioned: Note.self, from: data)
                == Note(_metadata: .init(editor: "unknown", tags: []), text: "old")
        )
    }

    @Test("A version three levels deep merges at every level", arguments: encoders().map(\.0))
    func deepPathMerges(format: String) throws {
        let encode = Self.encoders().first { $0.0 == format }!.1
        let value = Deep(header: .init(author: "Grace", format: .init(compression: "lz4")))
        let data = try value.encodeTransparently(using: encode)
        let header = try #require(try Self.topLevel(data)["header"] as? [String: Any])
        let formatObject = try #require(header["format"] as? [String: Any])
        #expect(header["author"] as? String == "Grace")
        #expect(formatObject["compression"] as? String == "lz4")
        #expect(formatObject["version"] as? Int == 3)
        #expect(try Self.decode(Deep.self, data) == value)
    }

    @Test("A hand-written nested container and a single-value forwarding encoder both merge")
    func handWrittenEncodersMerge() throws {
        let handWritten = HandWrittenNote(editor: "Lin", text: "x")
        let forwarding = ForwardingNote(inner: .init(_metadata: ["editor": "Kim"], text: "y"))
        for (_, encode) in Self.encoders() {
            let a = try handWritten.encodeTransparently(using: encode)
            let metadataA = try #require(try Self.topLevel(a)["_metadata"] as? [String: Any])
            #expect(metadataA["editor"] as? String == "Lin")
            #expect(metadataA["version"] as? Int == 1)
            #expect(try Self.decode(HandWrittenNote.self, a) == handWritten)

            let b = try forwarding.encodeTransparently(using: encode)
            let metadataB = try #require(try Self.topLevel(b)["_metadata"] as? [String: Any])
            #expect(metadataB["editor"] as? String == "Kim")
            #expect(metadataB["version"] as? Int == 1)
        }
    }

    /// Forwards its whole encoding to a nested value, with the default root version key.
    struct ForwardingRoot<Inner: Codable & Equatable>: VersionedCodable, Equatable {
        static var version: Int? { 6 }
        typealias PreviousVersion = NothingEarlier
        var inner: Inner

        init(inner: Inner) { self.inner = inner }
        init(from decoder: any Decoder) throws {
            inner = try decoder.singleValueContainer().decode(Inner.self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    struct Titled: Codable, Equatable { var title: String }
    struct SelfVersioned: Codable, Equatable { var version: String }

    @Test("A type that forwards its encoding to a nested struct gets the root version merged in")
    func forwardingAtRoot() throws {
        let value = ForwardingRoot(inner: Titled(title: "t"))
        for (_, encode) in Self.encoders() {
            let data = try value.encodeTransparently(using: encode)
            let object = try Self.topLevel(data)
            #expect(object["title"] as? String == "t")
            #expect(object["version"] as? Int == 6)
            #expect(try Self.decode(ForwardingRoot<Titled>.self, data) == value)
            // The forwarded struct's own `version` is a clash, seen through the forwarding.
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try ForwardingRoot(inner: SelfVersioned(version: "mine")).encodeTransparently(using: encode)
            }
        }
    }

    struct ClashAtRoot: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var version: String
        var name: String
    }

    struct ClashOptional: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var version: Bool?
    }

    struct ClashNested: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Metadata: Codable { var version: String; var editor: String }
        var _metadata: Metadata
    }

    struct ClashThroughDictionary: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: [String: Int]
    }

    struct ClashThroughStringDictionary: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: [String: String]
    }

    struct MetadataIsAString: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: String
    }

    struct MetadataIsAnArray: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: [String]
    }

    struct RootIsAnArray: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var items: [Int]
        init(items: [Int]) { self.items = items }
        init(from decoder: any Decoder) throws { items = try [Int](from: decoder) }
        func encode(to encoder: any Encoder) throws { try items.encode(to: encoder) }
    }

    @Test("A type that writes its own version at the root is a clash, never overwritten")
    func rootClash() throws {
        for (_, encode) in Self.encoders() {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try ClashAtRoot(version: "7", name: "x").encodeTransparently(using: encode)
            }
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: ClashAtRoot(version: "7", name: "x"))
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: ClashOptional(version: true))
        }
    }

    @Test("An optional non-integer property at the version's place is a clash even while it is nil")
    func nilOptionalOfAnotherTypeIsAClash() throws {
        // Written, the version would come back as a Bool property and fail with a bare type
        // mismatch; the type is told now instead.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: ClashOptional(version: nil))
        }
    }

    @Test("A type that writes metadata.version under a nested spec is a clash")
    func nestedClash() throws {
        for (_, encode) in Self.encoders() {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try ClashNested(_metadata: .init(version: "mine", editor: "e")).encodeTransparently(using: encode)
            }
            #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "version")) {
                try ClashThroughStringDictionary(_metadata: ["version": "nine"]).encodeTransparently(using: encode)
            }
        }
        // The same dictionary without the version key merges.
        let data = try JSONEncoder().encode(versioned: ClashThroughDictionary(_metadata: ["revision": 9]))
        let metadata = try #require(try Self.topLevel(data)["_metadata"] as? [String: Int])
        #expect(metadata == ["revision": 9, "version": 2])
    }

    @Test("A non-object where the version's path needs an object throws instead of losing it")
    func nonObjectOnPath() throws {
        for (_, encode) in Self.encoders() {
            #expect(throws: VersionedEncodingError.versionLocationNotAnObject(codingPath: ["_metadata"])) {
                try MetadataIsAString(_metadata: "text").encodeTransparently(using: encode)
            }
            #expect(throws: VersionedEncodingError.versionLocationNotAnObject(codingPath: ["_metadata"])) {
                try MetadataIsAnArray(_metadata: ["a"]).encodeTransparently(using: encode)
            }
            #expect(
                throws: VersionedEncodingError.cannotHoldVersion(RootIsAnArray.self, version: RootIsAnArray.version)
            ) {
                try RootIsAnArray(items: [1, 2]).encodeTransparently(using: encode)
            }
        }
        let error = VersionedEncodingError.versionLocationNotAnObject(codingPath: ["_metadata"])
        #expect("\(error)".contains("_metadata"))
    }

    @Test("Clash detection also holds for versioned values nested in a document")
    func nestedVersionedClash() throws {
        struct Holder: Encodable { var inner: Versioned<ClashAtRoot> }
        let error = #expect(throws: EncodingError.self) {
            try JSONEncoder().encode(Holder(inner: Versioned(ClashAtRoot(version: "1", name: "n"))))
        }
        guard case .invalidValue(_, let context)? = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["inner"])
        #expect(context.underlyingError as? VersionedEncodingError == .typeHasClashingVersionField)
    }
}
