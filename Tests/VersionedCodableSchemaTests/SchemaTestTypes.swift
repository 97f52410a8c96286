import Foundation
import VersionedCodable
import VersionedCodableSchema

/// The version under `_metadata.version`.
struct MetadataVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }

    init(withVersion version: Int?) {
        _metadata = Metadata(version: version)
    }

    struct Metadata: Codable {
        var version: Int?
    }
    var _metadata: Metadata
}

/// A note whose version lives in `_metadata`.
struct Note: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec
    var text: String
}

/// One of each kind of value the JSON coders read.
struct Catalogue: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    enum Shelf: String, Codable, CaseIterable { case top, middle, bottom }
    enum Floor: Int, Codable, CaseIterable { case ground = 0, first = 1 }

    var createdAt: Date
    var thumbnail: Data
    var homePage: URL
    var price: Decimal
    var identifier: UUID
    var shelf: Shelf
    var floor: Floor?
    var counts: [String: Int]
    var byte: UInt8
    var total: UInt64
    var ratio: Double
    var archived: Bool
    var kind: OpenEnum<Shelf>
    var lead: Versioned<Note>
    var others: [Versioned<Note>]
}

/// A type that holds itself, through an optional and through an array.
final class Outline: Codable {
    var heading: String
    var next: Outline?
    var children: [Outline]
    var index: [String: Outline]
}

/// A versioned document around the outline.
struct OutlineDocument: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var outline: Outline
    var appendix: Outline
}

/// A type whose decoding throws whatever it is given.
struct Refusing: Codable {
    var text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        throw DecodingError.dataCorruptedError(forKey: .text, in: container, debugDescription: "refused")
    }
}

/// A versioned document with a part that refuses, between two fields.
struct RefusingDocument: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var before: String
    var refusing: Refusing
    var after: String
}

/// An enum with raw values that does not list its cases.
enum Mood: String, Codable { case calm, stormy }

/// A document whose enum cannot be listed.
struct Diary: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var mood: Mood
}

/// Keys written in snake case.
struct Profile: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var displayName: String
    var homeURL: URL?
}

/// One more version on top of `Previous`, for chains of any length.
struct Step<Previous: VersionedCodable>: VersionedCodable {
    static var version: Int? { (Previous.version ?? 0) + 1 }
    typealias PreviousVersion = Previous
    var count: Int

    init(from old: Previous) throws {
        count = 0
    }
}

/// The first of the long chain.
struct StepZero: VersionedCodable {
    static let version: Int? = 0
    typealias PreviousVersion = NothingEarlier
    var count: Int
}

typealias TenSteps = Step<Step<Step<Step<Step<Step<Step<Step<Step<Step<StepZero>>>>>>>>>>
typealias TwentySteps = Step<Step<Step<Step<Step<Step<Step<Step<Step<Step<TenSteps>>>>>>>>>>
typealias ThirtySteps = Step<Step<Step<Step<Step<Step<Step<Step<Step<Step<TwentySteps>>>>>>>>>>
typealias FortySteps = Step<Step<Step<Step<Step<Step<Step<Step<Step<Step<ThirtySteps>>>>>>>>>>
typealias FiftySteps = Step<Step<Step<Step<Step<Step<Step<Step<Step<Step<FortySteps>>>>>>>>>>

/// A payment whose enum has associated values, which Swift's synthesized code reads by listing
/// the keys of its container.
enum Payment: Codable {
    case card(number: String)
    case cash
}

/// A receipt that holds a payment.
struct Receipt: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var total: Int
    var payment: Payment
}

/// A thread of replies, each a versioned part of the thread's own type.
struct Thread: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var text: String
    var replies: [Versioned<Thread>]
}

/// A shape whose fields depend on its kind: its decoding branches on a value it read.
struct Figure: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    enum Kind: String, Codable, CaseIterable { case circle, square }
    enum CodingKeys: String, CodingKey { case kind, radius, side }

    var kind: Kind
    var size: Double

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        switch kind {
        case .circle: size = try container.decode(Double.self, forKey: .radius)
        case .square: size = try container.decode(Double.self, forKey: .side)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(size, forKey: kind == .circle ? .radius : .side)
    }
}

/// The first version of a stamp, a versioned part of a letter.
struct StampV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var label: String
}

/// The current stamp: the label renamed, and a field added.
struct Stamp: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = StampV1
    var text: String
    var inked: Bool

    init(text: String, inked: Bool) {
        self.text = text
        self.inked = inked
    }

    init(from old: StampV1) throws {
        text = old.label
        inked = false
    }
}

