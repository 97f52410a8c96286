import Foundation
import Testing
import VersionedCodable

// Specs and types for the version's place in the document: written as the spec encodes, read
// back every time.

/// A header that carries more than the version.
struct InvoiceHeaderSpec: VersionPathSpec {
    static let keyPathToVersion: KeyPath<InvoiceHeaderSpec, Int?> = \InvoiceHeaderSpec.formatVersion
    var format: String
    var formatVersion: Int?

    init(withVersion version: Int?) {
        format = "invoice"
        formatVersion = version
    }
}

/// Keeps the version in an `Int32`, and traps if handed a version that does not fit.
struct NarrowVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<NarrowVersionSpec, Int?> { \NarrowVersionSpec.wide }
    var rev: Int32?
    var wide: Int? { rev.map(Int.init) }

    init(withVersion version: Int?) {
        rev = version.map { Int32($0) }
    }

    enum CodingKeys: String, CodingKey { case rev }
}

/// A 1.2 app's spec: the key path points at a property the type keeps too.
struct ManifestSpec: VersionPathSpec {
    static let keyPathToVersion: KeyPath<ManifestSpec, Int?> = \ManifestSpec.manifestVersion
    var manifestVersion: Int?

    init(withVersion version: Int?) {
        manifestVersion = version
    }
}

/// A snake-case key, under key strategies that convert to and from snake case.
struct SnakeSpec: VersionPathSpec {
    static let keyPathToVersion: KeyPath<SnakeSpec, Int?> = \SnakeSpec.schema_version
    var schema_version: Int?

    init(withVersion version: Int?) {
        schema_version = version
    }
}

/// `SnakeSpec`'s key as Swift names a property: `schema_version` in a snake-case document.
struct CamelSpec: VersionPathSpec {
    static let keyPathToVersion: KeyPath<CamelSpec, Int?> = \CamelSpec.schemaVersion
    var schemaVersion: Int?

    init(withVersion version: Int?) {
        schemaVersion = version
    }
}

/// Writes the version as a string, so it is not an integer in a keyed object.
struct StringVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<StringVersionSpec, Int?> { \StringVersionSpec.number }
    var version: String?
    var number: Int? { version.flatMap { Int($0) } }

    init(withVersion version: Int?) {
        self.version = version.map(String.init)
    }

    enum CodingKeys: String, CodingKey { case version }
}

