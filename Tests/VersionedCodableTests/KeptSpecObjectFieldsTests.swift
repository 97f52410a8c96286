import Foundation
import Testing
import VersionedCodable

// A newer version that adds fields inside the object where its spec keeps the version
// (`_metadata`, `header.format`): an older build that reads and writes back such a document
// keeps them there, as it keeps new fields at the root.

/// The older build's newest version: nothing of its own in `_metadata`.
struct LabelV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec
    var title: String
}

/// Adds `_metadata.createdBy` and a root `tag`; older builds may read and write it.
struct Label: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = LabelV1
    typealias VersionSpec = MetadataVersionSpec
    struct Metadata: Codable, Equatable {
        var createdBy: String
        var source: String?
    }
    var title: String
    var tag: String
    var _metadata: Metadata
    init(title: String, tag: String, _metadata: Metadata) {
        self.title = title
        self.tag = tag
        self._metadata = _metadata
    }
    init(from old: LabelV1) { self.init(title: old.title, tag: "", _metadata: Metadata(createdBy: "")) }
    func downgraded() -> LabelV1 { LabelV1(title: title) }
}

/// Keeps the version at `header.format.version`.
struct HeaderFormatSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header.format.version }
    struct Format: Codable { var version: Int? }
    struct Header: Codable { var format: Format }
    var header: Header
    init(withVersion version: Int?) { header = Header(format: Format(version: version)) }
}

struct SheetV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = HeaderFormatSpec
    var cells: [String]
}

/// Adds `header.author` and `header.format.encoding`.
struct Sheet: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = SheetV1
    typealias VersionSpec = HeaderFormatSpec
    struct Format: Codable, Equatable { var encoding: String }
    struct Header: Codable, Equatable {
        var author: String
        var format: Format
    }
    var cells: [String]
    var header: Header
    init(cells: [String], header: Header) {
        self.cells = cells
        self.header = header
    }
    init(from old: SheetV1) { self.init(cells: old.cells, header: Header(author: "", format: Format(encoding: ""))) }
    func downgraded() -> SheetV1 { SheetV1(cells: cells) }
}

@Suite("Fields a newer version adds where its spec writes")
struct KeptSpecObjectFieldsTests {
    static let label = Label(title: "jam", tag: "pantry", _metadata: .init(createdBy: "ann", source: "scan"))

    @Test(
        "An old build keeps a newer version's fields in _metadata, in every format",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func metadataFieldsKept(format: String) throws {
        let encode = try #require(VersionPlacementTests.formats.first { $0.name == format }).encode
        let written = try Self.label.encodeTransparently(using: encode)
        var old = try OldAndNewBuildsTests.decode(Versioned<LabelV1>.self, written)
        #expect(old.isFromNewerVersion)
        old.wrappedValue.title = "marmalade"
        let back = try encode(old)
        let newer = try OldAndNewBuildsTests.decode(Versioned<Label>.self, back)
        #expect(newer.storedVersion == 2)
        #expect(
            newer.wrappedValue
                == Label(title: "marmalade", tag: "pantry", _metadata: .init(createdBy: "ann", source: "scan"))
        )
        let metadata = try #require(try VersionPlacementTests.object(back)["_metadata"] as? [String: Any])
        #expect(metadata["version"] as? Int == 2)
        #expect(metadata["versionReadableFrom"] as? Int == 1)
        #expect(metadata["createdBy"] as? String == "ann")
    }

