import Foundation
import Testing
import VersionedCodable

// Old and new builds of one type side by side. The old build's newest version is `ChoreV2`;
// the new build adds `Chore` (version 3). A build reads through the newest type it has, so
// `Versioned<ChoreV2>` is how the old build reads, and `Versioned<Chore>` how the new one does.

struct ChoreV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var title: String
}

// snippet: compatible-version
/// Version 2 renamed `title` to `name`: older builds cannot read it.
struct ChoreV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = ChoreV1

    var name: String
    var done: Bool

    init(name: String, done: Bool) {
        self.name = name
        self.done = done
    }

    init(from old: ChoreV1) {
        self.init(name: old.title, done: false)
    }
}

/// Version 3 only adds a field, so builds that know version 2 may read and write its
/// documents: they keep `due` without reading it.
struct Chore: VersionedCodable, Equatable {
    static let version: Int? = 3
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = ChoreV2

    var name: String
    var done: Bool
    var due: String?

    init(name: String, done: Bool, due: String?) {
        self.name = name
        self.done = done
        self.due = due
    }

    init(from old: ChoreV2) {
        self.init(name: old.name, done: old.done, due: nil)
    }

    func downgraded() -> ChoreV2 {
        ChoreV2(name: name, done: done)
    }
}
// end snippet

// snippet: read-only-version
/// Version 3, if it had changed what `done` means: older builds may read, not write.
struct StrictChore: VersionedCodable, Equatable {
    static let version: Int? = 3
    static let compatibility = ForwardCompatibility.readOnlyCompatible
    typealias PreviousVersion = ChoreV2
    var name: String
    var done: Bool
    var checkedBy: String
    init(from old: ChoreV2) {
        name = old.name
        done = old.done
        checkedBy = ""
    }
    init(name: String, done: Bool, checkedBy: String) {
        self.name = name
        self.done = done
        self.checkedBy = checkedBy
    }
}
// end snippet

/// Version 4 over the read-only version 3: compatible with 3, so builds of 3 may write it, and
/// builds of 2 may only read it.
struct LaterChore: VersionedCodable, Equatable {
    static let version: Int? = 4
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = StrictChore
    var name: String
    var done: Bool
    var checkedBy: String
    var tags: [String]
    init(from old: StrictChore) {
        name = old.name
        done = old.done
        checkedBy = old.checkedBy
        tags = []
    }
    init(name: String, done: Bool, checkedBy: String, tags: [String]) {
        self.name = name
        self.done = done
        self.checkedBy = checkedBy
        self.tags = tags
    }
}

/// Version 3 with the version in `_metadata`, beside the type's own field there.
struct FiledChoreV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec
    struct Metadata: Codable, Equatable { var editor: String }
    var _metadata: Metadata
    var name: String
}

struct FiledChore: VersionedCodable, Equatable {
    static let version: Int? = 3
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = FiledChoreV2
    typealias VersionSpec = MetadataVersionSpec
    var _metadata: FiledChoreV2.Metadata
    var name: String
    var priority: Int
    init(from old: FiledChoreV2) {
        _metadata = old._metadata
        name = old.name
        priority = 0
    }
    init(_metadata: FiledChoreV2.Metadata, name: String, priority: Int) {
        self._metadata = _metadata
        self.name = name
        self.priority = priority
    }
}

/// A list whose tasks are versioned parts of their own, in the old and the new build.
struct Board<Item: VersionedCodable & Equatable>: Codable, Equatable {
    var title: String
    var tasks: [Versioned<Item>]
}

