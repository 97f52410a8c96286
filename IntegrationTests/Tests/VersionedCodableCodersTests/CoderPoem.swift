import Foundation
import Testing
import VersionedCodable

// The poem every coder is tested with: four versions, the oldest written before versioning.
// The names start with `Coder` so that they stay unique in the test module.

struct CoderPoemV0: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    var author: String
    var text: String
}

struct CoderPoemV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = CoderPoemV0
    var author: String
    var lines: [String]

    init(from old: CoderPoemV0) {
        author = old.author
        lines = old.text.components(separatedBy: "\n")
    }
}

struct CoderPoemV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = CoderPoemV1
    var author: String
    var lines: [String]
    var rating: String

    init(from old: CoderPoemV1) {
        author = old.author
        lines = old.lines
        rating = "meh"
    }
}

struct CoderPoem: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = CoderPoemV2

    struct Author: Codable, Equatable {
        var name: String
        var born: Int?
    }

    enum Rating: String, Codable {
        case love, meh, hate
    }

    var author: Author
    var lines: [String]
    var rating: Rating

    init(author: Author, lines: [String], rating: Rating) {
        self.author = author
        self.lines = lines
        self.rating = rating
    }

    init(from old: CoderPoemV2) throws {
        guard let rating = Rating(rawValue: old.rating) else {
            throw VersionedDecodingError.fieldNoLongerValid(
                DecodingError.Context(codingPath: [], debugDescription: "Unknown rating \(old.rating)")
            )
        }
        author = Author(name: old.author, born: nil)
        lines = old.lines
        self.rating = rating
    }
}

/// One stored fixture, in every format, with the poem it must decode to.
struct CoderPoemFixture: CustomTestStringConvertible, Sendable {
    let name: String
    let storedVersion: Int?
    let expected: CoderPoem

    var testDescription: String { name }

    func data(_ format: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: format, subdirectory: "Fixtures")
        else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name).\(format)"])
        }
        return try Data(contentsOf: url)
    }

    static let all = [
        CoderPoemFixture(
            name: "poem-none",
            storedVersion: nil,
            expected: CoderPoem(
                author: .init(name: "Ann"),
                lines: ["Roses are red", "Violets are blue"],
                rating: .meh
            )
        ),
        CoderPoemFixture(
            name: "poem-v1",
            storedVersion: 1,
            expected: CoderPoem(author: .init(name: "Bo"), lines: ["One line"], rating: .meh)
        ),
        CoderPoemFixture(
            name: "poem-v2",
            storedVersion: 2,
            expected: CoderPoem(author: .init(name: "Cy"), lines: ["first", "second"], rating: .love)
        ),
        CoderPoemFixture(
            name: "poem-v3",
            storedVersion: 3,
            expected: CoderPoem(author: .init(name: "Di", born: 1950), lines: ["x", "y", "z"], rating: .hate)
        ),
    ]
}

extension CoderPoem.Author {
    init(name: String) {
        self.init(name: name, born: nil)
    }
}

/// Keeps the version in `_metadata`, beside fields the type writes there itself.
struct CoderMetadataVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }

    struct Metadata: Codable {
        var version: Int?
    }

    var _metadata: Metadata

    init(withVersion version: Int?) {
        _metadata = Metadata(version: version)
    }
}

/// Writes `_metadata.editor` where its spec writes `_metadata.version`.
struct CoderEditedNote: VersionedCodable, Equatable {
    static let version: Int? = 4
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = CoderMetadataVersionSpec

    struct Metadata: Codable, Equatable {
        var editor: String
    }

    var title: String
    var _metadata: Metadata
}

/// Writes `_metadata` by hand, through a nested container, where its spec keeps the version.
struct CoderHandWrittenNote: VersionedCodable, Equatable {
    static let version: Int? = 4
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = CoderMetadataVersionSpec

    var title: String
    var editor: String

    init(title: String, editor: String) {
        self.title = title
        self.editor = editor
    }

    enum CodingKeys: String, CodingKey {
        case title, _metadata
    }

    enum MetadataKeys: String, CodingKey {
        case editor
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        let metadata = try container.nestedContainer(keyedBy: MetadataKeys.self, forKey: ._metadata)
        editor = try metadata.decode(String.self, forKey: .editor)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        var metadata = container.nestedContainer(keyedBy: MetadataKeys.self, forKey: ._metadata)
        try metadata.encode(editor, forKey: .editor)
    }
}