    /// Reads and writes `_metadata.createdBy`, which `Label` also has, but not `source`.
    struct SignedLabelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Metadata: Codable, Equatable { var createdBy: String }
        var title: String
        var _metadata: Metadata
    }

    @Test("Fields the old build reads in _metadata carry its edits; those it does not are kept beside them")
    func editsInMetadata() throws {
        let written = try JSONEncoder().encode(versioned: Self.label)
        var old = try JSONDecoder().decode(Versioned<SignedLabelV1>.self, from: written)
        #expect(old.wrappedValue == SignedLabelV1(title: "jam", _metadata: .init(createdBy: "ann")))
        old.wrappedValue._metadata.createdBy = "bea"
        let back = try JSONDecoder().decode(versioned: Label.self, from: JSONEncoder().encode(old))
        #expect(back == Label(title: "jam", tag: "pantry", _metadata: .init(createdBy: "bea", source: "scan")))
    }

    /// Reads `_metadata.createdBy` through a struct, and writes `_metadata` as a dictionary.
    struct MappedMetadataLabelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Metadata: Codable, Equatable { var createdBy: String }
        enum CodingKeys: String, CodingKey { case title, _metadata }
        var title: String
        var createdBy: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            createdBy = try container.decode(Metadata.self, forKey: ._metadata).createdBy
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(["createdBy": createdBy], forKey: ._metadata)
        }
    }

    /// Reads its root through its keys, and writes it as a dictionary.
    struct MappedRootLabelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        enum CodingKeys: String, CodingKey { case title }
        var title: String

        init(from decoder: any Decoder) throws {
            title = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .title)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(["title": title])
        }
    }

    @Test("An old build that writes as a dictionary what it read through its keys keeps the newer fields there")
    func keptBesideADictionary() throws {
        let written = try JSONEncoder().encode(versioned: Self.label)
        var metadataMapped = try JSONDecoder().decode(Versioned<MappedMetadataLabelV1>.self, from: written)
        metadataMapped.wrappedValue.createdBy = "bea"
        let metadataBack = try JSONDecoder().decode(versioned: Label.self, from: JSONEncoder().encode(metadataMapped))
        #expect(metadataBack == Label(title: "jam", tag: "pantry", _metadata: .init(createdBy: "bea", source: "scan")))

        var rootMapped = try JSONDecoder().decode(Versioned<MappedRootLabelV1>.self, from: written)
        rootMapped.wrappedValue.title = "marmalade"
        let rootBack = try JSONDecoder().decode(versioned: Label.self, from: JSONEncoder().encode(rootMapped))
        let expected = Label(title: "marmalade", tag: "pantry", _metadata: .init(createdBy: "ann", source: "scan"))
        #expect(rootBack == expected)
    }

    @Test("An old build keeps fields a newer version adds at every object on the version's path")
    func deepPathFieldsKept() throws {
        let sheet = Sheet(cells: ["a", "b"], header: .init(author: "cy", format: .init(encoding: "utf8")))
        let written = try JSONEncoder().encode(versioned: sheet)
        var old = try JSONDecoder().decode(Versioned<SheetV1>.self, from: written)
        old.wrappedValue.cells.append("c")
        let back = try JSONEncoder().encode(old)
        let read = try JSONDecoder().decode(versioned: Sheet.self, from: back)
        #expect(read == Sheet(cells: ["a", "b", "c"], header: .init(author: "cy", format: .init(encoding: "utf8"))))
    }

    @Test("Each versioned part of a document keeps the fields a newer version adds in its _metadata")
    func partsKeepMetadataFields() throws {
        let other = Label(title: "tea", tag: "shelf", _metadata: .init(createdBy: "dan", source: nil))
        let board = Board(
            title: "kitchen",
            tasks: [Versioned(wrappedValue: Self.label), Versioned(wrappedValue: other)]
        )
        var old = try JSONDecoder().decode(Board<LabelV1>.self, from: JSONEncoder().encode(board))
        old.tasks[1].wrappedValue.title = "green tea"
        let back = try JSONDecoder().decode(Board<Label>.self, from: JSONEncoder().encode(old))
        #expect(
            back.tasks.map(\.wrappedValue) == [
                Self.label, Label(title: "green tea", tag: "shelf", _metadata: other._metadata),
            ]
        )
    }

    /// Writes `_metadata.createdBy` of its own without reading it.
    struct StampingLabelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var title: String
        enum CodingKeys: String, CodingKey { case title, _metadata }
        enum MetadataKeys: String, CodingKey { case createdBy }
        init(title: String) { self.title = title }
        init(from decoder: any Decoder) throws {
            title = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .title)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            var metadata = container.nestedContainer(keyedBy: MetadataKeys.self, forKey: ._metadata)
            try metadata.encode("stamp", forKey: .createdBy)
        }
    }

    @Test("A field the old build writes in _metadata wins over the kept one of the same key")
    func writtenFieldWins() throws {
        let written = try JSONEncoder().encode(versioned: Self.label)
        let old = try JSONDecoder().decode(Versioned<StampingLabelV1>.self, from: written)
        let back = try JSONEncoder().encode(old)
        let metadata = try #require(try VersionPlacementTests.object(back)["_metadata"] as? [String: Any])
        #expect(metadata["createdBy"] as? String == "stamp")
        #expect(metadata["source"] as? String == "scan")
        #expect(metadata["version"] as? Int == 2)
        #expect(metadata.count == 5)
    }

    /// Has an optional `_metadata` of its own whose one field the newer document does not hold.
    struct EditedLabelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Metadata: Codable, Equatable { var editor: String? }
        var title: String
        var _metadata: Metadata?
    }

    @Test("An optional _metadata that holds only kept fields is written back with them, not refused as empty")
    func optionalObjectHoldingKeptFields() throws {
        let written = try JSONEncoder().encode(versioned: Self.label)
        let old = try JSONDecoder().decode(Versioned<EditedLabelV1>.self, from: written)
        #expect(old.wrappedValue._metadata == .init(editor: nil))
        let back = try JSONEncoder().encode(old)
        #expect(try JSONDecoder().decode(versioned: Label.self, from: back) == Self.label)
        #expect(try JSONDecoder().decode(Versioned<EditedLabelV1>.self, from: back).wrappedValue == old.wrappedValue)
    }

    /// Reads `_metadata` as a dictionary, which reads every key there.
    struct ListingLabelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var title: String
        var _metadata: [String: String]
    }

    @Test("An old build that reads _metadata as a dictionary keeps its entries through the dictionary")
    func dictionaryReadsEveryKey() throws {
        let written = try JSONEncoder().encode(versioned: Self.label)
        var old = try JSONDecoder().decode(Versioned<ListingLabelV1>.self, from: written)
        #expect(old.wrappedValue._metadata == ["createdBy": "ann", "source": "scan"])
        old.wrappedValue._metadata["source"] = nil
        let back = try JSONDecoder().decode(versioned: Label.self, from: JSONEncoder().encode(old))
        #expect(back._metadata == .init(createdBy: "ann", source: nil))
    }

    @Test("Under snake-case strategies, a dictionary at _metadata sees none of the keys the spec wrote there")
    func dictionaryUnderKeyStrategies() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // The newer build writes `_metadata` as a struct, so the strategy renames every key in it.
        let written = try encoder.encode(versioned: Self.label)
        let metadata = try #require(try VersionPlacementTests.object(written)["_metadata"] as? [String: Any])
        #expect(
            Set(metadata.keys) == ["created_by", "source", "version", "version_readable_from", "version_writable_from"]
        )
        var old = try decoder.decode(Versioned<ListingLabelV1>.self, from: written)
        // A dictionary's keys are data, read as they are; the spec's are not among them.
        #expect(old.wrappedValue._metadata == ["created_by": "ann", "source": "scan"])
        old.wrappedValue.title = "marmalade"
        let back = try encoder.encode(old)
        let rewritten = try #require(try VersionPlacementTests.object(back)["_metadata"] as? [String: Any])
        #expect(
            Set(rewritten.keys) == ["created_by", "source", "version", "versionReadableFrom", "versionWritableFrom"]
        )
        #expect(
            try decoder.decode(versioned: Label.self, from: back)
                == Label(title: "marmalade", tag: "pantry", _metadata: Self.label._metadata)
        )
    }

    @Test("Under a custom key strategy, a dictionary at _metadata whose keys the strategy renames is a clear error")
    func dictionaryUnderCustomStrategy() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .custom { path in AnyKey("x_" + path.last!.stringValue) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in AnyKey(String(path.last!.stringValue.dropFirst(2))) }
        let written = try encoder.encode(versioned: Self.label)
        // The struct reads it back; a dictionary cannot tell which of its keys are the spec's.
        #expect(try decoder.decode(versioned: Label.self, from: written) == Self.label)
        do {
            _ = try decoder.decode(Versioned<ListingLabelV1>.self, from: written)
            Issue.record("the dictionary was read with the spec's keys among its entries, or without them by a guess")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("which of them it wrote cannot be told"))
            #expect(context.codingPath.map(\.stringValue) == ["_metadata"])
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Forwards its `_metadata` to another type through a single-value container.
    struct ForwardingLabelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Inner: Codable, Equatable { var createdBy: String? }
        struct Metadata: Codable, Equatable {
            var inner: Inner
            init(from decoder: any Decoder) throws { inner = try decoder.singleValueContainer().decode(Inner.self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(inner)
            }
        }
        var title: String
        var _metadata: Metadata
    }

    @Test("An old build that forwards _metadata to another type keeps what that type does not read there")
    func forwardedMetadataKeepsFields() throws {
        let written = try JSONEncoder().encode(versioned: Self.label)
        var old = try JSONDecoder().decode(Versioned<ForwardingLabelV1>.self, from: written)
        #expect(old.wrappedValue._metadata.inner.createdBy == "ann")
        old.wrappedValue._metadata.inner.createdBy = "bea"
        let back = try JSONDecoder().decode(versioned: Label.self, from: JSONEncoder().encode(old))
        #expect(back == Label(title: "jam", tag: "pantry", _metadata: .init(createdBy: "bea", source: "scan")))
    }
}
