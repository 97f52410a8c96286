import Foundation
import Testing
import VersionedCodable

// What a spec writes beside the version, and the versions it meets in a document: written as
// a plain encode of the spec writes it, and never mistaken for the type's own data.

extension CodingUserInfoKey {
    static let writer = CodingUserInfoKey(rawValue: "writer")!
}

/// Writes who wrote the document, from the encoder's `userInfo`.
struct SignedSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
    var version: Int?

    init(withVersion version: Int?) {
        self.version = version
    }

    init(from decoder: any Decoder) throws {
        version = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .version)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encode(encoder.userInfo[.writer] as? String ?? "unknown", forKey: .writer)
    }

    enum CodingKeys: String, CodingKey { case version, writer }
}

/// Writes a constant that equals the version of the only type that uses it.
struct ConstantSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
    var version: Int?
    var schema = 7

    init(withVersion version: Int?) {
        self.version = version
    }
}

/// Writes fields beside the version that a type may write too: an integer, an array and an
/// object.
struct ProducerSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
    struct Producer: Codable { var name: String; var build: Int }
    var version: Int?
    var schema = 7
    var tags = ["a", "b"]
    var producer = Producer(name: "tool", build: 42)

    init(withVersion version: Int?) {
        self.version = version
    }
}

/// Writes a `null` note beside the version, as a spec that clears a field does.
struct NullNoteSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
    var version: Int?

    init(withVersion version: Int?) {
        self.version = version
    }

    init(from decoder: any Decoder) throws {
        version = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .version)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encodeNil(forKey: .note)
    }

    enum CodingKeys: String, CodingKey { case version, note }
}

/// Keeps the version at `_metadata.version`, and writes no `_metadata` for the `nil` version: none
/// at all, or `null` when `writesNull`.
struct OptionalMetadataSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
    struct Metadata: Codable { var version: Int? }
    var _metadata: Metadata?
    var version: Int? { _metadata?.version }
    static let writesNull = CodingUserInfoKey(rawValue: "writesNull")!

    init(withVersion version: Int?) {
        _metadata = version.map { Metadata(version: $0) }
    }

    init(from decoder: any Decoder) throws {
        _metadata = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Metadata.self, forKey: ._metadata)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if encoder.userInfo[Self.writesNull] as? Bool == true {
            try container.encode(_metadata, forKey: ._metadata)
        } else {
            try container.encodeIfPresent(_metadata, forKey: ._metadata)
        }
    }

    enum CodingKeys: String, CodingKey { case _metadata }
}

