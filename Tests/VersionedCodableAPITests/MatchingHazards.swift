import Foundation
import VersionedCodable
import VersionedCodableAPI

// Shapes where an element could be matched with the wrong stored element: sets and dictionaries,
// which are written in orders of their own, identities the client never sees, and elements
// moved between lists.

// `Site`, whose rooms are keyed by UUIDs, is in HazardTests.swift.

/// Members of a crew, a set, whose roles version 1 does not show.
struct CrewV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var members: Set<Member>
    struct Member: Codable, Hashable { var name: String }
}

struct Crew: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = CrewV1
    var members: Set<Member>
    struct Member: Codable, Hashable {
        var name: String
        var role: String
    }

    init(members: Set<Member>) { self.members = members }
    init(from old: CrewV1) throws { members = Set(old.members.map { Member(name: $0.name, role: "") }) }
    func downgraded() throws -> CrewV1 { CrewV1(members: Set(members.map { CrewV1.Member(name: $0.name) })) }
}

/// Items whose ids the step up makes from their positions: version 1 clients never see them.
struct ListV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var items: [Item]
    struct Item: Codable, Equatable { var title: String }
}

struct List: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = ListV1
    var items: [Item]
    struct Item: Codable, Equatable {
        var id: Int
        var title: String
        var secret: String
    }

    init(items: [Item]) { self.items = items }
    init(from old: ListV1) throws {
        items = old.items.enumerated().map { Item(id: $0.offset, title: $0.element.title, secret: "") }
    }
    func downgraded() throws -> ListV1 { ListV1(items: items.map { ListV1.Item(title: $0.title) }) }
}

/// Cells in rows, with ids the client sees and a note it does not.
struct GridV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var rows: [[Cell]]
    struct Cell: Codable, Equatable {
        var id: Int
        var value: String
    }
}

struct Grid: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = GridV1
    var rows: [[Cell]]
    struct Cell: Codable, Equatable {
        var id: Int
        var value: String
        var note: String
    }

    init(rows: [[Cell]]) { self.rows = rows }
    init(from old: GridV1) throws {
        rows = old.rows.map { $0.map { Cell(id: $0.id, value: $0.value, note: "") } }
    }
    func downgraded() throws -> GridV1 {
        GridV1(rows: rows.map { $0.map { GridV1.Cell(id: $0.id, value: $0.value) } })
    }
}

/// A name that the step up trims, and a count.
struct BadgeCardV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var title: String
    var count: Int
}

struct BadgeCard: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = BadgeCardV1
    var title: String
    var count: Int
    var color: String

    init(title: String, count: Int, color: String) {
        self.title = title
        self.count = count
        self.color = color
    }
    init(from old: BadgeCardV1) throws {
        self.init(title: old.title.trimmingCharacters(in: .whitespaces), count: old.count, color: "")
    }
    func downgraded() throws -> BadgeCardV1 { BadgeCardV1(title: title, count: count) }
}

/// Blocks of two kinds, coded by hand: a text block has no `url`.
struct PageV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var blocks: [Block]
    var meta: [String: String]

    enum Block: Codable, Equatable {
        case text(String)
        case image(String)

        enum CodingKeys: String, CodingKey { case type, text, url }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if try container.decode(String.self, forKey: .type) == "text" {
                self = .text(try container.decode(String.self, forKey: .text))
            } else {
                self = .image(try container.decode(String.self, forKey: .url))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .text(let text):
                try container.encode("text", forKey: .type)
                try container.encode(text, forKey: .text)
            case .image(let url):
                try container.encode("image", forKey: .type)
                try container.encode(url, forKey: .url)
            }
        }
    }
}

struct Page: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = PageV1
    var blocks: [PageV1.Block]
    var meta: [String: String]
    var author: String

    init(from old: PageV1) throws {
        blocks = old.blocks
        meta = old.meta
        author = ""
    }
    func downgraded() throws -> PageV1 { PageV1(blocks: blocks, meta: meta) }
}

/// API versions 1 and 2 for `Value`, version 1 showing it as its version 1.
func twoVersions<Value: VersionedCodable>(of type: Value.Type) throws -> APIVersions {
    try APIVersions([APIVersion(1).showing(type, asVersion: 1), APIVersion(2)], defaultVersion: 1)
}

/// Line items with ids, for a service whose coders convert keys to snake case.
struct InvoiceV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var lineItems: [Item]
    struct Item: Codable, Equatable {
        var itemId: Int
        var label: String
    }
}