@Suite("Old and new builds side by side")
struct OldAndNewBuildsTests {
    static var formats: [(name: String, encode: VersionPlacementTests.Encode)] { VersionPlacementTests.formats }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        if (try? JSONSerialization.jsonObject(with: data)) != nil {
            return try JSONDecoder().decode(type, from: data)
        }
        return try PropertyListDecoder().decode(type, from: data)
    }

    @Test(
        "A compatible version records who may read and write it, and an old build edits it keeping what it does not know"
    )
    func oldBuildEditsNewerDocument() throws {
        // snippet: old-build-edits
        // The new build writes version 3; the document says builds of version 2 may read and
        // write it.
        let written = try JSONEncoder().encode(versioned: Chore(name: "Pay rent", done: false, due: "friday"))

        // The old build reads it through `Versioned`, as the newest version it knows.
        var read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: written)
        // read.storedVersion == 3, read.isFromNewerVersion == true
        read.wrappedValue.done = true

        // Writing it back keeps `due`, and the document's version and declaration.
        let edited = try JSONEncoder().encode(read)
        let task = try JSONDecoder().decode(versioned: Chore.self, from: edited)
        // task == Chore(name: "Pay rent", done: true, due: "friday")
        // end snippet
        #expect(read.storedVersion == 3)
        #expect(read.isFromNewerVersion)
        #expect(!read.wasMigrated)
        #expect(read.wrappedValue == ChoreV2(name: "Pay rent", done: true))
        #expect(task == Chore(name: "Pay rent", done: true, due: "friday"))
        let object = try VersionPlacementTests.object(written)
        #expect(object["version"] as? Int == 3)
        #expect(object["versionReadableFrom"] as? Int == 2)
        #expect(object["versionWritableFrom"] as? Int == 2)
        let editedObject = try VersionPlacementTests.object(edited)
        #expect(editedObject["version"] as? Int == 3)
        #expect(editedObject["versionReadableFrom"] as? Int == 2)
        #expect(editedObject["due"] as? String == "friday")
    }

    @Test(
        "Old builds read and write newer documents in every format",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func everyFormat(format: String) throws {
        let encode = try #require(Self.formats.first { $0.name == format }).encode
        let written = try Chore(name: "a", done: false, due: "d").encodeTransparently(using: encode)
        var read = try Self.decode(Versioned<ChoreV2>.self, written)
        read.wrappedValue.name = "b"
        let back = try encode(read)
        #expect(try Self.decode(Versioned<Chore>.self, back).wrappedValue == Chore(name: "b", done: false, due: "d"))
    }

    @Test("Fields an old build does not know come back as they were, whatever kind of value they hold")
    func keptValuesOfEveryKind() throws {
        let kept = [
            #""big":18446744073709551615"#, #""least":-9223372036854775808"#, #""tenth":0.1"#,
            #""tiny":1.7976931348623157e-100"#, #""text":"a \"quoted\" é""#, #""none":null"#,
            #""flag":true"#, #""empty":{}"#, #""list":[1,"two",null,{"x":[[]]}]"#,
            #""pi":3.14159265358979323846"#, #""beyond":123456789012345678901234567890"#,
            #""half":9007199254740993.5"#,
        ]
        let document = Data(
            (#"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"a","done":false,"#
                + kept.joined(separator: ",") + "}").utf8
        )
        let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: document)
        #expect(read.isFromNewerVersion)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let back = String(decoding: try encoder.encode(read), as: UTF8.self)
        for field in kept {
            #expect(back.contains(field), "\(field) in \(back)")
        }
    }

    @Test(
        "A kept number that no Decimal holds whole reads back as plain Double and Decimal fields read it",
        arguments: [
            "123456789012345678901234567890123456789012345", "0.12345678901234567890123456789012345678901234",
            "1e-400", "-98765432109876543210987654321098765432109876e-3",
        ]
    )
    func keptNumbersBeyondWhatTheCoderReads(number: String) throws {
        let document = #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","done":true,"#
        let data = Data((document + #""reading":\#(number)}"#).utf8)
        do {
            let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: data)
            let back = try JSONEncoder().encode(read)
            _ = try #require(try plainDoubleField(number), "\(number) was kept where a Double field refuses it")
            let original = plainNumberFields(at: "reading", of: data)
            #expect(plainNumberFields(at: "reading", of: back) == original, "\(number)")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.map(\.stringValue) == ["reading"])
            #expect(context.debugDescription.hasPrefix("reading, a field this build does not know"))
        }
    }

    @Test("Kept numbers with up to 37 digits come back exactly")
    func keptNumbersWithinWhatTheCoderReads() throws {
        let numbers = [
            "1234567890123456789012345678901234567", "-0.1234567890123456789012345678901234567",
            "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1.5e-120", "0.5", "-7",
        ]
        let kept = numbers.enumerated().map { #""n\#($0.offset)":\#($0.element)"# }
        let document = #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","done":true,"#
        let read = try JSONDecoder().decode(
            Versioned<ChoreV2>.self,
            from: Data((document + kept.joined(separator: ",") + "}").utf8)
        )
        let back = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
        for field in kept {
            #expect(back.contains(field), "\(field) in \(back)")
        }
    }

    /// A version-3 chore as a newer build might write it, with fields no build here knows.
    struct ChoreWithNumbers: Codable, Equatable {
        var version = 3
        var versionReadableFrom = 2
        var versionWritableFrom = 2
        var name = "a"
        var done = false
        var big = UInt64.max
        var least = Int64.min
        var leastButOne = Int64.min + 1  // a Double rounds it to Int64.min
        var ratio = 0.1
        var when = Date(timeIntervalSinceReferenceDate: 123)  // XML property lists keep whole seconds
        var blob = Data([0, 1, 254, 255])
        var scores = ["a": 1.5, "b": -2]
        var nothing: [Int] = []
    }

    @Test(
        "Kept numbers at the ends of their types come back exact in every format",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func keptNumbersInEveryFormat(format: String) throws {
        let encode = try #require(Self.formats.first { $0.name == format }).encode
        var read = try Self.decode(Versioned<ChoreV2>.self, try encode(ChoreWithNumbers()))
        read.wrappedValue.done = true
        var expected = ChoreWithNumbers()
        expected.done = true
        let written = try encode(read)
        #expect(try Self.decode(ChoreWithNumbers.self, written) == expected)
        if format == "xml plist" {
            // Integers stay integers, the least of them too.
            #expect(String(decoding: written, as: UTF8.self).contains("<integer>-9223372036854775808</integer>"))
        }
    }

    @Test("Under key strategies, kept fields keep their nested keys and never replace the version")
    func keptFieldsUnderKeyStrategies() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let document = #"""
            {"version":3,"version_readable_from":2,"version_writable_from":2,"name":"n","done":true,
            "Version":1,"scores":{"Big_Key":1,"a__b":3,"snake_case":4,"snakeCase":5}}
            """#
        let read = try decoder.decode(Versioned<ChoreV2>.self, from: Data(document.utf8))
        let object = try VersionPlacementTests.object(try encoder.encode(read))
        #expect(object["version"] as? Int == 3)
        #expect(object["version_readable_from"] as? Int == 2)
        let scores = try #require(object["scores"] as? [String: Int])
        #expect(scores == ["Big_Key": 1, "a__b": 3, "snake_case": 4, "snakeCase": 5])
    }

    struct MovedDocV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = MovedDocV1
        typealias VersionSpec = MetadataVersionSpec
        var a: Int
        init(from old: MovedDocV1) { a = old.a }
    }

    struct MovedDocV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var a: Int
    }

    @Test("A newer document is read only where this build's own spec keeps the version")
    func newerDocumentAtAnotherSpecsPlace() throws {
        for document in [
            #"{"version":3,"_metadata":{"versionReadableFrom":2,"versionWritableFrom":2},"a":5}"#,
            // The declaration beside the version, where the older version's spec reads it.
            #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"a":5}"#,
        ] {
            #expect(throws: VersionedDecodingError.self) {
                try JSONDecoder().decode(Versioned<MovedDocV2>.self, from: Data(document.utf8))
            }
        }
    }

    @Test("A root dictionary read from a newer document is written back as edited")
    func rootDictionaryEditsOfNewerDocument() throws {
        let document = #"{"version":4,"versionReadableFrom":3,"versionWritableFrom":3,"a":1,"b":2}"#
        var read = try JSONDecoder().decode(Versioned<CountsV2>.self, from: Data(document.utf8))
        #expect(read.isFromNewerVersion)
        read.wrappedValue.counts["a"] = 100
        read.wrappedValue.counts["b"] = nil
        let object = try VersionPlacementTests.object(try JSONEncoder().encode(read))
        #expect(object["a"] as? Int == 100)
        #expect(object["b"] == nil)
        #expect(object["version"] as? Int == 4)
    }

    @Test("A type that forwards its root to another keeps a newer document's fields, as the other reads them")
    func forwardedRootKeepsNewerFields() throws {
        typealias Forwarding = WritingRulesTests.Wrapper<WritingRulesTests.OptionalMetadata>
        let document = #"{"_metadata":{"version":3,"versionReadableFrom":2,"versionWritableFrom":2},"name":"n","x":1}"#
        var read = try JSONDecoder().decode(Versioned<Forwarding>.self, from: Data(document.utf8))
        #expect(read.isFromNewerVersion)
        #expect(read.wrappedValue.inner == .init(name: "n", _metadata: nil))
        read.wrappedValue.inner.name = "edited"
        let object = try VersionPlacementTests.object(try JSONEncoder().encode(read))
        #expect(object["name"] as? String == "edited")
        #expect(object["x"] as? Int == 1)
        let metadata = try #require(object["_metadata"] as? [String: Any])
        #expect(metadata["version"] as? Int == 3)
        #expect(metadata["versionReadableFrom"] as? Int == 2)
        let current = #"{"_metadata":{"version":2},"name":"n"}"#
        #expect(try JSONDecoder().decode(versioned: Forwarding.self, from: Data(current.utf8)).inner.name == "n")
    }

    /// Reads a legacy form of its root if there is one, and its keys otherwise.
    struct FallingBack: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var name: String
        init(name: String) { self.name = name }
        enum CodingKeys: String, CodingKey { case name }
        init(from decoder: any Decoder) throws {
            if let legacy = try? decoder.singleValueContainer().decode([String].self) {
                name = legacy.joined()
                return
            }
            if let counts = try? decoder.singleValueContainer().decode([String: [Int]].self) {
                name = counts.keys.joined()
                return
            }
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        }
    }

    /// Reads an older field, `legacy`, into `name` by `method`, and writes only `name`.
    struct Renaming<Spec: VersionPathSpec>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = Spec
        struct Legacy: Codable, Equatable { var first: String }
        enum CodingKeys: String, CodingKey { case legacy, name, first }
        var name: String

        init(from decoder: any Decoder) throws {
            let method = decoder.userInfo[OldAndNewBuildsTests.methodKey] as? OldAndNewBuildsTests.Method ?? .decode
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch method {
            case .decode:
                name = try container.decode(Legacy.self, forKey: .legacy).first
            case .decodeIfPresent:
                name = try container.decodeIfPresent(Legacy.self, forKey: .legacy)?.first ?? ""
            case .nestedContainer:
                name = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .legacy)
                    .decode(String.self, forKey: .first)
            case .superDecoder:
                name = try Legacy(from: container.superDecoder(forKey: .legacy)).first
            case .keylessSuperDecoder:
                name = try Legacy(from: container.superDecoder()).first
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
        }
    }

    static let methodKey = CodingUserInfoKey(rawValue: "OldAndNewBuildsTests.method")!
    enum Method: CaseIterable, Sendable {
        case decode, decodeIfPresent, nestedContainer, superDecoder
        /// `superDecoder()`, which reads the key `super`.
        case keylessSuperDecoder

        var key: String { self == .keylessSuperDecoder ? "super" : "legacy" }
    }

    @Test(
        "A field an old build reads but does not write is not written back, however it was read",
        arguments: Method.allCases,
        [false, true]
    )
    func readFieldsAreNotKept(method: Method, metadataSpec: Bool) throws {
        let version =
            metadataSpec
            ? #""_metadata":{"version":3,"versionReadableFrom":2,"versionWritableFrom":2}"#
            : #""version":3,"versionReadableFrom":2,"versionWritableFrom":2"#
        let document = "{\(version),\"\(method.key)\":{\"first\":\"Ada\"},\"extra\":{\"first\":\"kept\"}}"
        let decoder = JSONDecoder()
        decoder.userInfo[Self.methodKey] = method
        /// The name the old build read, and the document it writes back.
        func roundTrip<Spec: VersionPathSpec>(_: Spec.Type) throws -> (String, Data) {
            let read = try decoder.decode(Versioned<Renaming<Spec>>.self, from: Data(document.utf8))
            #expect(read.isFromNewerVersion)
            return (read.wrappedValue.name, try JSONEncoder().encode(read))
        }
        let (name, written) =
            metadataSpec
            ? try roundTrip(MetadataVersionSpec.self) : try roundTrip(VersionKeyAtRootVersionPathSpec.self)
        #expect(name == "Ada")
        let object = try VersionPlacementTests.object(written)
        #expect(object["name"] as? String == "Ada")
        #expect(object[method.key] == nil, "read, so not kept: \(object)")
        #expect((object["extra"] as? [String: Any])?["first"] as? String == "kept")
        let versionObject = metadataSpec ? object["_metadata"] as? [String: Any] : object
        #expect(versionObject?["version"] as? Int == 3)
    }

    @Test("A type that tries another form of its root and falls back to its keys keeps a newer document's fields")
    func fallbackReaderKeepsFields() throws {
        let document = #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","extra":1}"#
        var read = try JSONDecoder().decode(Versioned<FallingBack>.self, from: Data(document.utf8))
        read.wrappedValue.name = "edited"
        let object = try VersionPlacementTests.object(try JSONEncoder().encode(read))
        #expect(object["name"] as? String == "edited")
        #expect(object["extra"] as? Int == 1)
        #expect(object["version"] as? Int == 3)
    }

    @Test("A kept value nested past the limit, or one no kind of value holds, is a clear error")
    func keptValuesThatCannotBeKept() throws {
        let deep = String(repeating: #"{"a":"#, count: 300) + "1" + String(repeating: "}", count: 300)
        let document = #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","done":true,"x":"#
        do {
            _ = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: Data((document + deep + "}").utf8))
            Issue.record("a kept value nested 300 deep was read")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("deep"))
        }
        do {
            _ = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: Data((document + "1e400}").utf8))
            Issue.record("a number no type holds was read")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("cannot keep"))
        }
        // Beyond a Decimal's exponents JSONDecoder gives only a Double: kept as a Double field
        // keeps it, which writes back every number a Swift build writes.
        for number in ["1.7976931348623157e+308", "1.5e-130", "5e-324", "1.0000000000000000001e200"] {
            let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: Data((document + number + "}").utf8))
            let back = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
            #expect(back.contains(#""x":\#(try #require(try plainDoubleField(number)))"#), "\(back)")
        }
    }

    /// Writes a label beside the version, the same for every version in this build.
    struct LabelSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var format: String
        var version: Int?
        init(withVersion version: Int?) {
            format = "note"
            self.version = version
        }
    }

    struct LabelledNote: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = LabelSpec
        var name: String
    }

    @Test("A newer document whose spec part this build's spec writes otherwise is only read")
    func newerSpecPartThisBuildWritesOtherwise() throws {
        // A newer build's spec labels its version 3 `note-v3`: writing the document back would
        // replace the label with this build's `note`.
        let relabelled =
            #"{"format":"note-v3","version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","x":1}"#
        let read = try JSONDecoder().decode(Versioned<LabelledNote>.self, from: Data(relabelled.utf8))
        #expect(read.isFromNewerVersion)
        #expect(read.wrappedValue == LabelledNote(name: "n"))
        #expect(throws: VersionedEncodingError.cannotWriteNewerDocument(storedVersion: 3, writableFrom: 3)) {
            try JSONEncoder().encode(read)
        }
        // With the label this build writes, the document is written back whole.
        let same = #"{"format":"note","version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","x":1}"#
        var edited = try JSONDecoder().decode(Versioned<LabelledNote>.self, from: Data(same.utf8))
        edited.wrappedValue.name = "m"
        let object = try VersionPlacementTests.object(try JSONEncoder().encode(edited))
        #expect(object["format"] as? String == "note")
        #expect(object["version"] as? Int == 3)
        #expect(object["x"] as? Int == 1)
        #expect(object["name"] as? String == "m")
    }

    @Test("The bare decode, decodeWithStoredVersion and decodeTransparently keep refusing a newer document")
    func bareDecodeRefuses() throws {
        let written = try JSONEncoder().encode(versioned: Chore(name: "a", done: false, due: nil))
        for decode in [
            { _ = try JSONDecoder().decode(versioned: ChoreV2.self, from: written) },
            { _ = try JSONDecoder().decodeWithStoredVersion(ChoreV2.self, from: written) },
            {
                let _: ChoreV2 = try ChoreV2.decodeTransparently(from: written) {
                    try JSONDecoder().decode($0, from: $1)
                }
            },
        ] as [() throws -> Void] {
            #expect {
                try decode()
            } throws: { error in
                guard case VersionedDecodingError.documentVersionTooNew(found: 3, _) = error else { return false }
                return true
            }
        }
    }

    @Test(
        "An incompatible version stays unreadable to old builds, and versions that declare nothing are written as before"
    )
    func incompatibleAndUndeclared() throws {
        let v2 = try JSONEncoder().encode(versioned: ChoreV2(name: "a", done: false))
        #expect(Set(try VersionPlacementTests.object(v2).keys) == ["version", "name", "done"])
        #expect {
            try JSONDecoder().decode(Versioned<ChoreV1>.self, from: v2)
        } throws: { error in
            guard case VersionedDecodingError.documentVersionTooNew(found: 2, _) = error else { return false }
            return true
        }
        // An older version written for old readers declares what its own type declares.
        let asV2 = try JSONEncoder().encode(versioned: Chore(name: "a", done: false, due: "d"), asVersion: 2)
        #expect(asV2.count == v2.count)
    }

    @Test("A read-only compatible document is read by an old build, which cannot write it back")
    func readOnlyCompatible() throws {
        let written = try JSONEncoder().encode(versioned: StrictChore(name: "a", done: true, checkedBy: "Ada"))
        let object = try VersionPlacementTests.object(written)
        #expect(object["versionReadableFrom"] as? Int == 2)
        #expect(object["versionWritableFrom"] == nil)
        // snippet: read-only-read
        // The old build reads a read-only compatible document, and may show it...
        let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: written)
        // ...but writing it back throws cannotWriteNewerDocument(storedVersion: 3, writableFrom: 3).
        // end snippet
        #expect(read.wrappedValue == ChoreV2(name: "a", done: true))
        #expect(throws: VersionedEncodingError.cannotWriteNewerDocument(storedVersion: 3, writableFrom: 3)) {
            try JSONEncoder().encode(read)
        }
    }

    @Test("Declarations follow the chain: builds of 3 may write version 4, builds of 2 only read it")
    func transitiveDeclarations() throws {
        let written = try JSONEncoder().encode(
            versioned: LaterChore(name: "a", done: true, checkedBy: "Ada", tags: ["x"])
        )
        let object = try VersionPlacementTests.object(written)
        #expect(object["versionReadableFrom"] as? Int == 2)
        #expect(object["versionWritableFrom"] as? Int == 3)
        var byThree = try JSONDecoder().decode(Versioned<StrictChore>.self, from: written)
        byThree.wrappedValue.checkedBy = "Grace"
        let back = try JSONDecoder().decode(versioned: LaterChore.self, from: JSONEncoder().encode(byThree))
        #expect(back == LaterChore(name: "a", done: true, checkedBy: "Grace", tags: ["x"]))
        let byTwo = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: written)
        #expect(byTwo.wrappedValue == ChoreV2(name: "a", done: true))
        #expect(throws: VersionedEncodingError.self) { try JSONEncoder().encode(byTwo) }
    }

    @Test("A value read from a newer document cannot be written as another version")
    func notAsAnotherVersion() throws {
        let written = try JSONEncoder().encode(versioned: Chore(name: "a", done: false, due: "d"))
        let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: written)
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(ChoreV2.self, asVersion: 1)
        #expect(throws: VersionedEncodingError.cannotWriteNewerDocument(storedVersion: 3, writableFrom: 2)) {
            try encoder.encode(read)
        }
    }

    @Test("Each versioned part of a document keeps the fields its old build does not know")
    func versionedParts() throws {
        let board = Board<Chore>(
            title: "home",
            tasks: [
                Versioned(Chore(name: "a", done: false, due: "mon")), Versioned(Chore(name: "b", done: true, due: nil)),
            ]
        )
        let written = try JSONEncoder().encode(board)
        var old = try JSONDecoder().decode(Board<ChoreV2>.self, from: written)
        #expect(old.tasks.map(\.storedVersion) == [3, 3])
        old.tasks[1].wrappedValue.done = false
        old.tasks.append(Versioned(ChoreV2(name: "c", done: false)))
        let back = try JSONDecoder().decode(Board<Chore>.self, from: JSONEncoder().encode(old))
        #expect(
            back.tasks.map(\.wrappedValue) == [
                Chore(name: "a", done: false, due: "mon"), Chore(name: "b", done: false, due: nil),
                Chore(name: "c", done: false, due: nil),
            ]
        )
        #expect(back.tasks.map(\.storedVersion) == [3, 3, 2])
    }

    @Test("A custom spec keeps the declaration beside the version, in the type's own object")
    func customSpec() throws {
        let task = FiledChore(_metadata: .init(editor: "Ada"), name: "a", priority: 2)
        for (_, encode) in Self.formats {
            let written = try task.encodeTransparently(using: encode)
            let metadata = try #require(try VersionPlacementTests.object(written)["_metadata"] as? [String: Any])
            #expect(metadata["version"] as? Int == 3)
            #expect(metadata["versionReadableFrom"] as? Int == 2)
            #expect(metadata["editor"] as? String == "Ada")
            var old = try Self.decode(Versioned<FiledChoreV2>.self, written)
            old.wrappedValue.name = "b"
            let back = try Self.decode(Versioned<FiledChore>.self, encode(old))
            #expect(back.wrappedValue == FiledChore(_metadata: .init(editor: "Ada"), name: "b", priority: 2))
        }
    }

    @Test("A document that declares older builds may read it, but not this old, stays too new")
    func tooOldABuild() throws {
        let written = try JSONEncoder().encode(versioned: Chore(name: "a", done: false, due: nil))
        #expect {
            try JSONDecoder().decode(Versioned<ChoreV1>.self, from: written)
        } throws: { error in
            guard case VersionedDecodingError.documentVersionTooNew(found: 3, _) = error else { return false }
            return true
        }
    }

    /// A root dictionary of counts whose version 2 only adds entries.
    struct CountsV2: DictionaryAtVersionPlaceTests.RootCounts, Equatable {
        static let version: Int? = 3
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = VersionPlacementTests.Tally
        var counts: [String: Int]
        init(counts: [String: Int]) { self.counts = counts }
        init(from old: VersionPlacementTests.Tally) { counts = old.counts }
    }

    @Test(
        "A dictionary at the version's place does not get the declaration as entries",
        arguments: ["json", "binary plist"]
    )
    func declarationIsNotAnEntry(format: String) throws {
        let encode = try #require(Self.formats.first { $0.name == format }).encode
        let counts = CountsV2(counts: ["a": 1, "b": 2])
        let written = try counts.encodeTransparently(using: encode)
        #expect(try VersionPlacementTests.object(written)["versionReadableFrom"] as? Int == 2)
        #expect(try Self.decode(Versioned<CountsV2>.self, written).wrappedValue == counts)
        let old = try Self.decode(Versioned<VersionPlacementTests.Tally>.self, written)
        #expect(old.wrappedValue.counts == ["a": 1, "b": 2])
        #expect(try Self.decode(Versioned<CountsV2>.self, encode(old)).wrappedValue == counts)
    }

    /// Version 3 moves the version into `_metadata`, and declares itself compatible.
    struct MovedChore: VersionedCodable, Equatable {
        static let version: Int? = 3
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = ChoreV2
        typealias VersionSpec = MetadataVersionSpec
        var name: String
        var done: Bool
        init(from old: ChoreV2) {
            name = old.name
            done = old.done
        }
        init(name: String, done: Bool) {
            self.name = name
            self.done = done
        }
    }

    @Test("A version that moves the version elsewhere records no older reader, whatever it declares")
    func movedVersionIsIncompatible() throws {
        let written = try JSONEncoder().encode(versioned: MovedChore(name: "a", done: false))
        let metadata = try #require(try VersionPlacementTests.object(written)["_metadata"] as? [String: Any])
        #expect(metadata["version"] as? Int == 3)
        #expect(metadata["versionReadableFrom"] == nil)
        // The old build finds no version where it looks, and reads the document as what it is
        // to it: one without a version, which its chain has not.
        #expect(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(Versioned<ChoreV2>.self, from: written)
        }
    }

    /// Numbered below its previous version, ``ChoreV2``, and declared compatible.
    struct RenumberedChore: VersionedCodable, Equatable {
        static let version: Int? = 0
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = ChoreV2
        var name: String
        var done: Bool
        var due: String?
        init(from old: ChoreV2) {
            name = old.name
            done = old.done
        }
        init(name: String, done: Bool, due: String?) {
            self.name = name
            self.done = done
            self.due = due
        }
    }

    @Test("A version numbered below its previous version records no older reader, whatever it declares")
    func lowerVersionIsIncompatible() throws {
        let written = try JSONEncoder().encode(versioned: RenumberedChore(name: "a", done: false, due: "today"))
        let object = try VersionPlacementTests.object(written)
        #expect(object["version"] as? Int == 0)
        #expect(object["versionReadableFrom"] == nil)
        #expect(object["versionWritableFrom"] == nil)
        #expect(try JSONDecoder().decode(versioned: RenumberedChore.self, from: written).due == "today")
    }
}
