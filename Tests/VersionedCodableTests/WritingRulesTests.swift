import Foundation
import Testing
import VersionedCodable

// Shapes of types whose encoding reaches the places where the spec writes by less common
// routes: a dictionary's own encoding called by the type, a forwarded root, a key-less super
// encoder, a mirror too narrow for the version, the keys that name older builds. Each writes
// what reads back, or is refused.

@Suite("What a type may write where the spec writes, by every route")
struct WritingRulesTests {
    /// Writes its root by calling a dictionary's own encoding.
    struct Forwarding<Key: Codable & Hashable & Sendable>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = NothingEarlier
        var entries: [Key: Int]

        init(entries: [Key: Int]) { self.entries = entries }
        init(from decoder: any Decoder) throws { entries = try [Key: Int](from: decoder) }
        func encode(to encoder: any Encoder) throws { try entries.encode(to: encoder) }
    }

    enum Level: Int, Codable, CodingKeyRepresentable, Hashable { case version, low }

    @Test("A dictionary whose own encoding the type calls has an entry under the version's key refused")
    func dictionaryEncodingCalledByTheType() throws {
        #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "version")) {
            try JSONEncoder().encode(versioned: Forwarding(entries: ["version": 1, "a": 5]))
        }
        // `Level.version` is written under its integer's name, "0", which the spec does not use.
        let levels = Forwarding<Level>(entries: [.version: 1])
        #expect(
            try JSONDecoder().decode(versioned: Forwarding<Level>.self, from: JSONEncoder().encode(versioned: levels))
                == levels
        )
        let plain = Forwarding(entries: ["a": 5])
        #expect(
            try JSONDecoder().decode(versioned: Forwarding<String>.self, from: JSONEncoder().encode(versioned: plain))
                == plain
        )
    }

    enum Raw: String, Codable, Hashable, Sendable { case a }

    @Test("A dictionary that Swift writes as an array is refused where the version goes, even when empty")
    func emptyDictionaryWrittenAsArray() throws {
        for value in [
            DictionaryAtVersionPlaceTests.KeyedMetadata<UUID>(_metadata: [:], title: "t"),
            DictionaryAtVersionPlaceTests.KeyedMetadata<UUID>(_metadata: [UUID(): "x"], title: "t"),
        ] {
            #expect(throws: VersionedEncodingError.self) { try JSONEncoder().encode(versioned: value) }
        }
        #expect(throws: VersionedEncodingError.self) {
            try JSONEncoder().encode(
                versioned: DictionaryAtVersionPlaceTests.KeyedMetadata<Raw>(_metadata: [:], title: "t")
            )
        }
    }

    /// Forwards its decoding and encoding to a struct through a single-value container.
    struct Wrapper<Inner: Codable & Equatable & Sendable>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var inner: Inner

        init(inner: Inner) { self.inner = inner }
        init(from decoder: any Decoder) throws { inner = try decoder.singleValueContainer().decode(Inner.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    struct OptionalMetadata: Codable, Equatable {
        struct Meta: Codable, Equatable { var editor: String }
        var name: String
        var _metadata: Meta?
    }

    struct DictionaryMetadata: Codable, Equatable {
        var name: String
        var _metadata: [String: String]
    }

    /// Lists its keys, and takes only the ones it knows.
    struct Listing: Codable, Equatable {
        var a: Int
        init(a: Int) { self.a = a }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: SharedRootDecoderTests.Tally.AnyKey.self)
            #expect(container.allKeys.map(\.stringValue) == ["a"])
            a = try container.decode(Int.self, forKey: SharedRootDecoderTests.Tally.AnyKey(stringValue: "a"))
        }
    }

    @Test(
        "A root forwarded to a struct reads back as the same struct at the root does, in every format",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func forwardedRootReadsBack(format: String) throws {
        let encode = try #require(VersionPlacementTests.formats.first { $0.name == format }).encode
        func roundTrip<Inner>(_ inner: Inner) throws -> Wrapper<Inner> {
            let data = try Wrapper(inner: inner).encodeTransparently(using: encode)
            return try OldAndNewBuildsTests.decode(Versioned<Wrapper<Inner>>.self, data).wrappedValue
        }
        let noMetadata = OptionalMetadata(name: "n", _metadata: nil)
        #expect(try roundTrip(noMetadata).inner == noMetadata)
        let withMetadata = OptionalMetadata(name: "n", _metadata: .init(editor: "e"))
        #expect(try roundTrip(withMetadata).inner == withMetadata)
        let dictionary = DictionaryMetadata(name: "n", _metadata: ["editor": "e"])
        #expect(try roundTrip(dictionary).inner == dictionary)
    }

    @Test("A root forwarded to a type that lists its keys does not see the spec's")
    func forwardedRootListsItsKeys() throws {
        struct Plain: VersionedCodable, Equatable {
            static let version: Int? = 1
            typealias PreviousVersion = NothingEarlier
            var inner: Listing
            init(inner: Listing) { self.inner = inner }
            init(from decoder: any Decoder) throws { inner = try decoder.singleValueContainer().decode(Listing.self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(inner)
            }
        }
        let value = Plain(inner: Listing(a: 3))
        #expect(try JSONDecoder().decode(versioned: Plain.self, from: JSONEncoder().encode(versioned: value)) == value)
    }

    struct ListedMetadata: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: Listing
        var name: String
    }

    @Test("A type that lists the keys of the spec's object below the root does not see the spec's")
    func listedMetadataKeys() throws {
        let value = ListedMetadata(_metadata: Listing(a: 1), name: "n")
        #expect(
            try JSONDecoder().decode(versioned: ListedMetadata.self, from: JSONEncoder().encode(versioned: value))
                == value
        )
    }

    struct UnnumberedMetadata: VersionedCodable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: Listing
    }

    struct UnnumberedDictionary: VersionedCodable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: [String: String]
    }

    @Test("A missing object where the spec writes is the decoder's keyNotFound, as in a plain decode")
    func missingMetadataIsKeyNotFound() throws {
        let document = Data(#"{"name":"n"}"#.utf8)
        for decode in [
            { _ = try JSONDecoder().decode(versioned: UnnumberedMetadata.self, from: document) },
            { _ = try JSONDecoder().decode(versioned: UnnumberedDictionary.self, from: document) },
        ] {
            do {
                try decode()
                Issue.record("a document without _metadata was read")
            } catch DecodingError.keyNotFound(let key, _) {
                #expect(key.stringValue == "_metadata")
            }
        }
    }

    /// Writes its object only for a numbered version: the `nil` version's object is the type's.
    struct OptionalMetadataSpec: VersionPathSpec {
        struct Metadata: Codable { var version: Int? }
        var _metadata: Metadata?
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata?.version }
        init(withVersion version: Int?) { _metadata = version.map { Metadata(version: $0) } }
    }

    struct UnnumberedOptionalMetadata: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = OptionalMetadataSpec
        struct Metadata: Codable, Equatable {
            var version: Int?
            var note: String?
        }
        var _metadata: Metadata?
    }

    @Test("The nil version's own object where its spec reads the version holds something of its own, or is refused")
    func nilVersionsObjectHoldsItsOwn() throws {
        // Written as `{}`, which the spec's reader reads back as no object.
        for metadata in [UnnumberedOptionalMetadata.Metadata(version: 4), .init()] {
            let error = try #require(throws: VersionedEncodingError.self) {
                try JSONEncoder().encode(versioned: UnnumberedOptionalMetadata(_metadata: metadata))
            }
            guard case .notRepresentable = error else {
                Issue.record("expected notRepresentable, got \(error)")
                continue
            }
        }
        let noted = UnnumberedOptionalMetadata(_metadata: .init(note: "n"))
        let data = try JSONEncoder().encode(versioned: noted)
        #expect(try JSONDecoder().decode(versioned: UnnumberedOptionalMetadata.self, from: data) == noted)
    }

    /// Unversioned, with a count of its own where the default spec keeps the version.
    struct CountedV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var version: Int
    }

    struct OptionallyCountedV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var version: Int?
    }

    /// Unversioned, writing its optional count with `encode` and reading it with `decode`, as
    /// synthesized code does for a generic property.
    struct ExplicitlyCountedV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var version: Int?
        enum CodingKeys: String, CodingKey { case version }
        init(version: Int?) { self.version = version }
        init(from decoder: any Decoder) throws {
            version = try decoder.container(keyedBy: CodingKeys.self).decode(Int?.self, forKey: .version)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
        }
    }

    /// Unversioned, with an optional number of its own where `MetadataVersionSpec` writes its
    /// object (`{}` for the `nil` version).
    struct NumberedMetadataV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: Int?
        var name: String
    }

    @Test("The nil version's own integer where the version goes is a mirror only where it is optional")
    func nilVersionMirrorIsOptional() throws {
        // Left out as a mirror of `nil`, a required count would not read back.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: CountedV0(version: 5))
        }
        let mirror = try JSONEncoder().encode(versioned: OptionallyCountedV0(version: 5))
        #expect(try JSONDecoder().decode(versioned: OptionallyCountedV0.self, from: mirror) == .init(version: nil))
        // Written with `encode`, the mirror is the `null` a plain encode writes for `nil`.
        for count in [5, nil] {
            let data = try JSONEncoder().encode(versioned: ExplicitlyCountedV0(version: count))
            #expect(try JSONDecoder().decode(versioned: ExplicitlyCountedV0.self, from: data) == .init(version: nil))
        }
        // The spec's `{}` is not the type's `nil` number, which reads back as it was written.
        let unnumbered = NumberedMetadataV0(_metadata: nil, name: "n")
        let data = try JSONEncoder().encode(versioned: unnumbered)
        #expect(try JSONDecoder().decode(versioned: NumberedMetadataV0.self, from: data) == unnumbered)
    }

    /// Has an optional field where `ConstantSpec` writes its constant.
    struct OptionalSchema: VersionedCodable, Equatable {
        static let version: Int? = 7
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ConstantSpec
        var schema: Int?
        var name: String
    }

    @Test("A nil where the spec writes a constant is refused, since it would read back as the constant")
    func nilAtSpecConstant() throws {
        // The constant itself is refused as well: the spec writes it.
        for schema in [nil, 7] {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try JSONEncoder().encode(versioned: OptionalSchema(schema: schema, name: "n"))
            }
        }
    }

    struct NarrowMirror: VersionedCodable, Equatable {
        static let version: Int? = 300
        typealias PreviousVersion = NothingEarlier
        var version: Int8
        var name: String
    }

    struct WideMirror: VersionedCodable, Equatable {
        static let version: Int? = 300
        typealias PreviousVersion = NothingEarlier
        var version: Int16
        var name: String
    }

    enum RevisionNumber: Int, Codable { case first = 1, second = 2 }

    struct EnumAtVersion: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var version: RevisionNumber
    }

    @Test("An Int-backed enum where the version goes is no mirror, even when its raw value is the version")
    func enumAtVersion() {
        for revision in [RevisionNumber.first, .second] {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try JSONEncoder().encode(versioned: EnumAtVersion(version: revision))
            }
        }
    }

    @Test("A mirror of the version must be able to hold it")
    func narrowMirror() throws {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: NarrowMirror(version: 1, name: "n"))
        }
        let wide = WideMirror(version: 1, name: "n")
        #expect(
            try JSONDecoder().decode(versioned: WideMirror.self, from: JSONEncoder().encode(versioned: wide))
                == WideMirror(version: 300, name: "n")
        )
    }

    struct NarrowOptionalMirror: VersionedCodable, Equatable {
        static let version: Int? = 300
        typealias PreviousVersion = NothingEarlier
        var version: Int8?
        var name: String
    }

    @Test("A mirror that is nil must be able to hold the version too, or the document does not read back")
    func narrowOptionalMirror() throws {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: NarrowOptionalMirror(version: nil, name: "n"))
        }
        // A plain decode of what the version would make of the field: it cannot hold 300.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NarrowOptionalMirror.self, from: Data(#"{"version":300,"name":"n"}"#.utf8))
        }
    }

    struct FractionMirror: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var version: Double = 1.0
    }

    struct FloatMirror: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var version: Float = 1
    }

    @Test("A fraction where the version goes is a clash even when it equals the version")
    func fractionEqualToVersion() throws {
        // Left out as a copy, it would be written as the spec's integer: a property list's
        // <real> would become an <integer>.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: FractionMirror())
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try PropertyListEncoder().encode(versioned: FloatMirror())
        }
    }

    /// Writes `_metadata` as a value, then opens it again to add a field, as JSONEncoder merges.
    struct ReopeningSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }
        struct Metadata: Codable { var version: Int? }
        var _metadata: Metadata
        init(withVersion version: Int?) { _metadata = Metadata(version: version) }

        enum CodingKeys: String, CodingKey { case _metadata }
        enum ExtraKeys: String, CodingKey { case format }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_metadata, forKey: ._metadata)
            var again = container.nestedContainer(keyedBy: ExtraKeys.self, forKey: ._metadata)
            try again.encode("notes", forKey: .format)
        }
    }

    struct Reopened: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ReopeningSpec
        var text: String
    }

    @Test("An object a spec writes and then opens again holds both, as a plain encode of the spec does")
    func specReopensAnObject() throws {
        let plain = try SpecTruth.Format.json.object(JSONEncoder().encode(ReopeningSpec(withVersion: 2)))
        let written = try SpecTruth.Format.json.object(JSONEncoder().encode(versioned: Reopened(text: "t")))
        let metadata = try #require(written["_metadata"] as? [String: Any])
        #expect(metadata["version"] as? Int == 2)
        #expect(metadata["format"] as? String == "notes")
        #expect((plain["_metadata"] as? [String: Any])?.keys.sorted() == metadata.keys.sorted())
        #expect(
            try JSONDecoder().decode(
                versioned: Reopened.self,
                from: JSONEncoder().encode(versioned: Reopened(text: "t"))
            ).text == "t"
        )
    }

    /// Keeps the version under "super", where a key-less super encoder writes.
    struct SuperSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.super.version }
        struct Inner: Codable { var version: Int? }
        var `super`: Inner
        init(withVersion version: Int?) { `super` = Inner(version: version) }
    }

    class Parent: Codable {
        var version: String
        init(version: String) { self.version = version }
    }

    final class Child: Parent, VersionedCodable, @unchecked Sendable {
        static let version: Int? = 4
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SuperSpec
        var x = 1

        init() { super.init(version: "1.0") }
        required init(from decoder: any Decoder) throws { try super.init(from: decoder) }

        enum CodingKeys: String, CodingKey { case x }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(x, forKey: .x)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test("What a key-less super encoder writes where the spec writes is watched")
    func keylessSuperEncoder() throws {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Child())
        }
    }

    struct ChoreWithOwnDeclaration: VersionedCodable, Equatable {
        static let version: Int? = 3
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = ChoreV2
        var name: String
        var done: Bool
        var versionReadableFrom: String?

        init(name: String, done: Bool, versionReadableFrom: String?) {
            self.name = name
            self.done = done
            self.versionReadableFrom = versionReadableFrom
        }
        init(from old: ChoreV2) { self.init(name: old.name, done: old.done, versionReadableFrom: nil) }
    }

    @Test("A type that declares older readers cannot write its own values where the declaration goes")
    func declarationKeysClash() throws {
        for name in ["2024-01", nil] {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try JSONEncoder().encode(
                    versioned: ChoreWithOwnDeclaration(name: "t", done: false, versionReadableFrom: name)
                )
            }
        }
        // A type that declares nothing keeps such an entry as its own, and reads it back.
        let undeclared = VersionPlacementTests.Tally(counts: ["versionReadableFrom": 42, "versionWritableFrom": 1])
        let read = try JSONDecoder().decode(
            versioned: VersionPlacementTests.Tally.self,
            from: JSONEncoder().encode(versioned: undeclared)
        )
        #expect(read == undeclared)
        for key in ["versionReadableFrom", "versionWritableFrom"] {
            #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: key)) {
                try JSONEncoder().encode(versioned: OldAndNewBuildsTests.CountsV2(counts: [key: 42]))
            }
        }
    }

    struct PriceV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var amount: Int
    }

    /// Declares nothing: builds of version 1 must not read it, whatever its own fields say.
    struct Price: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = PriceV1
        var amount: Int
        var versionReadableFrom: Int?
        var versionWritableFrom: Int?
        init(amount: Int, readable: Int?, writable: Int?) {
            self.amount = amount
            versionReadableFrom = readable
            versionWritableFrom = writable
        }
        init(from old: PriceV1) { self.init(amount: old.amount, readable: nil, writable: nil) }
    }

    struct IncompatibleCounts: DictionaryAtVersionPlaceTests.RootCounts, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = VersionPlacementTests.Tally
        var counts: [String: Int]
        init(counts: [String: Int]) { self.counts = counts }
        init(from old: VersionPlacementTests.Tally) { counts = old.counts }
    }

    @Test("A type that declares nothing cannot write its own values where older builds of its spec read a declaration")
    func undeclaredDeclarationKeys() throws {
        // As where the version declares them, a `nil` is refused too: the property's type is the
        // type's own.
        for (readable, writable) in [(1, nil), (nil, 1), (1, 1), (nil, nil)] as [(Int?, Int?)] {
            let price = Price(amount: 5, readable: readable, writable: writable)
            // Written, builds of version 1 would read and write it as a document they may.
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try JSONEncoder().encode(versioned: price)
            }
            let error = #expect(throws: EncodingError.self) { try JSONEncoder().encode([Versioned(price)]) }
            #expect("\(String(describing: error))".contains("writes its own value at `versionReadableFrom`"))
        }
        for key in ["versionReadableFrom", "versionWritableFrom"] {
            #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: key)) {
                try JSONEncoder().encode(versioned: IncompatibleCounts(counts: [key: 1, "apples": 2]))
            }
        }
    }

    /// Version 2 keeps the version in `_metadata`; version 3 keeps it at the root again, with the
    /// same spec as `PriceV1`, whose builds read its documents.
    struct PriceMoved: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = PriceV1
        typealias VersionSpec = MetadataVersionSpec
        var amount: Int
        init(from old: PriceV1) { amount = old.amount }
    }

    struct PriceBack: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = PriceMoved
        var amount: Int
        var versionReadableFrom: Int
        init(amount: Int) {
            self.amount = amount
            versionReadableFrom = 1
        }
        init(from old: PriceMoved) { self.init(amount: old.amount) }
    }

    /// Declares nothing, with fields that `.convertToSnakeCase` writes as the declaration's keys.
    struct SnakePrice: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = PriceV1
        var amount: Int
        var version_readable_from: Int
        init(amount: Int) {
            self.amount = amount
            version_readable_from = 1
        }
        init(from old: PriceV1) { self.init(amount: old.amount) }
    }

    /// A key with only a string value, for a custom key strategy's answer.
    struct RenamedKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Keeps the version at `schemaVersion`, which `.convertToSnakeCase` writes `schema_version`.
    struct SchemaSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.schemaVersion }
        var schemaVersion: Int?
        init(withVersion version: Int?) { schemaVersion = version }
    }

    struct UnnumberedSchema: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SchemaSpec
        var name: String
        var schema_version: Int?
    }

    struct NumberedSchema: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = UnnumberedSchema
        typealias VersionSpec = SchemaSpec
        var name: String
        init(from old: UnnumberedSchema) { name = old.name }
    }

    @Test(
        "Keys that older builds or the nil version's reader would take for the spec's are refused past a spec change and under key strategies"
    )
    func reservedKeysPastSpecChangesAndStrategies() throws {
        // Builds of version 1 keep the version at the root, as version 3 does again.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: PriceBack(amount: 5))
        }
        let snake = JSONEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try snake.encode(versioned: SnakePrice(amount: 5))
        }
        let renaming = JSONEncoder()
        renaming.keyEncodingStrategy = .custom { path in
            let key = path.last!.stringValue
            return RenamedKey(key == "version_readable_from" ? "versionReadableFrom" : key)
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try renaming.encode(versioned: SnakePrice(amount: 5))
        }
        // Written, it would read back as version 3, without its migration.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try snake.encode(versioned: UnnumberedSchema(name: "a", schema_version: 3))
        }
        let unversioned = try snake.encode(versioned: UnnumberedSchema(name: "a", schema_version: nil))
        let reader = JSONDecoder()
        reader.keyDecodingStrategy = .convertFromSnakeCase
        let read = try reader.decodeWithStoredVersion(NumberedSchema.self, from: unversioned)
        #expect(read.storedVersion == nil)
        #expect(read.wrappedValue == NumberedSchema(from: UnnumberedSchema(name: "a", schema_version: nil)))
    }

    /// Version 2 keeps the version in `_metadata` and has a field of its own at the root's
    /// `version`, where version 3 keeps the version again: a build of version 3 asks its own
    /// spec first, and would read that field as the version.
    struct RevisionV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var name: String
    }

    struct RevisionV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = RevisionV1
        typealias VersionSpec = MetadataVersionSpec
        var name: String
        var version: Int?
        init(name: String, version: Int?) {
            self.name = name
            self.version = version
        }
        init(from old: RevisionV1) { self.init(name: old.name, version: nil) }
    }

    struct Revision: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = RevisionV2
        var name: String
        var revision: Int?
        init(name: String, revision: Int?) {
            self.name = name
            self.revision = revision
        }
        init(from old: RevisionV2) { self.init(name: old.name, revision: old.version) }
        func downgraded() throws -> RevisionV2 { RevisionV2(name: name, version: revision) }
    }

    /// Version 1 of `Stamped`, writing its own number at the root's `version` through a super
    /// encoder, where `Stamped`'s spec reads the version first.
    struct StampedV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var stamp: Int
        enum CodingKeys: String, CodingKey { case version }
        init(stamp: Int) { self.stamp = stamp }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            stamp = try Int(from: container.superDecoder(forKey: .version))
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try stamp.encode(to: container.superEncoder(forKey: .version))
        }
    }

    struct Stamped: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = StampedV1
        var stamp: Int
        init(stamp: Int) { self.stamp = stamp }
        init(from old: StampedV1) { stamp = old.stamp }
        func downgraded() throws -> StampedV1 { StampedV1(stamp: stamp) }
    }

    /// Version 1 keeps the version at the root and writes an object or a string of its own at
    /// `_metadata`, where `Annotated`'s spec reads the version first.
    struct AnnotatedV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        enum Metadata: Codable, Equatable {
            case note(String)
            case object([String: Double])
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let note = try? container.decode(String.self) {
                    self = .note(note)
                } else {
                    self = .object(try container.decode([String: Double].self))
                }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .note(let note): try container.encode(note)
                case .object(let object): try container.encode(object)
                }
            }
        }
        var _metadata: Metadata
    }

    struct Annotated: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = AnnotatedV1
        typealias VersionSpec = MetadataVersionSpec
        var metadata: AnnotatedV1.Metadata
        init(metadata: AnnotatedV1.Metadata) { self.metadata = metadata }
        init(from old: AnnotatedV1) { metadata = old._metadata }
        func downgraded() throws -> AnnotatedV1 { AnnotatedV1(_metadata: metadata) }
    }

    /// Version 1 keeps the version at the root and has fields of its own where version 3's spec
    /// writes its label and version, and an optional `_metadata` where version 2's spec keeps it.
    struct TrioV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        struct Meta: Codable, Equatable { var version: Int? }
        var format: String
        var rev: Int
        var _metadata: Meta?
    }

    struct TrioV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = TrioV1
        typealias VersionSpec = MetadataVersionSpec
        var count: Int
        var tag: Int?
        init(count: Int, tag: Int?) {
            self.count = count
            self.tag = tag
        }
        init(from old: TrioV1) { self.init(count: old.rev, tag: old._metadata?.version) }
        func downgraded() throws -> TrioV1 {
            TrioV1(format: "doc", rev: count, _metadata: tag.map { .init(version: $0) })
        }
    }

    struct Trio: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = TrioV2
        typealias VersionSpec = LabelledRevisionSpec
        var count: Int
        var tag: Int?
        init(count: Int, tag: Int?) {
            self.count = count
            self.tag = tag
        }
        init(from old: TrioV2) { self.init(count: old.count, tag: old.tag) }
        func downgraded() throws -> TrioV2 { TrioV2(count: count, tag: tag) }
    }

    /// Keeps the version as a label at the root (`"version": "v3"`), which it reads with its own
    /// `init(from:)`; another string there holds no version.
    struct ReleaseLabelSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        init(withVersion version: Int?) { self.version = version }
        enum CodingKeys: String, CodingKey { case version }
        init(from decoder: any Decoder) throws {
            let label = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .version)
            version = label.flatMap { $0.hasPrefix("v") ? Int($0.dropFirst()) : nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(version.map { "v\($0)" }, forKey: .version)
        }
    }

    /// Version 2 keeps the version in `_metadata` and has a string of its own at the root's
    /// `version`, where `Released`'s spec reads its label first.
    struct ReleasedV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = RevisionV1
        typealias VersionSpec = MetadataVersionSpec
        var name: String
        var version: String
        init(name: String, version: String) {
            self.name = name
            self.version = version
        }
        init(from old: RevisionV1) { self.init(name: old.name, version: "") }
    }

    /// Version 3, with `Spec` keeping its version: a label at the root (`Released`) or the
    /// root's `version` again (`ReleasedAtRoot`), where version 2 has its own string.
    struct ReleasedV3<Spec: VersionPathSpec>: VersionedCodable, Equatable {
        static var version: Int? { 3 }
        typealias PreviousVersion = ReleasedV2
        typealias VersionSpec = Spec
        var name: String
        var release: String
        init(name: String, release: String) {
            self.name = name
            self.release = release
        }
        init(from old: ReleasedV2) { self.init(name: old.name, release: old.version) }
        func downgraded() throws -> ReleasedV2 { ReleasedV2(name: name, version: release) }
    }

    typealias Released = ReleasedV3<ReleaseLabelSpec>
    typealias ReleasedAtRoot = ReleasedV3<VersionKeyAtRootVersionPathSpec>

    /// Keeps its version at `_outer.version` and forwards the rest of its encoding to a part.
    struct Shelf: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = OuterSpec
        struct OuterSpec: VersionPathSpec {
            struct Outer: Codable { var version: Int? }
            static var keyPathToVersion: KeyPath<Self, Int?> { \Self._outer.version }
            var _outer: Outer
            init(withVersion version: Int?) { _outer = Outer(version: version) }
        }
        var item: ReleasedAtRoot
        init(item: ReleasedAtRoot) { self.item = item }
        init(from decoder: any Decoder) throws { item = try Versioned<ReleasedAtRoot>(from: decoder).wrappedValue }
        func encode(to encoder: any Encoder) throws { try Versioned(item).encode(to: encoder) }
    }

    /// Version 2 keeps the version in `_metadata` and hands its encoder to a dictionary, whose
    /// entries stand at the root, where `Counted`'s spec reads first.
    struct CountedV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var counts: [String: Int]
        init(counts: [String: Int]) { self.counts = counts }
        init(from decoder: any Decoder) throws { counts = try [String: Int](from: decoder) }
        func encode(to encoder: any Encoder) throws { try counts.encode(to: encoder) }
    }

    struct Counted: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = CountedV2
        var counts: [String: Int]
        init(counts: [String: Int]) { self.counts = counts }
        init(from old: CountedV2) { counts = old.counts }
        func downgraded() throws -> CountedV2 { CountedV2(counts: counts) }
    }

    /// Version 1 keeps the version at the root and has an optional header of its own at
    /// `_metadata`, which may hold its own version number where `Headered`'s spec reads.
    struct HeaderedV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        struct Header: Codable, Equatable { var version: Int? }
        var _metadata: Header?
    }

    struct Headered: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = HeaderedV1
        typealias VersionSpec = MetadataVersionSpec
        var revision: Int?
        init(revision: Int?) { self.revision = revision }
        init(from old: HeaderedV1) { revision = old._metadata?.version }
        func downgraded() throws -> HeaderedV1 { HeaderedV1(_metadata: revision.map { .init(version: $0) }) }
    }

    /// Writes its version only for itself and later versions: asked for an older one, it throws.
    struct SchemaFromThreeSpec: VersionPathSpec {
        struct TooOld: Error {}
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.schema }
        var schema: Int?
        init(withVersion version: Int?) { schema = version }
        func encode(to encoder: any Encoder) throws {
            guard let schema, schema >= 3 else {
                throw TooOld()
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(schema, forKey: .schema)
        }
    }

    struct Scheduled: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = RevisionV2
        typealias VersionSpec = SchemaFromThreeSpec
        var name: String
        var when: Date?
        init(name: String, when: Date?) {
            self.name = name
            self.when = when
        }
        init(from old: RevisionV2) { self.init(name: old.name, when: nil) }
        func downgraded() throws -> RevisionV2 { RevisionV2(name: name, version: nil) }
    }

    /// A date written through a single-value container of its own.
    struct Moment: Codable, Equatable {
        var date: Date
        init(_ date: Date) { self.date = date }
        init(from decoder: any Decoder) throws { date = try decoder.singleValueContainer().decode(Date.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(date)
        }
    }

    struct DatedV2<When: Codable & Equatable>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = RevisionV1
        typealias VersionSpec = MetadataVersionSpec
        var name: String
        var version: When?
        init(name: String, version: When?) {
            self.name = name
            self.version = version
        }
        init(from old: RevisionV1) { self.init(name: old.name, version: nil) }
    }

    struct Dated<When: Codable & Equatable>: VersionedCodable, Equatable {
        static var version: Int? { 3 }
        typealias PreviousVersion = DatedV2<When>
        var name: String
        var date: When?
        init(from old: DatedV2<When>) { self.init(name: old.name, date: old.version) }
        init(name: String, date: When?) {
            self.name = name
            self.date = date
        }
        func downgraded() throws -> DatedV2<When> { DatedV2(name: name, version: date) }
    }

    /// Writes a label beside the version, alike for every version.
    struct LabelledRevisionSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.rev }
        var format = "doc"
        var rev: Int?
        init(withVersion version: Int?) { rev = version }
    }

    /// Version 1 has fields of its own where `Labelled`'s spec writes its label and version.
    struct LabelledV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var format: String
        var rev: Int
    }

    struct Labelled: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = LabelledV1
        typealias VersionSpec = LabelledRevisionSpec
        var count: Int
        init(count: Int) { self.count = count }
        init(from old: LabelledV1) { count = old.rev }
        func downgraded() throws -> LabelledV1 { LabelledV1(format: "doc", rev: count) }
    }

    struct RevisionList: Codable {
        var revisions: [Versioned<Revision>]
    }

    struct AnnotatedList: Codable {
        var items: [Versioned<Annotated>]
    }

    /// A number written through a type's own single-value encoding.
    enum Grade: Int, Codable, Equatable {
        case low = 1
        case high = 9
    }

    struct LevelledV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = RevisionV1
        typealias VersionSpec = MetadataVersionSpec
        var name: String
        var version: Grade
        init(name: String, version: Grade) {
            self.name = name
            self.version = version
        }
        init(from old: RevisionV1) { self.init(name: old.name, version: .low) }
    }

    struct Levelled: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = LevelledV2
        var name: String
        var level: Grade
        init(name: String, level: Grade) {
            self.name = name
            self.level = level
        }
        init(from old: LevelledV2) { self.init(name: old.name, level: old.version) }
        func downgraded() throws -> LevelledV2 { LevelledV2(name: name, version: level) }
    }

    @Test("An older version for newer builds is read as itself by the build of every type between")
    func olderVersionIsReadByEveryNewerBuild() throws {
        // `Trio`'s spec reads `"format":"doc","rev":1` as version 1, but `TrioV2`'s build asks
        // `_metadata.version` first and would read `{"version":2}` there as version 2.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Trio(count: 1, tag: 2), asVersion: 1)
        }
        for tag in [nil, 1] {
            let data = try JSONEncoder().encode(versioned: Trio(count: 1, tag: tag), asVersion: 1)
            #expect(try JSONDecoder().decodeWithStoredVersion(Trio.self, from: data).storedVersion == 1)
            #expect(try JSONDecoder().decodeWithStoredVersion(TrioV2.self, from: data).storedVersion == 1)
            #expect(try JSONDecoder().decode(versioned: TrioV2.self, from: data) == TrioV2(count: 1, tag: tag))
            #expect(try JSONDecoder().decode(versioned: Trio.self, from: data) == Trio(count: 1, tag: tag))
        }
    }

    @Test("Foundation's coders keep a string a string, also where a part is written through the library's encoder")
    func numericTextIsAStringInFoundationsCoders() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(ReleasedAtRoot.self, asVersion: 2)
        let item = ReleasedAtRoot(name: "a", release: "1")
        // The part is handed the writer of the value around it, whose encoder is the library's.
        for data in [try encoder.encode(versioned: item), try encoder.encode(versioned: Shelf(item: item))] {
            let read = try JSONDecoder().decodeWithStoredVersion(ReleasedAtRoot.self, from: data)
            #expect(read.storedVersion == 2)
            #expect(read.wrappedValue == item)
        }
    }

    @Test("A newer spec's label, and a dictionary's entry, where an older version for newer builds writes")
    func olderVersionWatchesLabelsAndHandedDictionaries() throws {
        // `Released`'s spec reads `"v3"` as its own version 3, and version 2's spec reads
        // version 2: written as version 2, the document would be either version's, and read as
        // neither.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Released(name: "a", release: "v3"), asVersion: 2)
        }
        // A string that spec cannot read as a version, the version's own label, and a label of a
        // version that keeps its version elsewhere (`"v1"`, which version 2's spec, asked after
        // it, outweighs) are written and read back.
        for release in ["x", "v2", "v1"] {
            let data = try JSONEncoder().encode(versioned: Released(name: "a", release: release), asVersion: 2)
            let read = try JSONDecoder().decodeWithStoredVersion(Released.self, from: data)
            #expect(read.storedVersion == 2)
            #expect(read.wrappedValue == Released(name: "a", release: release))
        }
        // A type that hands its encoder to a dictionary writes entries: one where `Counted`'s spec
        // reads first is refused as the entry it is.
        #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "version")) {
            try JSONEncoder().encode(versioned: Counted(counts: ["version": 5, "a": 1]), asVersion: 2)
        }
        let data = try JSONEncoder().encode(versioned: Counted(counts: ["a": 1]), asVersion: 2)
        let read = try JSONDecoder().decodeWithStoredVersion(Counted.self, from: data)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == Counted(counts: ["a": 1]))
    }

    @Test("An older version's own field where a newer spec reads its same version stays the type's")
    func olderFieldAtNewerSpecsPlaceStaysTheTypes() throws {
        // Version 1's own build writes `{"_metadata":{"version":1},"version":1}`. The newer spec
        // reads version 1 at `_metadata.version`, and version 1's own spec reads it at the root:
        // the document is version 1's, and `_metadata` is its field, not the newer spec's.
        let own = try JSONEncoder().encode(versioned: HeaderedV1(_metadata: .init(version: 1)))
        #expect(try JSONDecoder().decode(versioned: Headered.self, from: own) == Headered(revision: 1))
        let written = try JSONEncoder().encode(versioned: Headered(revision: 1), asVersion: 1)
        #expect(try JSONDecoder().decode(versioned: Headered.self, from: written) == Headered(revision: 1))
        // A dictionary of the type's there keeps every entry, the number too.
        for entries in [["version": 1.0], ["version": 1, "author": 2]] {
            let data = try JSONEncoder().encode(versioned: Annotated(metadata: .object(entries)), asVersion: 1)
            let read = try JSONDecoder().decodeWithStoredVersion(Annotated.self, from: data)
            #expect(read.storedVersion == 1)
            #expect(read.wrappedValue == Annotated(metadata: .object(entries)))
        }
        // Another number there is refused when written, as before.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Headered(revision: 2), asVersion: 1)
        }
    }

    /// Version 1 keeps the version at the root, version 2 under `_metadata`, and version 3 at the
    /// root again, with a `_metadata` object of its own, where version 2's build reads first.
    struct LedgerV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var note: String
    }

    struct LedgerV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = LedgerV1
        typealias VersionSpec = MetadataVersionSpec
        var note: String
        init(note: String) { self.note = note }
        init(from old: LedgerV1) { note = old.note }
    }

    struct Ledger: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = LedgerV2
        struct Stamp: Codable, Equatable { var version: Int? }
        var note: String
        var _metadata: Stamp?
        init(note: String, stamp: Int?) {
            self.note = note
            _metadata = Stamp(version: stamp)
        }
        init(from old: LedgerV2) { self.init(note: old.note, stamp: nil) }
    }

    @Test(
        "A version writes nothing that the build of an older version, which asks another spec first, reads as its own"
    )
    func newestVersionWatchesOlderChainsPlaces() throws {
        // Version 2's build reads `_metadata.version` first: 2 there would read as its own
        // version, with `note` decoded as version 2's and the root's version lost.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Ledger(note: "a", stamp: 2))
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try PropertyListEncoder().encode(versioned: Ledger(note: "a", stamp: 2))
        }
        // In a part, the error names the part and where the other build reads.
        let encoder = JSONEncoder()
        let error = try #require(throws: EncodingError.self) {
            try encoder.encode([Versioned(Ledger(note: "a", stamp: 2))])
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.debugDescription.contains("`_metadata.version`"))
        #expect(context.debugDescription.contains("the build of another version of its chain reads the version"))
        // Its own version, a number newer than version 2 knows, and no number at all are written;
        // every build reads them back as what they are, or as newer than it knows. So is 1, which
        // version 2's spec does not keep: its build reads the root's 3 instead.
        for stamp in [1, 3, 9, nil] {
            let ledger = Ledger(note: "a", stamp: stamp)
            let data = try JSONEncoder().encode(versioned: ledger)
            let read = try JSONDecoder().decodeWithStoredVersion(Ledger.self, from: data)
            #expect(read.storedVersion == 3)
            #expect(read.wrappedValue == ledger)
            #expect(throws: VersionedDecodingError.self) {
                try JSONDecoder().decode(versioned: LedgerV2.self, from: data)
            }
            #expect(throws: VersionedDecodingError.self) {
                try JSONDecoder().decode(versioned: LedgerV1.self, from: data)
            }
        }
    }

    /// A label spec that knows only version 1, as many do, and notes each version it is asked for.
    struct AlphaOnlySpec: VersionPathSpec {
        nonisolated(unsafe) static var asked: [Int?] = []
        static let lock = NSLock()
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.number }
        var format: String?
        var number: Int? { format == "alpha" ? 1 : nil }
        init(withVersion version: Int?) {
            Self.lock.withLock { Self.asked.append(version) }
            format = version == 1 ? "alpha" : nil
        }
    }

    struct FormV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = AlphaOnlySpec
        var name: String
    }

    struct Form: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = FormV1
        var name: String
        var format: String?
        init(name: String, format: String?) {
            self.name = name
            self.format = format
        }
        init(from old: FormV1) { self.init(name: old.name, format: nil) }
    }

    @Test("An older spec is asked only for its own versions, and its label is watched")
    func olderSpecIsAskedForItsOwnVersionsOnly() throws {
        AlphaOnlySpec.lock.withLock { AlphaOnlySpec.asked = [] }
        // Version 1's build reads `"format": "alpha"` as version 1.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Form(name: "a", format: "alpha"))
        }
        for format in ["beta", nil] {
            let form = Form(name: "a", format: format)
            let data = try JSONEncoder().encode(versioned: form)
            #expect(try JSONDecoder().decode(versioned: Form.self, from: data) == form)
        }
        let old = try JSONEncoder().encode(versioned: FormV1(name: "a"))
        #expect(try JSONDecoder().decode(versioned: Form.self, from: old) == Form(name: "a", format: nil))
        // The spec of version 1 knows no version 2: finding where it reads, writing or reading,
        // asks it for its own version only, and with no other, every part it writes counts.
        #expect(AlphaOnlySpec.lock.withLock { AlphaOnlySpec.asked }.allSatisfy { $0 == 1 })
        #expect(!AlphaOnlySpec.lock.withLock { AlphaOnlySpec.asked }.isEmpty)
    }

    // The unversioned build keeps an object of its own at `_metadata`, where version 1's spec
    // keeps the version; version 2 moves it back to the root.
    struct NotebookV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        struct Own: Codable, Equatable { var version: Int }
        var _metadata: Own
        var title: String
    }

    struct NotebookV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NotebookV0
        typealias VersionSpec = MetadataVersionSpec
        var title: String
        init(title: String) { self.title = title }
        init(from old: NotebookV0) { title = old.title + ">1" }
    }

    struct Notebook: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NotebookV1
        var title: String
        init(title: String) { self.title = title }
        init(from old: NotebookV1) { title = old.title + ">2" }
        func downgraded() -> NotebookV1 { NotebookV1(title: title) }
    }

    // The unversioned build keeps its version under `_metadata`, and a `version` of its own at
    // the root, where version 2's spec reads.
    struct DaybookV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var version: Int
        var title: String
    }

    struct DaybookV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = DaybookV0
        typealias VersionSpec = MetadataVersionSpec
        var title: String
        init(title: String) { self.title = title }
        init(from old: DaybookV0) { title = old.title + ">1" }
    }

    struct Daybook: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = DaybookV1
        var title: String
        init(title: String) { self.title = title }
        init(from old: DaybookV1) { title = old.title + ">2" }
        func downgraded() -> DaybookV1 { DaybookV1(title: title) }
    }

    @Test("A version read where no version of the chain keeps it, and confirmed by no spec, is a field of the type's")
    func unconfirmedVersionOfAnotherSpecIsNoVersion() throws {
        // The unversioned build writes `{"_metadata":{"version":2},"title":"t"}`: version 1's
        // spec reads 2 there, but version 2 keeps its version at the root, where there is none.
        // No build of the chain writes that document as version 2, so it is the unversioned one.
        let notebook = try JSONEncoder().encode(versioned: NotebookV0(_metadata: .init(version: 2), title: "t"))
        let read = try JSONDecoder().decodeWithStoredVersion(Notebook.self, from: notebook)
        #expect(read.storedVersion == nil)
        #expect(read.wrappedValue == Notebook(title: "t>1>2"))
        #expect(try JSONDecoder().storedVersion(of: Notebook.self, from: notebook) == nil)
        #expect(try JSONDecoder().decode(versioned: NotebookV0.self, from: notebook)._metadata.version == 2)
        // `{"_metadata":{},"title":"t","version":1}`: the root's 1 is not version 2's spec's, and
        // version 1's spec reads none under `_metadata`.
        let daybook = try JSONEncoder().encode(versioned: DaybookV0(version: 1, title: "t"))
        let readDaybook = try JSONDecoder().decodeWithStoredVersion(Daybook.self, from: daybook)
        #expect(readDaybook.storedVersion == nil)
        #expect(readDaybook.wrappedValue == Daybook(title: "t>1>2"))
        // The documents the chain's own builds write still read as their versions.
        for version in [1, 2] {
            let data = try JSONEncoder().encode(versioned: Notebook(title: "n"), asVersion: version)
            #expect(try JSONDecoder().storedVersion(of: Notebook.self, from: data) == version)
            let daybookData = try JSONEncoder().encode(versioned: Daybook(title: "n"), asVersion: version)
            #expect(try JSONDecoder().storedVersion(of: Daybook.self, from: daybookData) == version)
        }
    }

    // Version 1 keeps its version at the root and a `schemaVersion` of its own, where version 2
    // keeps its version.
    struct RecordV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var title: String
        var schemaVersion: Int
    }

    struct Record: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = RecordV1
        typealias VersionSpec = SchemaSpec
        var title: String
        var schemaVersion: Int
        init(title: String, schemaVersion: Int) {
            self.title = title
            self.schemaVersion = schemaVersion
        }
        init(from old: RecordV1) { self.init(title: old.title, schemaVersion: old.schemaVersion) }
        func downgraded() -> RecordV1 { RecordV1(title: title, schemaVersion: schemaVersion) }
        // Version 2's `schemaVersion` is the spec's: the type keeps it only as version 1 did.
        enum CodingKeys: String, CodingKey { case title }
        init(from decoder: any Decoder) throws {
            title = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .title)
            schemaVersion = 0
        }
    }

    @Test("A number that is no version of the chain, nor newer than it, is kept by no spec")
    func numberBelowTheChainIsNoVersion() throws {
        for own in [0, -3] {
            // Version 1's build writes `{"schemaVersion":0,"title":"a","version":1}`: version 2's
            // spec reads 0, which no version of the chain is, and version 1's spec its own 1.
            let old = try JSONEncoder().encode(versioned: RecordV1(title: "a", schemaVersion: own))
            let read = try JSONDecoder().decodeWithStoredVersion(Record.self, from: old)
            #expect(read.storedVersion == 1)
            #expect(read.wrappedValue == Record(title: "a", schemaVersion: own))
            // Version 2's build writes version 1 for the older builds as they do, and reads it back.
            let written = try JSONEncoder().encode(versioned: Record(title: "a", schemaVersion: own), asVersion: 1)
            #expect(try JSONDecoder().storedVersion(of: Record.self, from: written) == 1)
            #expect(
                try JSONDecoder().decode(versioned: RecordV1.self, from: written)
                    == RecordV1(title: "a", schemaVersion: own)
            )
        }
        // A number newer than the chain is still read as a newer document's version.
        let newer = Data(#"{"schemaVersion":9,"title":"a","version":1}"#.utf8)
        let error = try #require(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: Record.self, from: newer)
        }
        guard case .ambiguousVersion(let versions, _) = error else {
            Issue.record("expected ambiguousVersion, got \(error)")
            return
        }
        #expect(versions == [9, 1])
    }

    // Version 1 keeps a `_metadata` of its own whose `version` is a string; version 2 keeps its
    // version under `_metadata`. The unversioned version before it does the same as version 1.
    struct TaggedV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        struct Own: Codable, Equatable { var version: String }
        var _metadata: Own
    }

    struct TaggedV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = TaggedV0
        var _metadata: TaggedV0.Own
        init(_metadata: TaggedV0.Own) { self._metadata = _metadata }
        init(from old: TaggedV0) { _metadata = old._metadata }
        func downgraded() -> TaggedV0 { TaggedV0(_metadata: _metadata) }
    }

    struct Tagged: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = TaggedV1
        typealias VersionSpec = MetadataVersionSpec
        var tag: String
        init(tag: String) { self.tag = tag }
        init(from old: TaggedV1) { tag = old._metadata.version }
        func downgraded() -> TaggedV1 { TaggedV1(_metadata: .init(version: tag)) }
    }

    @Test(
        "An older version whose own value a newer spec cannot read as a version is written, unless it is the nil version"
    )
    func newerSpecFailingOnAnOlderVersionsValue() throws {
        // Version 2's spec fails on the string under `_metadata`, and its build asks version 1's
        // spec next, which reads version 1 at the root.
        let data = try JSONEncoder().encode(versioned: Tagged(tag: "x"), asVersion: 1)
        let read = try JSONDecoder().decodeWithStoredVersion(Tagged.self, from: data)
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == Tagged(tag: "x"))
        #expect(
            try JSONDecoder().decode(versioned: TaggedV1.self, from: data) == TaggedV1(_metadata: .init(version: "x"))
        )
        // The unversioned version is read by no spec: version 2's build would stop at the failure.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Tagged(tag: "x"), asVersion: nil)
        }
        let unversioned = try JSONEncoder().encode(versioned: TaggedV0(_metadata: .init(version: "x")))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(versioned: Tagged.self, from: unversioned) }
    }

    @Test("An older build's own number where a newer spec reads makes the document either version's")
    func olderBuildsOwnNumberAtNewerPlaceIsAmbiguous() throws {
        // Version 1's own build knows no newer spec: it writes `{"_metadata":{"version":2},
        // "version":1}`. The newer spec reads its own version 2 there, and version 1's spec its
        // own version 1 at the root: either could be right, so neither is guessed.
        let own = try JSONEncoder().encode(versioned: HeaderedV1(_metadata: .init(version: 2)))
        let error = try #require(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: Headered.self, from: own)
        }
        guard case .ambiguousVersion(let versions, let context) = error else {
            Issue.record("expected ambiguousVersion, got \(error)")
            return
        }
        #expect(versions == [2, 1])
        #expect(context.debugDescription.contains("versionsToRead"))
        #expect(throws: VersionedDecodingError.self) { try JSONDecoder().storedVersion(of: Headered.self, from: own) }
        // The decoder's `versionsToRead` says which it is.
        let decoder = JSONDecoder()
        decoder.userInfo[.versionsToRead] = VersionsToWrite().writing(Headered.self, asVersion: 1)
        let read = try decoder.decodeWithStoredVersion(Headered.self, from: own)
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == Headered(revision: 2))
        decoder.userInfo[.versionsToRead] = VersionsToWrite().writing(Headered.self, asVersion: 2)
        #expect(try decoder.decodeWithStoredVersion(Headered.self, from: own).storedVersion == 2)
        // Through three specs: the label reads version 2, which is not its own; version 2's spec
        // reads its own 2, and version 1's its own 1. In a part, the error names the part.
        let trio = try JSONEncoder().encode(versioned: TrioV1(format: "doc", rev: 2, _metadata: .init(version: 2)))
        let trioError = try #require(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: Trio.self, from: trio)
        }
        guard case .ambiguousVersion(let trioVersions, _) = trioError else {
            Issue.record("expected ambiguousVersion, got \(trioError)")
            return
        }
        #expect(trioVersions == [2, 1])
        let list = Data("[".utf8) + trio + Data("]".utf8)
        let partError = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode([Versioned<Trio>].self, from: list)
        }
        #expect("\(partError)".contains("either"))
        // Where the first version found is not kept by the spec that read it, the one whose own
        // spec reads it is the document's: the label reads version 1, which keeps its version at
        // the root, where version 1 stands too.
        let labelled = try JSONEncoder().encode(versioned: TrioV1(format: "doc", rev: 1, _metadata: nil))
        #expect(try JSONDecoder().decode(versioned: Trio.self, from: labelled) == Trio(count: 1, tag: nil))
        // A document newer than the chain keeps its version where no older spec reads its own.
        let newer = Data(#"{"_metadata":{"version":7},"name":"a"}"#.utf8)
        #expect(try JSONDecoder().storedVersion(of: Headered.self, from: newer) == 7)
    }

    @Test("An older version for newer builds writes nothing where their chain reads another version first")
    func olderVersionWatchesNewerChainsPlaces() throws {
        // Written, `"version": 1` would read back through `Revision` as version 1, with `rev`
        // lost: refused, at the root and in a part, as is any number the newer spec reads as
        // another version, an enum's raw value among them.
        for revision in [1, 3, 7] {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try JSONEncoder().encode(versioned: Revision(name: "a", revision: revision), asVersion: 2)
            }
        }
        for level in [Grade.low, .high] {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try JSONEncoder().encode(versioned: Levelled(name: "a", level: level), asVersion: 2)
            }
        }
        // Read together with the label the type also writes, `rev: 2` is version 2.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Labelled(count: 2), asVersion: 1)
        }
        let labelled = try JSONEncoder().encode(versioned: Labelled(count: 1), asVersion: 1)
        let readLabelled = try JSONDecoder().decodeWithStoredVersion(Labelled.self, from: labelled)
        #expect(readLabelled.storedVersion == 1)
        #expect(readLabelled.wrappedValue == Labelled(count: 1))
        // What a date is written as depends on the coder's strategy, which cannot be seen: as
        // milliseconds, 3 ms would read as version 3.
        let milliseconds = JSONEncoder()
        milliseconds.dateEncodingStrategy = .millisecondsSince1970
        let instant = Date(timeIntervalSince1970: 0.003)
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try milliseconds.encode(versioned: Dated(name: "a", date: instant), asVersion: 2)
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try milliseconds.encode(versioned: Dated(name: "a", date: Moment(instant)), asVersion: 2)
        }
        // A newer spec that cannot write older versions is found where it writes its own.
        let older = try JSONEncoder().encode(versioned: Scheduled(name: "a", when: nil), asVersion: 2)
        let readOlder = try JSONDecoder().decodeWithStoredVersion(Scheduled.self, from: older)
        #expect(readOlder.storedVersion == 2)
        #expect(readOlder.wrappedValue == Scheduled(name: "a", when: nil))
        // The version itself there reads as what it is.
        let same = try JSONEncoder().encode(versioned: Revision(name: "a", revision: 2), asVersion: 2)
        let readSame = try JSONDecoder().decodeWithStoredVersion(Revision.self, from: same)
        #expect(readSame.storedVersion == 2)
        #expect(readSame.wrappedValue == Revision(name: "a", revision: 2))
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(Revision.self, asVersion: 2)
        let list = RevisionList(revisions: [Versioned(Revision(name: "a", revision: 1))])
        let error = try #require(throws: EncodingError.self) { try encoder.encode(list) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(
            context.debugDescription.contains(
                "the build of another version of its chain reads the version with another spec"
            )
        )
        // What a super encoder writes there is not seen, so opening one there is refused too.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: Stamped(stamp: 1), asVersion: 1)
        }
        // On the way to such a place, anything but a number there is written: the newer spec
        // cannot read a version through it, and asks the next.
        for metadata in [AnnotatedV1.Metadata.note("n"), .object(["author": 1])] {
            let data = try JSONEncoder().encode(versioned: Annotated(metadata: metadata), asVersion: 1)
            let read = try JSONDecoder().decodeWithStoredVersion(Annotated.self, from: data)
            #expect(read.storedVersion == 1)
            #expect(read.wrappedValue == Annotated(metadata: metadata))
        }
        #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "version")) {
            try JSONEncoder().encode(versioned: Annotated(metadata: .object(["version": 3])), asVersion: 1)
        }
        let itemsEncoder = JSONEncoder()
        itemsEncoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(Annotated.self, asVersion: 1)
        let items = AnnotatedList(items: [Versioned(Annotated(metadata: .object(["version": 3])))])
        let entryError = try #require(throws: EncodingError.self) { try itemsEncoder.encode(items) }
        #expect(
            "\(entryError)".contains(
                "where the build of another version of its chain reads the version with another spec"
            )
        )
        let stamped = try JSONEncoder().encode(versioned: StampedV1(stamp: 1))
        #expect(try JSONDecoder().decode(versioned: StampedV1.self, from: stamped) == StampedV1(stamp: 1))
        // With nothing there, the document reads back as version 2, in both builds.
        let data = try JSONEncoder().encode(versioned: Revision(name: "a", revision: nil), asVersion: 2)
        let read = try JSONDecoder().decodeWithStoredVersion(Revision.self, from: data)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == Revision(name: "a", revision: nil))
        #expect(try JSONDecoder().decode(versioned: RevisionV2.self, from: data) == RevisionV2(name: "a", version: nil))
        // A build of version 2 knows no newer chain, but the build of version 1 reads the root's
        // `version` first: `1` there would read as version 1, with `_metadata` lost, and is
        // refused. A number it reads as newer than it knows is written.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: RevisionV2(name: "a", version: 1))
        }
        for version in [2, 5] {
            let own = try JSONEncoder().encode(versioned: RevisionV2(name: "a", version: version))
            #expect(
                try JSONDecoder().decode(versioned: RevisionV2.self, from: own)
                    == RevisionV2(name: "a", version: version)
            )
            #expect(throws: VersionedDecodingError.self) {
                try JSONDecoder().decode(versioned: RevisionV1.self, from: own)
            }
        }
    }
}
