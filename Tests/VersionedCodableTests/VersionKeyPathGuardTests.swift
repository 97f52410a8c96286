import Foundation
import Testing
import VersionedCodable

/// A spec that finds the version through a force unwrap of an optional parent.
struct ForceUnwrappingSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata!.version }

    struct Metadata: Codable {
        var version: Int?
    }
    var _metadata: Metadata?

    init(withVersion version: Int?) {
        _metadata = Metadata(version: version)
    }
}

/// A spec whose parent object is optional, reached by optional chaining.
struct OptionalParentSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata?.version }

    struct Metadata: Codable {
        var version: Int?
    }
    var _metadata: Metadata?

    init(withVersion version: Int?) {
        _metadata = Metadata(version: version)
    }
}

struct OptionalParentNote: VersionedCodable, Equatable {
    static let version: Int? = 6
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = OptionalParentSpec

    var text: String
}

/// A spec that keeps the version in the first element of an array.
struct ArrayElementSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.headers[0].version }

    struct Header: Codable {
        var version: Int?
    }
    var headers: [Header]

    init(withVersion version: Int?) {
        headers = [Header(version: version)]
    }
}

/// A spec that keeps the version in an array inside an array's first element.
struct NestedArraySpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.items[0].values[1] }

    struct Entry: Codable {
        var values: [Int?]
    }
    var items: [Entry]

    init(withVersion version: Int?) {
        items = [Entry(values: [0, version])]
    }
}

struct NestedArrayNote: VersionedCodable, Equatable {
    static let version: Int? = 4
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = NestedArraySpec

    var x: Int
}

/// A spec that reads the version from a string through a computed property.
struct ComputedVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.number }

    var formatVersion: String
    var number: Int? { Int(formatVersion) }

    init(withVersion version: Int?) {
        formatVersion = version.map { String($0) } ?? "none"
    }
}

struct UnwrappedNoteV0: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = ForceUnwrappingSpec

    var text: String
}

struct UnwrappedNote: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = UnwrappedNoteV0
    typealias VersionSpec = ForceUnwrappingSpec

    var text: String
    var migrated = false

    init(text: String, migrated: Bool = false) {
        self.text = text
        self.migrated = migrated
    }

    init(from old: UnwrappedNoteV0) throws {
        self.init(text: old.text, migrated: true)
    }
}

struct ArrayHeaderNote: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = ArrayElementSpec

    var text: String
}

struct ComputedVersionNote: VersionedCodable, Equatable {
    static let version: Int? = 5
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = ComputedVersionSpec

    var text: String
}

/// A key path through a force unwrap or an array subscript would stop the process on a document
/// that lacks what it reads. Each decode runs in a child process, so that a regression fails
/// only its own test.
@Suite("Custom key paths that could trap on a document's data")
struct VersionKeyPathGuardTests {
    @Test("What a force-unwrapping spec writes reads back, and a missing or null parent reads as no version")
    func forceUnwrap() async throws {
        await #expect(processExitsWith: .success) {
            let written = try JSONEncoder().encode(versioned: UnwrappedNote(text: "new"))
            let read = try JSONDecoder().decodeWithStoredVersion(UnwrappedNote.self, from: written)
            guard read.storedVersion == 2, read.wrappedValue == UnwrappedNote(text: "new") else { exit(4) }
            let documents = [
                #"{"text":"old"}"#, #"{"text":"old","_metadata":null}"#, #"{"text":"old","_metadata":{}}"#,
            ]
            for document in documents {
                let note = try JSONDecoder().decode(versioned: UnwrappedNote.self, from: Data(document.utf8))
                guard note == UnwrappedNote(text: "old", migrated: true) else { exit(1) }
            }
            let plist = try PropertyListSerialization.data(
                fromPropertyList: ["text": "old"] as NSDictionary,
                format: .binary,
                options: 0
            )
            guard try PropertyListDecoder().decode(versioned: UnwrappedNote.self, from: plist).migrated else { exit(2) }
            guard try JSONDecoder().storedVersion(of: UnwrappedNote.self, from: Data(#"{"text":"old"}"#.utf8)) == nil
            else { exit(3) }
        }
    }

    @Test("A spec whose parent object is optional reads back the version it writes, in every format")
    func optionalParent() throws {
        let json = try JSONEncoder().encode(versioned: OptionalParentNote(text: "x"))
        #expect(try JSONDecoder().decodeWithStoredVersion(OptionalParentNote.self, from: json).storedVersion == 6)
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let plist = try encoder.encode(versioned: OptionalParentNote(text: "x"))
            let read = try PropertyListDecoder().decodeWithStoredVersion(OptionalParentNote.self, from: plist)
            #expect(read.storedVersion == 6)
            #expect(read.wrappedValue == OptionalParentNote(text: "x"))
        }
    }