@Suite("The version's place in the document")
struct VersionPlacementTests {
    struct InvoiceV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = InvoiceHeaderSpec
        var total: Int
    }

    struct Invoice: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = InvoiceV1
        typealias VersionSpec = InvoiceHeaderSpec
        var total: Int
        var currency: String

        init(total: Int, currency: String) {
            self.total = total
            self.currency = currency
        }
        init(from old: InvoiceV1) throws {
            total = old.total
            currency = "EUR"
        }
        func downgraded() throws -> InvoiceV1 { InvoiceV1(total: total) }
    }

    struct Counter: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NarrowVersionSpec
        var count: Int
    }

    struct ManifestV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ManifestSpec
        var manifestVersion: Int?
        var name: String
    }

    struct Manifest: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = ManifestV1
        typealias VersionSpec = ManifestSpec
        var manifestVersion: Int?
        var name: String
        var items: [String]

        init(manifestVersion: Int?, name: String, items: [String]) {
            self.manifestVersion = manifestVersion
            self.name = name
            self.items = items
        }
        init(from old: ManifestV1) throws {
            manifestVersion = old.manifestVersion  // stale after the migration, as in real apps
            name = old.name
            items = []
        }
        func downgraded() throws -> ManifestV1 {
            ManifestV1(manifestVersion: manifestVersion, name: name)
        }
    }

    struct StaleRoot: VersionedCodable, Equatable {
        static let version: Int? = 4
        typealias PreviousVersion = NothingEarlier
        var version: Int
        var title: String
    }

    struct Header: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var author: String
    }

    /// Keeps the version at `header.version`, where its nested versioned header keeps its own.
    struct HeaderVersionSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<HeaderVersionSpec, Int?> { \HeaderVersionSpec.header.version }
        struct Inner: Codable { var version: Int? }
        var header: Inner
        init(withVersion version: Int?) { header = Inner(version: version) }
    }

    struct TwoVersionsOnePlace: VersionedCodable {
        static let version: Int? = 7
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = HeaderVersionSpec
        var header: Versioned<Header>
    }

    struct NoteV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var text: String
    }

    struct MetaNote: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NoteV0
        typealias VersionSpec = MetadataVersionSpec
        struct Meta: Codable, Equatable { var editor: String }
        var _metadata: Meta?
        var text: String

        init(_metadata: Meta?, text: String) {
            self._metadata = _metadata
            self.text = text
        }
        init(from old: NoteV0) throws {
            _metadata = nil
            text = old.text
        }
    }

    /// Writes its optional `_metadata` with `encode`, so a nil one is an explicit null.
    struct NullMetaNote: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: MetaNote.Meta?
        var text: String

        enum CodingKeys: String, CodingKey { case _metadata, text }

        init(_metadata: MetaNote.Meta?, text: String) {
            self._metadata = _metadata
            self.text = text
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _metadata = try container.decodeIfPresent(MetaNote.Meta.self, forKey: ._metadata)
            text = try container.decode(String.self, forKey: .text)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_metadata, forKey: ._metadata)
            try container.encode(text, forKey: .text)
        }
    }

    struct Labelled: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: [String: String]
        var text: String
    }

    /// Reads and writes its root as a dictionary of counts, which may hold any key.
    struct Tally: DictionaryAtVersionPlaceTests.RootCounts, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var counts: [String: Int]
    }

    struct Schema: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SnakeSpec
        var tableName: String
    }

    /// The same type, with the spec's key named as Swift names a property.
    struct CamelSchema: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = CamelSpec
        var tableName: String
    }

    /// Version 1 kept the version at the root; version 2 moved it into `_metadata`.
    struct MovedV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var text: String
    }

    struct Moved: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = MovedV1
        typealias VersionSpec = MetadataVersionSpec
        var text: String
        var pages: Int

        init(text: String, pages: Int) {
            self.text = text
            self.pages = pages
        }
        init(from old: MovedV1) throws {
            text = old.text
            pages = 1
        }
        func downgraded() throws -> MovedV1 { MovedV1(text: text) }
    }

    struct StringVersioned: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = StringVersionSpec
        var version: String
    }

    typealias Encode = (any Encodable) throws -> Data

    static var formats: [(name: String, encode: Encode)] {
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

    static func object(_ data: Data) throws -> [String: Any] {
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            return object
        }
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    static func decode<T: VersionedCodable>(_ type: T.Type, _ data: Data) throws -> Versioned<T> {
        if (try? JSONSerialization.jsonObject(with: data)) != nil {
            return try JSONDecoder().decodeWithStoredVersion(type, from: data)
        }
        return try PropertyListDecoder().decodeWithStoredVersion(type, from: data)
    }

    /// The plain encoding of `value` with every top-level entry of `spec`'s encoding added.
    static func plainPlusSpec(_ value: some Encodable, _ spec: some Encodable, _ encode: Encode) throws -> NSDictionary
    {
        var merged = try object(encode(value))
        for (key, entry) in try object(encode(spec)) {
            merged[key] = entry
        }
        return merged as NSDictionary
    }

    @Test(
        "A spec that carries more than the version is written whole and read back",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func specWithHeader(format: String) throws {
        let encode = try #require(Self.formats.first { $0.name == format }).encode
        let invoice = Invoice(total: 120, currency: "CHF")
        let data = try invoice.encodeTransparently(using: encode)
        let expected = try Self.plainPlusSpec(invoice, InvoiceHeaderSpec(withVersion: 2), encode)
        #expect(try Self.object(data) as NSDictionary == expected)
        #expect(try Self.decode(Invoice.self, data).wrappedValue == invoice)

        let old = try invoice.encodeTransparently(asVersion: 1, using: encode)
        #expect(try Self.object(old)["format"] as? String == "invoice")
        let read = try Self.decode(Invoice.self, old)
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == Invoice(total: 120, currency: "EUR"))
    }

    @Test("A spec that keeps the version in an Int32 encodes without being handed a made-up version")
    func narrowIntegerSpec() throws {
        for (_, encode) in Self.formats {
            let data = try Counter(count: 5).encodeTransparently(using: encode)
            #expect(try Self.object(data)["rev"] as? Int == 3)
            #expect(try Self.decode(Counter.self, data).wrappedValue == Counter(count: 5))
        }
    }

    @Test("A property that mirrors the version is saved with the version being written")
    func mirrorAfterMigration() throws {
        let v1 = Data(#"{"manifestVersion": 1, "name": "app"}"#.utf8)
        let migrated = try JSONDecoder().decode(versioned: Manifest.self, from: v1)
        #expect(migrated.manifestVersion == 1)
        for (_, encode) in Self.formats {
            let saved = try migrated.encodeTransparently(using: encode)
            #expect(try Self.object(saved)["manifestVersion"] as? Int == 2)
            let reread = try Self.decode(Manifest.self, saved)
            #expect(reread.storedVersion == 2)
            #expect(reread.wrappedValue.manifestVersion == 2)
            #expect(reread.wrappedValue.items == [])

            let forOldReaders = try migrated.encodeTransparently(asVersion: 1, using: encode)
            #expect(try Self.object(forOldReaders)["manifestVersion"] as? Int == 1)
        }
        let stale = StaleRoot(version: 1, title: "t")
        let data = try JSONEncoder().encode(versioned: stale)
        #expect(try Self.object(data)["version"] as? Int == 4)
        #expect(try JSONDecoder().decode(versioned: StaleRoot.self, from: data).version == 4)
    }

    @Test("A nested versioned part whose version lands on the document's version is a clash")
    func twoVersionsOnePlace() throws {
        let value = TwoVersionsOnePlace(header: Versioned(Header(author: "Ada")))
        for (_, encode) in Self.formats {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try value.encodeTransparently(using: encode)
            }
        }
    }

    @Test("A document with no metadata object at all reads as the nil version")
    func missingParentIsNilVersion() throws {
        let data = Data(#"{"text": "before versioning"}"#.utf8)
        let read = try JSONDecoder().decodeWithStoredVersion(MetaNote.self, from: data)
        #expect(read.storedVersion == nil)
        #expect(read.wrappedValue == MetaNote(_metadata: nil, text: "before versioning"))
        let null = Data(#"{"_metadata": null, "text": "t"}"#.utf8)
        #expect(try JSONDecoder().decodeWithStoredVersion(MetaNote.self, from: null).storedVersion == nil)
    }

    @Test(
        "An optional metadata object that was nil reads back as nil",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func optionalParentRoundTrips(format: String) throws {
        let encode = try #require(Self.formats.first { $0.name == format }).encode
        for note in [MetaNote(_metadata: nil, text: "a"), MetaNote(_metadata: .init(editor: "Ada"), text: "b")] {
            let data = try note.encodeTransparently(using: encode)
            let read = try Self.decode(MetaNote.self, data)
            #expect(read.storedVersion == 1)
            #expect(read.wrappedValue == note)
        }
    }

    @Test("An explicit null where the spec writes an object gives way to it and reads back as nil")
    func explicitNullParent() throws {
        for (_, encode) in Self.formats {
            let note = NullMetaNote(_metadata: nil, text: "n")
            let data = try note.encodeTransparently(using: encode)
            let read = try Self.decode(NullMetaNote.self, data)
            #expect(read.storedVersion == 1)
            #expect(read.wrappedValue == note)
        }
    }

    @Test("A dictionary where the version goes keeps its keys under a key strategy, without the version")
    func dictionaryKeysSurviveKeyStrategies() throws {
        let value = Labelled(_metadata: ["firstAuthor": "Ada", "last_editor": "Grace"], text: "t")
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(versioned: value)
        let metadata = try #require(try Self.object(data)["_metadata"] as? [String: Any])
        #expect(Set(metadata.keys) == ["firstAuthor", "last_editor", "version"])
        let plain = try #require(try Self.object(try encoder.encode(value))["_metadata"] as? [String: String])
        #expect(plain == value._metadata)

        let decoder = JSONDecoder()
        let read = try decoder.decodeWithStoredVersion(Labelled.self, from: data)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == value)
    }

    @Test(
        "A type whose root is a dictionary does not get the version as an entry",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func rootDictionaryRoundTrips(format: String) throws {
        let encode = try #require(Self.formats.first { $0.name == format }).encode
        let tally = Tally(counts: ["apples": 3, "pears": 0])
        let data = try tally.encodeTransparently(using: encode)
        #expect(try Self.object(data)["version"] as? Int == 2)
        let read = try Self.decode(Tally.self, data).wrappedValue
        #expect(read == tally)
        // And it can be written again.
        let again = try read.encodeTransparently(using: encode)
        #expect(try Self.decode(Tally.self, again).wrappedValue == tally)
    }

    @Test("A spec's keys go through the key strategies as the type's keys do, as in a plain decode")
    func specKeysUnderKeyStrategies() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // A camel-case spec key is written in snake case and read back through the strategy.
        let data = try encoder.encode(versioned: CamelSchema(tableName: "poems"))
        #expect(try Self.object(data)["schema_version"] as? Int == 3)
        #expect(try Self.object(data)["table_name"] as? String == "poems")
        let read = try decoder.decodeWithStoredVersion(CamelSchema.self, from: data)
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue == CamelSchema(tableName: "poems"))
        // A version that is not a number is a type mismatch there, as without the strategy.
        let text = Data(#"{"schema_version": "3", "table_name": "poems"}"#.utf8)
        #expect {
            try decoder.decode(versioned: CamelSchema.self, from: text)
        } throws: { error in
            guard case DecodingError.typeMismatch = error else { return false }
            return true
        }
        // A key already in snake case becomes camel case when read through the strategy, so it
        // is not found, as a plain decode of a `schema_version` property would not find it:
        // the document reads as having no version, which this chain has not.
        let snake = try encoder.encode(versioned: Schema(tableName: "poems"))
        #expect(try Self.object(snake)["schema_version"] as? Int == 3)
        #expect(throws: VersionedDecodingError.self) {
            try decoder.decode(versioned: Schema.self, from: snake)
        }
    }

    @Test("A spec that writes the version as a string writes and reads it; a type's own value there is a clash")
    func stringVersionSpec() throws {
        try StringLabelled.validateVersionChain()
        for (_, encode) in Self.formats {
            let data = try StringLabelled(text: "x").encodeTransparently(using: encode)
            let read = try Self.decode(StringLabelled.self, data)
            #expect(read.storedVersion == 2)
            #expect(read.wrappedValue == StringLabelled(text: "x"))
            // The type's own string where the spec writes its label would be lost.
            let error = #expect(throws: VersionedEncodingError.self) {
                try StringVersioned(version: "mine").encodeTransparently(using: encode)
            }
            #expect(error == .typeHasClashingVersionField)
        }
        let json = try JSONEncoder().encode(versioned: StringLabelled(text: "x"))
        #expect(try Self.object(json)["version"] as? String == "2")
    }

    struct StringLabelled: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = StringVersionSpec
        var text: String
    }

    /// A type that encodes as one value of `Value`, which no document can keep a version beside.
    struct SingleValued<Value: Codable & Equatable & Sendable>: VersionedCodable, Equatable {
        static var version: Int? { 1 }
        typealias PreviousVersion = NothingEarlier
        var value: Value
        init(_ value: Value) { self.value = value }
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    /// Encoding fails with the error and leaves nothing written.
    static func expectRefused(_ encode: () throws -> Data) {
        #expect {
            _ = try encode()
        } throws: { error in
            guard case VersionedEncodingError.cannotHoldVersion = error else { return false }
            return true
        }
    }

    @Test(
        "A type that encodes as a single value, nil, a URL or a Decimal is refused: it cannot hold a version",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func singleValuesAreRefused(format: String) throws {
        let encode = try #require(Self.formats.first { $0.name == format }).encode
        Self.expectRefused { try SingleValued(String?.none).encodeTransparently(using: encode) }
        Self.expectRefused { try SingleValued(42).encodeTransparently(using: encode) }
        Self.expectRefused {
            try SingleValued(URL(string: "https://example.com/a")!).encodeTransparently(using: encode)
        }
        Self.expectRefused { try SingleValued(Decimal(string: "1.25")!).encodeTransparently(using: encode) }
        Self.expectRefused { try SingleValued(Date(timeIntervalSince1970: 0)).encodeTransparently(using: encode) }
        Self.expectRefused { try SingleValued(["a", "b"]).encodeTransparently(using: encode) }
        // A nested struct it forwards to is an object, which holds the version.
        struct Inner: Codable, Equatable { var x: Int }
        let forwarded = SingleValued(Inner(x: 3))
        let data = try forwarded.encodeTransparently(using: encode)
        #expect(try Self.decode(SingleValued<Inner>.self, data).wrappedValue == forwarded)
    }

    @Test("The error for an unsupported version says only what it carries, whatever the process decoded before")
    func unsupportedVersionDescription() throws {
        let error = VersionedDecodingError.unsupportedVersion(tried: MovedV1.self)
        let before = "\(error)"
        // Decoding other chains that end at the same type changes nothing in the text.
        _ = try? JSONDecoder().decode(versioned: Moved.self, from: Data(#"{"version": 7}"#.utf8))
        _ = try? JSONDecoder().decode(versioned: MovedV1.self, from: Data(#"{"version": 7}"#.utf8))
        #expect("\(error)" == before)
        #expect(before.contains("MovedV1 (version 1)"))
        #expect(!before.contains("Moved "))
    }
}
