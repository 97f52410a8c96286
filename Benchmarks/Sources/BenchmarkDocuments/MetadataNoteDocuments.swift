import Foundation
import VersionedCodable

// The 200 B note with its version where VersionedCodable 1.2's documentation keeps it, in
// `_metadata.version`: a custom spec, which every decode asks for the version of the document
// at hand and every encode asks what to write.

/// The version under `_metadata.version`, as 1.2's documentation declares it.
public struct MetadataVersionSpec: VersionPathSpec, Sendable {
    /// Where the version is.
    public static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }

    /// The object that holds the version.
    public struct Metadata: Codable, Equatable, Sendable {
        /// The version.
        public var version: Int?
    }

    /// The object that holds the version.
    public var _metadata: Metadata

    /// A spec holding `version`.
    ///
    /// - Parameter version: The version to write.
    public init(withVersion version: Int?) {
        _metadata = Metadata(version: version)
    }
}

/// ``NoteV1`` with its version in `_metadata`.
public struct MetadataNoteV1: VersionedCodable, Sendable {
    /// The first stored version.
    public static let version: Int? = 1
    /// The oldest version.
    public typealias PreviousVersion = NothingEarlier
    /// Where the version is.
    public typealias VersionSpec = MetadataVersionSpec

    /// The note's identifier.
    public var id: Int
    /// The title.
    public var title: String
    /// The text.
    public var text: String
}

/// ``Note`` with its version in `_metadata`.
public struct MetadataNote: VersionedCodable, Equatable, Sendable {
    /// The current version.
    public static let version: Int? = 2
    /// The note before it had a colour.
    public typealias PreviousVersion = MetadataNoteV1
    /// Where the version is.
    public typealias VersionSpec = MetadataVersionSpec

    /// The note's fields, as ``Note`` has them.
    public var note: PlainNote

    /// The note's identifier.
    public var id: Int { note.id }

    /// The same note as `note`.
    ///
    /// - Parameter note: The note.
    public init(_ note: Note) {
        self.note = PlainNote(note)
    }

    /// Gives an old note no tags and the default colour.
    ///
    /// - Parameter old: The note as first stored.
    public init(from old: MetadataNoteV1) {
        self.init(Note(from: NoteV1(id: old.id, title: old.title, text: old.text)))
    }

    /// Reads the note's fields from the same object.
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        note = try PlainNote(from: decoder)
    }

    /// Writes the note's fields into the same object.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        try note.encode(to: encoder)
    }

    /// The note of ``Note/sample``.
    public static let sample = MetadataNote(.sample)
}

/// ``PlainNote`` with the version in `_metadata` as one more field, last, where the library
/// writes it.
public struct PlainMetadataNoteWithVersion: Codable, Equatable, Sendable {
    /// The note's identifier.
    public var id: Int
    /// The title.
    public var title: String
    /// The text.
    public var text: String
    /// Its tags.
    public var tags: [String]
    /// Whether it is pinned.
    public var pinned: Bool
    /// Its colour's name.
    public var colour: String
    /// The object that holds the version.
    public var _metadata: MetadataVersionSpec.Metadata

    /// The same fields as `note`, and its type's version.
    ///
    /// - Parameter note: The versioned note to copy.
    public init(_ note: MetadataNote) {
        id = note.note.id
        title = note.note.title
        text = note.note.text
        tags = note.note.tags
        pinned = note.note.pinned
        colour = note.note.colour
        _metadata = .init(version: MetadataNote.version)
    }
}

extension BenchmarkDocuments {
    /// ``MetadataNote/sample`` as versioned JSON, about 200 bytes.
    public static let metadataNoteJSON = try! JSONEncoder().encode(versioned: MetadataNote.sample)
}

extension RatioCase {
    /// JSON decode of the note with 1.2's `_metadata.version` spec.
    static let jsonDecodeMetadataNote: RatioCase = {
        let data = BenchmarkDocuments.metadataNoteJSON
        let plainDecoder = JSONDecoder()
        let withVersionDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        let oneTwoDecoder = JSONDecoder()
        return RatioCase(
            name: "json-decode-metadata-200b",
            title: "JSON decode, current, custom spec `_metadata.version` (\(data.count) B)",
            oldFigure: "—",
            goal: 1.30,
            goalWithVersion: 1.20,
            allocationAllowance: nil,
            floor: {
                let note = try plainDecoder.decode(PlainNote.self, from: data)
                try check(note.id == 7_301, "plain note")
            },
            floorWithVersion: {
                let note = try withVersionDecoder.decode(PlainMetadataNoteWithVersion.self, from: data)
                try check(note.id == 7_301 && note._metadata.version == 2, "plain note with `_metadata`")
            },
            versioned: {
                let note = try versionedDecoder.decode(versioned: MetadataNote.self, from: data)
                try check(note.id == 7_301, "versioned note with a custom spec")
            },
            oneTwoMethod: {
                let note = try OneTwoMethod.decode(MetadataNote.self, from: data) {
                    try oneTwoDecoder.decode($0, from: $1)
                }
                try check(note.id == 7_301, "1.2's note with a custom spec")
            }
        )
    }()

    /// JSON encode of the note with 1.2's `_metadata.version` spec.
    static let jsonEncodeMetadataNote: RatioCase = {
        let versionedValue = MetadataNote.sample
        let plainValue = versionedValue.note
        let withVersionValue = PlainMetadataNoteWithVersion(versionedValue)
        let plainEncoder = JSONEncoder()
        let withVersionEncoder = JSONEncoder()
        let versionedEncoder = JSONEncoder()
        let oneTwoEncoder = JSONEncoder()
        let minimumSize = BenchmarkDocuments.metadataNoteJSON.count - 16
        return RatioCase(
            name: "json-encode-metadata-200b",
            title: "JSON encode, custom spec `_metadata.version`",
            oldFigure: "—",
            goal: 1.30,
            goalWithVersion: 1.20,
            allocationAllowance: nil,
            floor: {
                let data = try plainEncoder.encode(plainValue)
                try check(data.count >= minimumSize - 24, "plain note encode")
            },
            floorWithVersion: {
                let data = try withVersionEncoder.encode(withVersionValue)
                try check(data.count >= minimumSize, "plain note with `_metadata` encode")
            },
            versioned: {
                let data = try versionedEncoder.encode(versioned: versionedValue)
                try check(data.count >= minimumSize, "versioned note encode with a custom spec")
            },
            oneTwoMethod: {
                let data = try OneTwoMethod.encode(versionedValue) { try oneTwoEncoder.encode($0) }
                try check(data.count >= minimumSize, "1.2's note encode with a custom spec")
            },
            oneTwoMethodWatchingKeys: {
                let data = try OneTwoMethod.encodeWatchingKeys(versionedValue, specKey: "_metadata") {
                    try oneTwoEncoder.encode($0)
                }
                try check(data.count >= minimumSize, "1.2's note encode with a custom spec, watching keys")
            }
        )
    }()
}

private func check(_ condition: Bool, _ what: String) throws {
    if !condition {
        throw WrongBenchmarkResult(description: what)
    }
}