    /// The spec's key path is applied to the spec the document holds, as in VersionedCodable
    /// 1.2, but never where it would trap: a spec that lacks an optional's value or an array's
    /// element that the spec the chain writes has holds no version. Each document is read in a
    /// child process, so that a trap fails only this test.
    @Test(
        "Specs that keep the version in an array or as a string read it, and a document that lacks the parts has none"
    )
    func specsThroughArraysAndStrings() async throws {
        await #expect(processExitsWith: .success) {
            let documents: [(String, Int?)] = [
                (#"{"text":"x","headers":[{"version":3}]}"#, 3), (#"{"text":"x","headers":[]}"#, nil),
                (#"{"text":"x"}"#, nil), (#"{"items":[{"values":[0,4]}],"x":1}"#, 4),
                (#"{"items":[{"values":[]}],"x":1}"#, nil), (#"{"items":[],"x":1}"#, nil),
                (#"{"text":"x","formatVersion":"5"}"#, 5), (#"{"text":"x","formatVersion":"five"}"#, nil),
            ]
            for (document, version) in documents {
                let data = Data(document.utf8)
                let read = [
                    try? JSONDecoder().storedVersion(of: ArrayHeaderNote.self, from: data),
                    try? JSONDecoder().storedVersion(of: NestedArrayNote.self, from: data),
                    try? JSONDecoder().storedVersion(of: ComputedVersionNote.self, from: data),
                ]
                guard read.contains(where: { $0 == .some(version) }) else { exit(1) }
                // A document without a version of the chain is refused with the chain's error.
                if version == nil {
                    do {
                        _ = try JSONDecoder().decode(versioned: ArrayHeaderNote.self, from: data)
                        exit(2)
                    } catch VersionedDecodingError.unsupportedVersion {
                    } catch { exit(3) }
                }
            }
        }
        for note in [ArrayHeaderNote(text: "x")] {
            try ArrayHeaderNote.validateVersionChain()
            let data = try JSONEncoder().encode(versioned: note)
            #expect(try JSONDecoder().decodeWithStoredVersion(ArrayHeaderNote.self, from: data).storedVersion == 3)
        }
        try NestedArrayNote.validateVersionChain()
        try ComputedVersionNote.validateVersionChain()
        let computed = try JSONEncoder().encode(versioned: ComputedVersionNote(text: "x"))
        #expect(try JSONDecoder().decode(versioned: ComputedVersionNote.self, from: computed) == .init(text: "x"))
    }

    @Test("A spec that nests its objects past the limit is refused, however deep its key path goes")
    func deepSpec() throws {
        #expect(throws: VersionedDecodingError.self) { try DeepSpecNote.validateVersionChain() }
        #expect(throws: VersionedDecodingError.self) { try JSONEncoder().encode(versioned: DeepSpecNote(text: "t")) }
        #expect(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: DeepSpecNote.self, from: Data(#"{"text":"t"}"#.utf8))
        }
        // Objects opened with `nestedContainer` are held to the same depth.
        #expect(throws: VersionedDecodingError.self) {
            try JSONEncoder().encode(versioned: NestedOpeningNote(text: "t"))
        }
    }
}

/// A spec ten thousand objects deep, as a chain of optional links, with the version at the end.
final class SpecLink: Codable {
    var next: SpecLink?
    var version: Int?
    init(depth: Int, version: Int?) {
        if depth > 1 {
            next = SpecLink(depth: depth - 1, version: version)
        } else {
            self.version = version
        }
    }
}

struct DeepLinkSpec: VersionPathSpec {
    nonisolated(unsafe) static let keyPathToVersion: KeyPath<DeepLinkSpec, Int?> = {
        var path: KeyPath<DeepLinkSpec, SpecLink> = \DeepLinkSpec.head
        for _ in 1..<10_000 {
            path = path.appending(path: \SpecLink.next!)
        }
        return path.appending(path: \SpecLink.version)
    }()
    var head: SpecLink
    init(withVersion version: Int?) { head = SpecLink(depth: 10_000, version: version) }
}

struct DeepSpecNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = DeepLinkSpec
    var text: String
}