struct Invoice: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = InvoiceV1
    var lineItems: [Item]
    struct Item: Codable, Equatable {
        var itemId: Int
        var label: String
        var costCentre: String
    }

    init(lineItems: [Item]) { self.lineItems = lineItems }
    init(from old: InvoiceV1) throws {
        lineItems = old.lineItems.map { Item(itemId: $0.itemId, label: $0.label, costCentre: "") }
    }
    func downgraded() throws -> InvoiceV1 {
        InvoiceV1(lineItems: lineItems.map { InvoiceV1.Item(itemId: $0.itemId, label: $0.label) })
    }
}

/// Items whose ids the step up makes from their titles.
struct SlugListV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var items: [Item]
    struct Item: Codable, Equatable { var title: String }
}

struct SlugList: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = SlugListV1
    var items: [Item]
    struct Item: Codable, Equatable {
        var id: String
        var title: String
        var secret: String
    }

    init(items: [Item]) { self.items = items }
    init(from old: SlugListV1) throws {
        items = old.items.map { Item(id: $0.title.lowercased(), title: $0.title, secret: "") }
    }
    func downgraded() throws -> SlugListV1 { SlugListV1(items: items.map { SlugListV1.Item(title: $0.title) }) }
}

/// A dictionary whose keys are not strings, so JSON writes it as `[key, value, …]`, with arrays
/// as its values, whose elements hold a hidden `hidden`.
enum ShelfKind: String, Codable, Hashable { case a, b }

struct ShelfV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var byKind: [ShelfKind: [Cell]]
    struct Cell: Codable, Equatable { var label: String }
}

struct Shelf: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = ShelfV1
    var byKind: [ShelfKind: [Cell]]
    struct Cell: Codable, Equatable {
        var label: String
        var hidden: Int
    }

    init(byKind: [ShelfKind: [Cell]]) { self.byKind = byKind }
    init(from old: ShelfV1) throws { byKind = old.byKind.mapValues { $0.map { Cell(label: $0.label, hidden: 0) } } }
    func downgraded() throws -> ShelfV1 { ShelfV1(byKind: byKind.mapValues { $0.map { .init(label: $0.label) } }) }
}

/// Columns kept in a dictionary by name, whose cards gained a hidden `owner`.
struct ColumnsV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var columns: [String: Column]
    struct Column: Codable, Equatable { var cards: [Card] }
    struct Card: Codable, Equatable {
        var id: Int
        var title: String
    }
}

struct Columns: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = ColumnsV1
    var columns: [String: Column]
    struct Column: Codable, Equatable { var cards: [Card] }
    struct Card: Codable, Equatable {
        var id: Int
        var title: String
        var owner: String
    }

    init(columns: [String: Column]) { self.columns = columns }
    init(from old: ColumnsV1) throws {
        columns = old.columns.mapValues { Column(cards: $0.cards.map { Card(id: $0.id, title: $0.title, owner: "") }) }
    }
    func downgraded() throws -> ColumnsV1 {
        ColumnsV1(columns: columns.mapValues { .init(cards: $0.cards.map { .init(id: $0.id, title: $0.title) }) })
    }
}

/// Slots whose `id` the step up makes from their places, beside a quantity the client sees that
/// may equal one.
struct SlotsV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var slots: [Slot]
    struct Slot: Codable, Equatable {
        var label: String
        var quantity: Int
    }
}

struct Slots: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = SlotsV1
    var slots: [Slot]
    struct Slot: Codable, Equatable {
        var id: Int
        var label: String
        var quantity: Int
        var secret: String
    }

    init(slots: [Slot]) { self.slots = slots }
    init(from old: SlotsV1) throws {
        slots = old.slots.enumerated().map {
            Slot(id: $0.offset, label: $0.element.label, quantity: $0.element.quantity, secret: "")
        }
    }
    func downgraded() throws -> SlotsV1 { SlotsV1(slots: slots.map { .init(label: $0.label, quantity: $0.quantity) }) }
}

/// A set of members with an `id` the client sees, whose `role` version 1 does not show.
struct RosterV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var members: Set<Member>
    struct Member: Codable, Hashable {
        var id: Int
        var name: String
    }
}

struct Roster: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = RosterV1
    var members: Set<Member>
    struct Member: Codable, Hashable {
        var id: Int
        var name: String
        var role: String
    }

    init(members: Set<Member>) { self.members = members }
    init(from old: RosterV1) throws {
        members = Set(old.members.map { Member(id: $0.id, name: $0.name, role: "") })
    }
    func downgraded() throws -> RosterV1 { RosterV1(members: Set(members.map { .init(id: $0.id, name: $0.name) })) }
}