/// A letter whose stamps are versioned parts: a stored letter may hold them at any version.
struct Letter: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var stamp: Versioned<Stamp>
    var extras: [Versioned<Stamp>]
}

/// Weather whose decoding also accepts the spelling older documents used: more values than it
/// has cases, which only a declared list can tell.
enum Weather: String, Codable {
    case sun, rain

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let weather = Weather(rawValue: raw == "sunny" ? "sun" : raw) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown weather \(raw)")
        }
        self = weather
    }
}

// snippet: schema-raw-values
extension Weather: SchemaRawValues {
    static var schemaRawValues: [JSONValue] { [.string("sun"), .string("rain"), .string("sunny")] }
}
// end snippet

/// A season that lists a raw value it has no case for.
enum Season: Int, Codable, SchemaRawValues {
    case spring = 1, summer = 2

    static var schemaRawValues: [JSONValue] { [.number(1), .number(2), .number(3)] }
}

/// A forecast whose enums list their raw values without being `CaseIterable`.
struct Forecast: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var weather: Weather
    var season: Season
}

/// A pen whose versions are nested types, named `V1` and `V2` as in many codebases.
enum Pen {
    struct V1: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var colour: String
    }

    struct V2: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = V1
        var colour: String
        var width: Int

        init(from old: V1) throws {
            colour = old.colour
            width = 1
        }
    }
}

/// An ink whose one version is also named `V1`.
enum Ink {
    struct V1: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var litres: Double
    }
}

/// A desk with a part of each: their versions' names clash without their context.
struct Desk: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var ink: Versioned<Ink.V1>
    var pen: Versioned<Pen.V2>
}

/// A note whose own `_metadata` object, a closed struct, holds the version its spec writes there.
struct Memo: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec

    struct Metadata: Codable, Equatable {
        var createdBy: String
    }
    var _metadata: Metadata
    var text: String
}

/// A versioned document with a memo part.
struct Folder: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var memo: Versioned<Memo>
}

/// A note whose own `_metadata` object is optional: its `nil` is written as the spec's object alone.
struct OptionalMemo: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec

    var _metadata: Memo.Metadata?
    var text: String
}

/// Keeps the version two objects down, at `header.format.version`.
struct HeaderFormatSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header.format.version }

    init(withVersion version: Int?) {
        header = Header(format: Format(version: version))
    }

    struct Header: Codable {
        var format: Format
    }
    struct Format: Codable {
        var version: Int?
    }
    var header: Header
}

/// A record whose own `header` and `header.format` are structs the spec's objects pass through.
struct Record: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = HeaderFormatSpec

    struct Header: Codable, Equatable {
        var author: String
        var format: Format
    }
    struct Format: Codable, Equatable {
        var name: String
    }
    var header: Header
}

/// A note whose `_metadata` is a dictionary of its own, beside the version its spec writes there.
struct TaggedNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec

    var _metadata: [String: String]
}

/// A note whose optional `_metadata` is a dictionary of its own.
struct OptionalTaggedNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec

    var _metadata: [String: String]?
}

/// The first chore.
struct ChoreV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var text: String
}

/// A chore that builds of version 1 may read and write back.
struct CompatibleChore: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = ChoreV1
    var text: String
    var pinned: Bool?

    init(text: String, pinned: Bool?) {
        self.text = text
        self.pinned = pinned
    }

    init(from old: ChoreV1) throws {
        text = old.text
    }
}

/// A document of parts: a compatible chore, and an optional memo.
struct Tray: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var chore: Versioned<CompatibleChore>
    var memo: Versioned<OptionalMemo>
}

/// Keeps the version at `_metadata.version`, with a format name beside it that it reads too.
struct FormatSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }

    init(withVersion version: Int?) {
        _metadata = Metadata(version: version, format: "notes")
    }

    struct Metadata: Codable {
        var version: Int?
        var format: String
    }
    var _metadata: Metadata
}

/// A note with nothing of its own where `FormatSpec` writes.
struct FormatNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = FormatSpec
    var text: String
}

/// A note with its own closed struct where `FormatSpec` writes.
struct FormatMemo: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = FormatSpec
    var _metadata: Memo.Metadata
    var text: String
}

/// A note with a dictionary of numbers where `FormatSpec` writes.
struct FormatCounts: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = FormatSpec
    var _metadata: [String: Int]
}

/// A record whose `header`, where the spec writes `header.format.version`, is a dictionary of
/// strings.
struct LabelledRecord: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = HeaderFormatSpec
    var header: [String: String]
}