@Suite("What a spec writes beside the version")
struct SpecFieldTests {
    /// An optional field where the spec writes `null`.
    struct Noted: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NullNoteSpec
        var note: String?
        var body: String
    }

    struct Signed: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SignedSpec
        var text: String
    }

    struct Constant: VersionedCodable, Equatable {
        static let version: Int? = 7
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ConstantSpec
        var schema: Int
    }

    /// Keeps none of `ConstantSpec`'s fields.
    struct Unconstant: VersionedCodable, Equatable {
        static let version: Int? = 7
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ConstantSpec
        var name: String
    }

    /// Keeps a field of its own in the object where `ProducerSpec` writes its producer.
    struct Hosted: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ProducerSpec
        struct Producer: Codable, Equatable { var host: String }
        var producer: Producer
        var body: String
    }

    struct SameFields: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ProducerSpec
        struct Producer: Codable, Equatable { var name: String; var build: Int; var host: String }
        var schema: Int
        var tags: [String]
        var producer: Producer
    }

    /// A string field at the version's place, written by hand with `encode` even when `nil`.
    struct HandWrittenLabel: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var version: String?
        var body: String

        enum CodingKeys: String, CodingKey { case version, body }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(body, forKey: .body)
        }
    }

    /// A part with no version at the place where the document keeps its own.
    struct Unversioned: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var editor: String
    }

    struct PartAtVersionParent: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: Versioned<Unversioned>
    }

    /// Writes itself as a part with no version, where it keeps its own version.
    struct ForwardsToPart: VersionedCodable {
        static let version: Int? = 5
        typealias PreviousVersion = NothingEarlier
        var part: Unversioned
        init(part: Unversioned) { self.part = part }
        init(from decoder: any Decoder) throws { part = try Versioned<Unversioned>(from: decoder).wrappedValue }
        func encode(to encoder: any Encoder) throws { try Versioned(part).encode(to: encoder) }
    }

    @Test("A spec that reads the encoder's userInfo writes what a plain encode of it writes")
    func specSeesUserInfo() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.writer] = "service-7"
        let data = try encoder.encode(versioned: Signed(text: "t"))
        let object = try VersionPlacementTests.object(data)
        #expect(object["writer"] as? String == "service-7")
        #expect(object["version"] as? Int == 3)
        #expect(try JSONDecoder().decode(versioned: Signed.self, from: data) == Signed(text: "t"))
    }

    @Test("A constant that equals the only version is the spec's field, not a place for a mirror")
    func constantEqualToTheOnlyVersion() throws {
        for (_, encode) in VersionPlacementTests.formats {
            // Neither another number nor the spec's own is a mirror of the version there.
            for schema in [3, 7] {
                #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                    try Constant(schema: schema).encodeTransparently(using: encode)
                }
            }
            let data = try Unconstant(name: "n").encodeTransparently(using: encode)
            #expect(try VersionPlacementTests.object(data)["schema"] as? Int == 7)
            #expect(try VersionPlacementTests.decode(Unconstant.self, data).wrappedValue == Unconstant(name: "n"))
        }
    }

    @Test("Values a type writes where the spec writes are refused, even equal ones; a shared object merges")
    func sameValuesAsTheSpec() throws {
        let same = SameFields(schema: 7, tags: ["a", "b"], producer: .init(name: "tool", build: 42, host: "h"))
        let different = SameFields(schema: 7, tags: ["b"], producer: .init(name: "tool", build: 42, host: "h"))
        for value in [same, different] {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try JSONEncoder().encode(versioned: value)
            }
        }
        // An object the type shares with the spec takes its own keys beside the spec's.
        let hosted = Hosted(producer: .init(host: "h"), body: "b")
        for (_, encode) in VersionPlacementTests.formats {
            let data = try hosted.encodeTransparently(using: encode)
            let producer = try VersionPlacementTests.object(data)["producer"] as? [String: Any]
            #expect(producer?["host"] as? String == "h")
            #expect(producer?["name"] as? String == "tool")
            #expect(try VersionPlacementTests.decode(Hosted.self, data).wrappedValue == hosted)
        }
    }

    @Test("A nil string written with encode where the version goes is a clash, not an unreadable document")
    func nilNonIntegerWrittenByHand() throws {
        for (_, encode) in VersionPlacementTests.formats {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try HandWrittenLabel(version: nil, body: "b").encodeTransparently(using: encode)
            }
        }
    }

    @Test("An optional field that is nil where the spec writes null reads back as nil; one with a value is kept")
    func nilWhereTheSpecWritesNull() throws {
        for (_, encode) in VersionPlacementTests.formats {
            for value in [Noted(note: nil, body: "b"), Noted(note: "kept", body: "b")] {
                let data = try value.encodeTransparently(using: encode)
                #expect(try VersionPlacementTests.decode(Noted.self, data).wrappedValue == value)
            }
        }
        // The spec's own reader finds the `null` it wrote.
        let object = try VersionPlacementTests.object(try JSONEncoder().encode(versioned: Noted(note: nil, body: "b")))
        #expect(object["note"] is NSNull)
    }

    /// The `nil` version of a chain whose spec keeps the version at `_metadata.version`, with a
    /// `_metadata` of its own that has a field there.
    struct Unnumbered: VersionedCodable, Equatable {
        struct Metadata: Codable, Equatable { var version: Int?; var by: String }
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: Metadata
        var body: String
    }

    struct Numbered: VersionedCodable, Equatable {
        static let version: Int? = 7
        typealias PreviousVersion = Unnumbered
        typealias VersionSpec = MetadataVersionSpec
        var body: String
        init(body: String) { self.body = body }
        init(from old: Unnumbered) { body = "migrated: " + old.body }
    }

    /// The same, with a string where the version goes.
    struct LabelledUnnumbered: VersionedCodable {
        struct Metadata: Codable { var version: String?; var by: String }
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var _metadata: Metadata
    }

    struct OptionalUnnumbered: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = OptionalMetadataSpec
        var _metadata: Unnumbered.Metadata?
        var body: String
    }

    struct OptionalNumbered: VersionedCodable, Equatable {
        static let version: Int? = 7
        typealias PreviousVersion = OptionalUnnumbered
        typealias VersionSpec = OptionalMetadataSpec
        var body: String
        init(body: String) { self.body = body }
        init(from old: OptionalUnnumbered) { body = "migrated: " + old.body }
    }

    @Test("The nil version's own object where a custom spec writes none or null is followed to the version's place")
    func nilVersionWhereTheSpecWritesNoObject() throws {
        for writesNull in [false, true] {
            let encoder = JSONEncoder()
            encoder.userInfo[OptionalMetadataSpec.writesNull] = writesNull
            for metadata in [Unnumbered.Metadata(version: 7, by: "x"), nil] {
                let data = try encoder.encode(versioned: OptionalUnnumbered(_metadata: metadata, body: "b"))
                let read = try JSONDecoder().decodeWithStoredVersion(OptionalNumbered.self, from: data)
                #expect(read.storedVersion == nil)
                #expect(read.wrappedValue == OptionalNumbered(body: "migrated: b"))
                let object = try VersionPlacementTests.object(data)
                if let metadata {
                    #expect((object["_metadata"] as? [String: Any])?["by"] as? String == metadata.by)
                } else {
                    #expect(writesNull ? object["_metadata"] is NSNull : object["_metadata"] == nil)
                }
            }
        }
    }

    @Test("The nil version's integer where a custom spec keeps the version is a mirror, never read back as one")
    func nilVersionUnderCustomSpec() throws {
        let value = Unnumbered(_metadata: .init(version: 7, by: "x"), body: "b")
        for (_, encode) in VersionPlacementTests.formats {
            let data = try value.encodeTransparently(using: encode)
            let read = try VersionPlacementTests.decode(Numbered.self, data)
            #expect(read.storedVersion == nil)
            #expect(read.wrappedValue == Numbered(body: "migrated: b"))
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try LabelledUnnumbered(_metadata: .init(version: "v7", by: "x")).encodeTransparently(using: encode)
            }
        }
    }

    /// Keeps the version as a string at `_metadata.version`, and writes nothing there for `nil`.
    struct StringVersionSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        struct Metadata: Codable { var version: String? }
        var _metadata: Metadata
        var version: Int? { _metadata.version.flatMap { Int($0) } }
        init(withVersion version: Int?) { _metadata = Metadata(version: version.map { String($0) }) }
    }

    struct StringUnnumbered: VersionedCodable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = StringVersionSpec
        struct Metadata: Codable {
            var version: String?
            var by: String
        }
        var _metadata: Metadata
        var body: String
    }

    struct StringNumbered: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = StringUnnumbered
        typealias VersionSpec = StringVersionSpec
        var body: String
        var pages: Int?
        init(body: String, pages: Int?) {
            self.body = body
            self.pages = pages
        }
        init(from old: StringUnnumbered) {
            body = "migrated: " + old.body
            pages = nil
        }
    }

    @Test(
        "The nil version's own value where a custom spec keeps the version as a string is a clash, never read back as it"
    )
    func nilVersionWhereTheSpecWritesAString() throws {
        let clashing = StringUnnumbered(_metadata: .init(version: "2", by: "x"), body: "b")
        let own = StringUnnumbered(_metadata: .init(version: nil, by: "x"), body: "b")
        for (_, encode) in VersionPlacementTests.formats {
            // Written, it would read back as version 2 without its migration.
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try clashing.encodeTransparently(using: encode)
            }
            let read = try VersionPlacementTests.decode(StringNumbered.self, try own.encodeTransparently(using: encode))
            #expect(read.storedVersion == nil)
            #expect(read.wrappedValue == StringNumbered(body: "migrated: b", pages: nil))
        }
    }

    /// Writes the `nil` version, and throws when asked to write any other.
    struct NilOnlySpec: VersionPathSpec {
        struct Refused: Error {}
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        init(withVersion version: Int?) { self.version = version }
        func encode(to encoder: any Encoder) throws {
            guard version == nil else { throw Refused() }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeNil(forKey: .version)
        }
    }

    struct NilOnlyUnnumbered: VersionedCodable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NilOnlySpec
        var body: String
    }

    @Test(
        "The nil version of a spec that cannot write another throws the spec's error, as where the version goes is unknown"
    )
    func nilVersionOfASpecThatCannotSayWhereTheVersionGoes() {
        for (_, encode) in VersionPlacementTests.formats {
            // The property-list encoder wraps any error its top-level value throws.
            let error = #expect(throws: (any Error).self) {
                try NilOnlyUnnumbered(body: "b").encodeTransparently(using: encode)
            }
            let underlying = (error as? EncodingError).flatMap {
                if case .invalidValue(_, let context) = $0 { context.underlyingError } else { nil }
            }
            #expect(error is NilOnlySpec.Refused || underlying is NilOnlySpec.Refused)
        }
    }

    @Test("A part with no version where the document keeps its own is a clash")
    func unversionedPartAtVersionPlace() throws {
        let nested = PartAtVersionParent(_metadata: Versioned(Unversioned(editor: "Ada")))
        let root = ForwardsToPart(part: Unversioned(editor: "Ada"))
        for (_, encode) in VersionPlacementTests.formats {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try nested.encodeTransparently(using: encode)
            }
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try root.encodeTransparently(using: encode)
            }
        }
    }
}