/// Writes `_metadata` through a super encoder for that key, where its spec keeps the version.
struct CoderSuperEncodedNote: VersionedCodable, Equatable {
    static let version: Int? = 4
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = CoderMetadataVersionSpec

    struct Metadata: Codable, Equatable {
        var editor: String
    }

    var title: String
    var metadata: Metadata

    init(title: String, metadata: Metadata) {
        self.title = title
        self.metadata = metadata
    }

    enum CodingKeys: String, CodingKey {
        case title, _metadata
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        metadata = try Metadata(from: container.superDecoder(forKey: ._metadata))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try metadata.encode(to: container.superEncoder(forKey: ._metadata))
    }
}

/// The version two objects deep, at `header.format.version`.
struct CoderDeepVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header.format.version }

    struct Format: Codable {
        var version: Int?
    }

    struct Header: Codable {
        var format: Format
    }

    var header: Header

    init(withVersion version: Int?) {
        header = Header(format: Format(version: version))
    }
}

/// Writes `header.author` and `header.format.name` by hand, through nested containers, where
/// its spec writes `header.format.version`.
struct CoderDeepHandWrittenNote: VersionedCodable, Equatable {
    static let version: Int? = 7
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = CoderDeepVersionSpec

    var author: String
    var formatName: String

    init(author: String, formatName: String) {
        self.author = author
        self.formatName = formatName
    }

    enum CodingKeys: String, CodingKey { case header }
    enum HeaderKeys: String, CodingKey { case author, format }
    enum FormatKeys: String, CodingKey { case name }

    init(from decoder: any Decoder) throws {
        let header = try decoder.container(keyedBy: CodingKeys.self)
            .nestedContainer(keyedBy: HeaderKeys.self, forKey: .header)
        author = try header.decode(String.self, forKey: .author)
        formatName = try header.nestedContainer(keyedBy: FormatKeys.self, forKey: .format)
            .decode(String.self, forKey: .name)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var header = container.nestedContainer(keyedBy: HeaderKeys.self, forKey: .header)
        try header.encode(author, forKey: .author)
        var format = header.nestedContainer(keyedBy: FormatKeys.self, forKey: .format)
        try format.encode(formatName, forKey: .name)
    }
}

/// Keeps its version in `_metadata`, an object it never writes itself.
struct CoderFiledNote: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = CoderMetadataVersionSpec

    var title: String
}

/// Has a `version` property of its own, a string, where the default spec puts the version.
struct CoderClashingNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var version: String
    var title: String
}

/// Keeps an integer that mirrors the version where the default spec puts it, as 1.2 apps do;
/// after a migration it may be stale.
struct CoderMirroringNote: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = NothingEarlier
    var version: Int
    var title: String
}

/// A header that carries a format name beside the version, as a spec may.
struct CoderHeaderSpec: VersionPathSpec {
    static let keyPathToVersion: KeyPath<CoderHeaderSpec, Int?> = \CoderHeaderSpec.formatVersion
    var format: String
    var formatVersion: Int?

    init(withVersion version: Int?) {
        format = "note"
        formatVersion = version
    }
}

struct CoderHeaderedNote: VersionedCodable, Equatable {
    static let version: Int? = 5
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = CoderHeaderSpec
    var title: String
}

/// A plain `Codable` document that holds versioned parts.
struct CoderAnthology: Codable, Equatable {
    var title: String
    @Versioned var featured: CoderPoem
    var poems: [Versioned<CoderPoem>]
}

/// Keeps a dictionary of its own in `_metadata`, where its spec writes the version.
struct CoderTaggedNote: VersionedCodable, Equatable {
    static let version: Int? = 4
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = CoderMetadataVersionSpec

    var title: String
    var _metadata: [String: String]
}

/// Reads and writes its whole root as a dictionary.
struct CoderCounts: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier

    var counts: [String: Int]

    init(counts: [String: Int]) {
        self.counts = counts
    }

    init(from decoder: any Decoder) throws {
        counts = try decoder.singleValueContainer().decode([String: Int].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(counts)
    }
}
