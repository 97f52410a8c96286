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

    @Test("An array-element spec reads back what it writes, and an empty array is no version")
    func arrayElement() async throws {
        let written = try JSONEncoder().encode(versioned: ArrayHeaderNote(text: "x"))
        #expect(try JSONDecoder().decode(versioned: ArrayHeaderNote.self, from: written) == ArrayHeaderNote(text: "x"))
        let longer = Data(#"{"text":"x","headers":[{"version":3},{"version":1}]}"#.utf8)
        #expect(try JSONDecoder().decode(versioned: ArrayHeaderNote.self, from: longer) == ArrayHeaderNote(text: "x"))
        await #expect(processExitsWith: .success) {
            let empty = Data(#"{"text":"x","headers":[]}"#.utf8)
            do {
                _ = try JSONDecoder().decode(versioned: ArrayHeaderNote.self, from: empty)
                exit(1)
            } catch VersionedDecodingError.unsupportedVersion(let tried) {
                guard tried == ArrayHeaderNote.self else { exit(2) }
            }
            guard try JSONDecoder().storedVersion(of: ArrayHeaderNote.self, from: empty) == nil else { exit(3) }
            // A document without the array at all has no version either, as one without a
            // parent object has none.
            let missing = Data(#"{"text":"x"}"#.utf8)
            guard try JSONDecoder().storedVersion(of: ArrayHeaderNote.self, from: missing) == nil else { exit(5) }
            do {
                _ = try JSONDecoder().decode(versioned: ArrayHeaderNote.self, from: missing)
                exit(6)
            } catch VersionedDecodingError.unsupportedVersion(let tried) {
                guard tried == ArrayHeaderNote.self else { exit(7) }
            }
            let plist = try PropertyListSerialization.data(
                fromPropertyList: ["text": "x", "headers": NSArray()] as NSDictionary,
                format: .xml,
                options: 0
            )
            guard (try? PropertyListDecoder().storedVersion(of: ArrayHeaderNote.self, from: plist)) == .some(nil)
            else { exit(4) }
        }
    }

    @Test("A key path into an array inside an array element reads back, and short arrays at any depth are no version")
    func arrayInsideArrayElement() async throws {
        let written = try JSONEncoder().encode(versioned: NestedArrayNote(x: 1))
        #expect(try JSONDecoder().decode(versioned: NestedArrayNote.self, from: written) == NestedArrayNote(x: 1))
        await #expect(processExitsWith: .success) {
            let documents = [
                #"{"items":[{"values":[]}],"x":1}"#, #"{"items":[{"values":[0]}],"x":1}"#,
                #"{"items":[],"x":1}"#, #"{"x":1}"#,
            ]
            for document in documents {
                guard try JSONDecoder().storedVersion(of: NestedArrayNote.self, from: Data(document.utf8)) == nil
                else { exit(1) }
            }
            let longer = Data(#"{"items":[{"values":[7,4,9]},{"values":[]}],"x":2}"#.utf8)
            guard try JSONDecoder().decode(versioned: NestedArrayNote.self, from: longer) == NestedArrayNote(x: 2)
            else { exit(2) }
        }
    }

    @Test("A computed key path over a field that is not a number still reads the version the field holds")
    func computedKeyPath() throws {
        let written = try JSONEncoder().encode(versioned: ComputedVersionNote(text: "x"))
        #expect(String(decoding: written, as: UTF8.self).contains(#""formatVersion":"5""#))
        #expect(
            try JSONDecoder().decode(versioned: ComputedVersionNote.self, from: written)
                == ComputedVersionNote(text: "x")
        )
        let unreadable = Data(#"{"text":"x","formatVersion":"five"}"#.utf8)
        #expect(try JSONDecoder().storedVersion(of: ComputedVersionNote.self, from: unreadable) == nil)
    }
}