/// A spec that writes the version at the root and opens empty objects 600 deep beside it with
/// `nestedContainer`.
struct NestedOpeningSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
    var version: Int?
    enum CodingKeys: String, CodingKey { case version, deep }
    init(withVersion version: Int?) { self.version = version }
    init(from decoder: any Decoder) throws {
        version = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .version)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        for _ in 0..<600 {
            container = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .deep)
        }
    }
}

struct NestedOpeningNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = NestedOpeningSpec
    var text: String
}

/// A spec whose version sits behind stored properties of several sizes, two structs deep: read
/// where its stored properties put it.
struct OffsetVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header.inner.version }

    struct Inner: Codable {
        var flag = true
        var label = "inner"
        var small: UInt8 = 7
        var version: Int?
        var after: Int? = -1
    }
    struct Header: Codable {
        var kind = "note"
        var count: Int16 = 3
        var inner: Inner
    }
    var format = "offsets"
    var header: Header

    init(withVersion version: Int?) {
        header = Header(inner: Inner(version: version))
    }
}

/// A spec whose key path goes through a class, where the version is not stored in the spec's
/// value itself.
struct ClassHopSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header.version }

    final class Header: Codable {
        var version: Int?
        init(version: Int?) { self.version = version }
    }
    var header: Header

    init(withVersion version: Int?) {
        header = Header(version: version)
    }
}

struct OffsetNoteV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = ClassHopSpec
    var text: String
}

struct OffsetNote: VersionedCodable, Equatable {
    static let version: Int? = 300
    typealias PreviousVersion = OffsetNoteV1
    typealias VersionSpec = OffsetVersionSpec
    var text: String
    var from = 300

    init(text: String, from: Int = 300) {
        self.text = text
        self.from = from
    }

    init(from old: OffsetNoteV1) {
        self.init(text: old.text, from: 1)
    }
}

@Suite("Specs read the version where their key paths point")
struct VersionOffsetTests {
    @Test("A version behind stored properties of several sizes, and one behind a class, read back")
    func storedAndClassPaths() throws {
        let newest = try JSONEncoder().encode(versioned: OffsetNote(text: "a"))
        let read = try JSONDecoder().decodeWithStoredVersion(OffsetNote.self, from: newest)
        #expect(read.storedVersion == 300)
        #expect(read.wrappedValue == OffsetNote(text: "a"))
        // Another version in the same place (a newer one: version 1 keeps its own elsewhere), and
        // the fields beside it changed, read as written.
        let other =
            #"{"format":"x","header":{"kind":"k","count":-9,"#
            + #""inner":{"flag":false,"label":"l","small":255,"version":301,"after":42}},"text":"b"}"#
        #expect(try JSONDecoder().storedVersion(of: OffsetNote.self, from: Data(other.utf8)) == 301)
        let none =
            #"{"format":"x","header":{"kind":"k","count":1,"#
            + #""inner":{"flag":true,"label":"","small":0,"after":5}},"text":"c"}"#
        #expect(try JSONDecoder().storedVersion(of: OffsetNote.self, from: Data(none.utf8)) == nil)
        // The older version keeps it through a class, read by its own spec.
        let oldest = try JSONEncoder().encode(versioned: OffsetNoteV1(text: "d"))
        let migrated = try JSONDecoder().decodeWithStoredVersion(OffsetNote.self, from: oldest)
        #expect(migrated.storedVersion == 1)
        #expect(migrated.wrappedValue == OffsetNote(text: "d", from: 1))
        #expect(MemoryLayout<OffsetVersionSpec>.offset(of: OffsetVersionSpec.keyPathToVersion) ?? 0 > 0)
        #expect(MemoryLayout<ClassHopSpec>.offset(of: ClassHopSpec.keyPathToVersion) == nil)
    }
}

/// A spec that writes a name beside the version, in an optional object, and reads the version by
/// optional chaining: a document may lack the name and still hold the version.
struct NamedMetadataSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata?.version }

    struct Metadata: Codable {
        var version: Int?
        var app: String?
    }
    var _metadata: Metadata?

    init(withVersion version: Int?) {
        _metadata = Metadata(version: version, app: "notes")
    }
}

struct NamedNoteV0: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = NamedMetadataSpec
    var text: String
}

struct NamedNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NamedNoteV0
    typealias VersionSpec = NamedMetadataSpec
    var text: String
    var stars: Int

    init(text: String, stars: Int) {
        self.text = text
        self.stars = stars
    }

    init(from old: NamedNoteV0) throws {
        self.init(text: old.text, stars: 0)
    }
}

