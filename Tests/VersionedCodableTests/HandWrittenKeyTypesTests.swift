import Foundation
import Testing
import VersionedCodable

// Hand-written `encode(to:)` methods use key types of two common kinds: a closed struct whose
// `init?(stringValue:)` accepts only its own few names, and an open one that accepts any
// string. Where the spec writes, what such a type writes decides what happens, never what its
// key type accepts: a value under a key the spec writes is a mirror or a clash, a container or
// super encoder opened there is the spec's own object and merges.

@Suite("Hand-written key types where the spec writes")
struct HandWrittenKeyTypesTests {
    /// A key type that can be made from its own names only; the others are its static members.
    struct ClosedKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        private init(_ name: String) { stringValue = name }
        init?(stringValue: String) {
            guard ["count", "title", "createdBy"].contains(stringValue) else { return nil }
            self.stringValue = stringValue
        }
        init?(intValue: Int) { nil }

        static let count = ClosedKey("count")
        static let version = ClosedKey("version")
        static let metadata = ClosedKey("_metadata")
        static let schema = ClosedKey("schema")
    }

    /// A key type that accepts any string, as hand-written coders often declare one.
    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// What a type writes under the root's `version` with a closed key type.
    enum RootVersion: Sendable { case string, int, none }

    struct ClosedRoot: VersionedCodable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        var count = 1
        var writes = RootVersion.string

        init(writes: RootVersion) { self.writes = writes }
        init(from decoder: any Decoder) throws {
            count = try decoder.container(keyedBy: ClosedKey.self).decode(Int.self, forKey: .count)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ClosedKey.self)
            try container.encode(count, forKey: .count)
            switch writes {
            case .string: try container.encode("three", forKey: .version)
            case .int: try container.encode(1, forKey: .version)
            case .none: try container.encodeNil(forKey: .version)
            }
        }
    }

    @Test("A string under the root's version with a closed key type is a clash, not overwritten")
    func closedKeyStringAtVersion() throws {
        for (_, encode) in VersionPathSpecTests.encoders() {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try ClosedRoot(writes: .string).encodeTransparently(using: encode)
            }
        }
    }

    @Test("An integer or nil under the root's version with a closed key type mirrors the version")
    func closedKeyMirror() throws {
        for writes in [RootVersion.int, .none] {
            let data = try JSONEncoder().encode(versioned: ClosedRoot(writes: writes))
            #expect(try VersionPathSpecTests.topLevel(data) as NSDictionary == ["count": 1, "version": 3])
        }
    }

    /// What a type writes at `_metadata`, beside a spec at `_metadata.version`.
    enum MetadataShape: CaseIterable, Sendable { case string, array, unkeyed }

    struct ClosedMetadata: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var shape: MetadataShape

        init(shape: MetadataShape) { self.shape = shape }
        init(from decoder: any Decoder) throws { shape = .string }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ClosedKey.self)
            try container.encode(1, forKey: .count)
            switch shape {
            case .string:
                try container.encode("text", forKey: .metadata)
            case .array:
                try container.encode(["a", "b"], forKey: .metadata)
            case .unkeyed:
                var unkeyed = container.nestedUnkeyedContainer(forKey: .metadata)
                try unkeyed.encode("a")
            }
        }
    }

    /// Runs in a child process: the write once stopped the process inside Foundation's
    /// `nestedContainer`, called by the spec's writer.
    @Test("A string or array at _metadata with a closed key type is refused, never a crash")
    func closedKeyNonObjectAtMetadata() async {
        await #expect(processExitsWith: .success) {
            SpecTruth.endChildProcess {
                for (name, encode) in VersionPathSpecTests.encoders() {
                    for shape in MetadataShape.allCases {
                        do {
                            _ = try ClosedMetadata(shape: shape).encodeTransparently(using: encode)
                            throw SpecTruth.Mismatch("\(name), \(shape): written")
                        } catch let error as VersionedEncodingError {
                            try SpecTruth.check(
                                error,
                                .versionLocationNotAnObject(codingPath: ["_metadata"]),
                                "\(name), \(shape)"
                            )
                        }
                    }
                }
            }
        }
    }

    /// Opens `_metadata` twice: with its own keys for `editor`, and with an open key type for
    /// `createdBy`.
    struct OpenedTwice: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var title: String
        var editor: String
        var createdBy: String

        enum CodingKeys: String, CodingKey { case title, _metadata }
        enum MetadataKeys: String, CodingKey { case editor }

        init(title: String, editor: String, createdBy: String) {
            self.title = title
            self.editor = editor
            self.createdBy = createdBy
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            let metadata = try container.nestedContainer(keyedBy: AnyKey.self, forKey: ._metadata)
            editor = try metadata.decode(String.self, forKey: AnyKey("editor"))
            createdBy = try metadata.decode(String.self, forKey: AnyKey("createdBy"))
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            var metadata = container.nestedContainer(keyedBy: MetadataKeys.self, forKey: ._metadata)
            try metadata.encode(editor, forKey: .editor)
            var open = encoder.container(keyedBy: AnyKey.self)
            var more = open.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("_metadata"))
            try more.encode(createdBy, forKey: AnyKey("createdBy"))
        }
    }

    @Test("An object opened with an open key type where the spec writes one merges with it")
    func openKeyContainerMerges() throws {
        let value = OpenedTwice(title: "t", editor: "e", createdBy: "c")
        for (name, encode) in VersionPathSpecTests.encoders() {
            let data = try value.encodeTransparently(using: encode)
            let metadata = try #require(try VersionPathSpecTests.topLevel(data)["_metadata"] as? NSDictionary)
            #expect(metadata == ["editor": "e", "createdBy": "c", "version": 2], "\(name)")
        }
        let data = try JSONEncoder().encode(versioned: value)
        #expect(try JSONDecoder().decode(versioned: OpenedTwice.self, from: data) == value)
    }

    /// How a type with an open key type writes at the root's `version`.
    enum OpenWrite: CaseIterable, Sendable { case nested, superEncoder, unkeyed }

    struct OpenAtVersion: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var write: OpenWrite

        init(write: OpenWrite) { self.write = write }
        init(from decoder: any Decoder) throws { write = .nested }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode("n", forKey: AnyKey("name"))
            switch write {
            case .nested:
                var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("version"))
                try nested.encode(1, forKey: AnyKey("major"))
            case .superEncoder:
                var single = container.superEncoder(forKey: AnyKey("version")).singleValueContainer()
                try single.encode("2.0")
            case .unkeyed:
                var unkeyed = container.nestedUnkeyedContainer(forKey: AnyKey("version"))
                try unkeyed.encode(2)
            }
        }
    }

    @Test("A container the type opens at the version's key with an open key type is a field clash")
    func openKeyContainerAtVersionIsAFieldClash() throws {
        for (name, encode) in VersionPathSpecTests.encoders() {
            for write in OpenWrite.allCases {
                #expect(throws: VersionedEncodingError.typeHasClashingVersionField, "\(name), \(write)") {
                    try OpenAtVersion(write: write).encodeTransparently(using: encode)
                }
            }
        }
    }

    @Test("An integer a dictionary's own encoding writes under the version's key is refused, never a mirror")
    func dictionaryIntegerAtVersionStaysRefused() throws {
        for (name, encode) in VersionPathSpecTests.encoders() {
            for map in [["version": 7, "a": 1], ["version": 1]] {
                #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "version"), "\(name)") {
                    try KeyStrategyClashTests.Outline<String>(map).encodeTransparently(using: encode)
                }
            }
            // An integer key is written under its own name, "0", which the spec does not write.
            let levels = KeyStrategyClashTests.Outline<Int>([0: 7])
            let data = try levels.encodeTransparently(using: encode)
            let read = try VersionPathSpecTests.decode(KeyStrategyClashTests.Outline<Int>.self, data)
            #expect(read.map == [0: 7], "\(name)")
        }
    }

    @Test("An integer the type writes itself under the version's key with an open key type mirrors the version")
    func openKeyIntegerAtVersionIsAMirror() throws {
        // What is written decides, not what the key type accepts: the type's own `encode(to:)`
        // writes this integer, as it would a property, so it mirrors the version (1.2's rule).
        for (name, encode) in VersionPathSpecTests.encoders() {
            let value = KeyStrategyClashTests.Tabulated(rows: ["version": 7, "a": 2])
            let data = try value.encodeTransparently(using: encode)
            let object = try VersionPathSpecTests.topLevel(data)
            #expect(object as? [String: Int] == ["version": 1, "a": 2], "\(name)")
        }
    }

    /// Writes its own string under the key where its spec writes a constant.
    struct OwnSchema: VersionedCodable {
        static let version: Int? = 7
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ConstantSpec

        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ClosedKey.self)
            try container.encode(1, forKey: .count)
            try container.encode("mine", forKey: .schema)
        }
    }

    @Test("A value under a spec's constant with a closed key type is a clash, not overwritten")
    func closedKeyAtSpecConstant() throws {
        for (_, encode) in VersionPathSpecTests.encoders() {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try OwnSchema().encodeTransparently(using: encode)
            }
        }
    }

    /// A map of its own, written and read key by key through an open key type, beside a spec
    /// that writes the constant `schema: 7`.
    struct Table: VersionedCodable, Equatable {
        static let version: Int? = 7
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ConstantSpec
        var rows: [String: Int]

        init(rows: [String: Int]) { self.rows = rows }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            rows = [:]
            for key in container.allKeys {
                rows[key.stringValue] = try container.decode(Int.self, forKey: key)
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in rows {
                try container.encode(value, forKey: AnyKey(key))
            }
        }
    }

    @Test("An entry equal to a spec's constant, written key by key, is refused rather than lost on reading")
    func mapEntryEqualToSpecConstant() throws {
        for (name, encode) in VersionPathSpecTests.encoders() {
            // Reading lists the object's keys without the spec's, so the entry would be gone.
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField, "\(name)") {
                try Table(rows: ["schema": 7, "a": 2]).encodeTransparently(using: encode)
            }
            let table = Table(rows: ["a": 2, "b": 3])
            let data = try table.encodeTransparently(using: encode)
            #expect(try VersionPathSpecTests.decode(Table.self, data) == table, "\(name)")
        }
    }
}