/// A spec that keeps the version in a dictionary's entry, reached by a force unwrap.
struct DictionaryEntrySpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.meta["m"]!.version }

    struct Meta: Codable {
        var version: Int?
    }
    var meta: [String: Meta]

    init(withVersion version: Int?) {
        meta = ["m": Meta(version: version)]
    }
}

struct DictionaryEntryNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = DictionaryEntrySpec
    var name: String
}

/// A spec that keeps the version in one case of an enum, reached by a force unwrap of a
/// computed property.
struct EnumCaseSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.kind.stamp!.version }

    struct Stamp: Codable {
        var version: Int?
    }
    enum Kind: Codable {
        case plain
        case stamped(Stamp)

        var stamp: Stamp? {
            if case .stamped(let stamp) = self {
                return stamp
            }
            return nil
        }
    }
    var kind: Kind

    init(withVersion version: Int?) {
        kind = .stamped(Stamp(version: version))
    }
}

struct EnumCaseNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = EnumCaseSpec
    var name: String
}

/// A spec whose version is a stored property of a superclass, reached by a force unwrap, beside a
/// label that also changes with the version.
struct InheritedVersionSpec: VersionPathSpec {
    class Stamp: Codable {
        var version: Int?
        init(version: Int?) { self.version = version }
    }
    final class NamedStamp: Stamp {}

    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.stamp!.version }
    var stamp: NamedStamp?
    var label: String

    init(withVersion version: Int?) {
        stamp = NamedStamp(version: version)
        label = "v\(version ?? 0)"
    }
}

struct InheritedVersionNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = InheritedVersionSpec
    var name: String
}

/// Only the parts of a spec on the way to the version decide whether a document holds one.
@Suite("Only the parts on the way to the version decide whether a key path is applied")
struct VersionKeyPathWayTests {
    @Test("A document that lacks a name the spec writes beside the version still holds the version")
    func partBesideTheVersion() throws {
        let document = Data(#"{"_metadata":{"version":1},"text":"hello","stars":5}"#.utf8)
        #expect(try JSONDecoder().storedVersion(of: NamedNote.self, from: document) == 1)
        let read = try JSONDecoder().decodeWithStoredVersion(NamedNote.self, from: document)
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == NamedNote(text: "hello", stars: 5))
        // A document without the object has no version, and is migrated from the first version.
        let old = Data(#"{"text":"hello"}"#.utf8)
        #expect(try JSONDecoder().decode(versioned: NamedNote.self, from: old) == NamedNote(text: "hello", stars: 0))
        // What the spec writes reads back.
        let written = try JSONEncoder().encode(versioned: NamedNote(text: "a", stars: 2))
        #expect(try JSONDecoder().decodeWithStoredVersion(NamedNote.self, from: written).storedVersion == 1)
    }

    @Test("A key path through a dictionary's missing entry or another enum case reads no version, and never traps")
    func dictionaryEntriesAndEnumCases() async throws {
        await #expect(processExitsWith: .success) {
            let entries = [#"{"meta":{},"name":"x"}"#, #"{"meta":{"n":{"version":1}},"name":"x"}"#]
            for document in entries {
                let data = Data(document.utf8)
                guard try JSONDecoder().storedVersion(of: DictionaryEntryNote.self, from: data) == nil else { exit(1) }
            }
            // The version in a superclass's property is on the way too.
            let inherited = Data(#"{"label":"v1","name":"x"}"#.utf8)
            guard try JSONDecoder().storedVersion(of: InheritedVersionNote.self, from: inherited) == nil else {
                exit(5)
            }
            let cases = [#"{"kind":{"plain":{}},"name":"x"}"#]
            for document in cases {
                let data = Data(document.utf8)
                guard try JSONDecoder().storedVersion(of: EnumCaseNote.self, from: data) == nil else { exit(2) }
            }
            let entry = try JSONEncoder().encode(versioned: DictionaryEntryNote(name: "x"))
            guard try JSONDecoder().decode(versioned: DictionaryEntryNote.self, from: entry) == .init(name: "x")
            else { exit(3) }
            let stamped = try JSONEncoder().encode(versioned: EnumCaseNote(name: "y"))
            guard try JSONDecoder().storedVersion(of: EnumCaseNote.self, from: stamped) == 1 else { exit(4) }
        }
    }
}
