import Foundation
import Testing
import VersionedCodable

/// A shop item whose parts of a basket document are each versioned on their own.
struct ItemV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var name: String
}

struct ItemV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = ItemV1
    var name: String
    var priceInCents: Int

    init(name: String, priceInCents: Int) {
        self.name = name
        self.priceInCents = priceInCents
    }
    init(from old: ItemV1) throws {
        name = old.name
        priceInCents = 0
    }
}

struct Item: VersionedCodable, Hashable, Sendable {
    static let version: Int? = 3
    typealias PreviousVersion = ItemV2
    var title: String
    var price: Price

    struct Price: Codable, Hashable, Sendable {
        var cents: Int
        var currency: String
    }

    init(title: String, price: Price) {
        self.title = title
        self.price = price
    }
    init(from old: ItemV2) throws {
        title = old.name
        price = Price(cents: old.priceInCents, currency: "EUR")
    }
    func downgraded() throws -> ItemV2 {
        guard price.currency == "EUR" else {
            throw VersionedEncodingError.notRepresentable(
                in: ItemV2.self,
                EncodingError.Context(codingPath: [], debugDescription: "Version 2 prices are in euros only.")
            )
        }
        return ItemV2(name: title, priceInCents: price.cents)
    }
}

// snippet: nested-versioned
struct Basket: Codable, Equatable {
    @Versioned var featured: Item
    var items: [Versioned<Item>]
    var lastRemoved: Versioned<Item>?
}
// end snippet

@Suite("Versioned values inside other documents")
struct VersionedTests {
    static let mixedBasket = #"""
        {
          "featured": {"version": 1, "name": "Kettle"},
          "items": [
            {"version": 3, "title": "Teapot", "price": {"cents": 2500, "currency": "GBP"}},
            {"version": 2, "name": "Mug", "priceInCents": 800},
            {"version": 1, "name": "Spoon"}
          ]
        }
        """#

    static let tea = Item(title: "Teapot", price: .init(cents: 2500, currency: "GBP"))
    static let mug = Item(title: "Mug", price: .init(cents: 800, currency: "EUR"))
    static let spoon = Item(title: "Spoon", price: .init(cents: 0, currency: "EUR"))
    static let kettle = Item(title: "Kettle", price: .init(cents: 0, currency: "EUR"))

    @Test("Each part of a document migrates by its own version, in JSON and property lists")
    func mixedVersions() throws {
        let json = Data(Self.mixedBasket.utf8)
        let object = try JSONSerialization.jsonObject(with: json)
        let xml = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let baskets = [
            try JSONDecoder().decode(Basket.self, from: json),
            try PropertyListDecoder().decode(Basket.self, from: xml),
            try PropertyListDecoder().decode(Basket.self, from: binary),
        ]
        for basket in baskets {
            #expect(basket.featured == Self.kettle)
            #expect(basket.$featured.storedVersion == 1)
            #expect(basket.$featured.wasMigrated)
            #expect(basket.items.map(\.wrappedValue) == [Self.tea, Self.mug, Self.spoon])
            #expect(basket.items.map(\.storedVersion) == [3, 2, 1])
            #expect(basket.items.map(\.wasMigrated) == [false, true, true])
            #expect(basket.lastRemoved == nil)
        }
    }

    @Test("Encoding writes every part with its current version and reads back equal")
    func encodesCurrentVersions() throws {
        let basket = Basket(
            featured: Self.kettle,
            items: [Versioned(Self.tea), Versioned(Self.mug)],
            lastRemoved: Versioned(Self.spoon)
        )
        #expect(basket.$featured.storedVersion == 3)
        #expect(!basket.$featured.wasMigrated)
        let data = try JSONEncoder().encode(basket)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["featured"] as? [String: Any])?["version"] as? Int == 3)
        #expect((object["items"] as? [[String: Any]])?.map { $0["version"] as? Int } == [3, 3])
        #expect((object["lastRemoved"] as? [String: Any])?["title"] as? String == "Spoon")
        #expect(try JSONDecoder().decode(Basket.self, from: data) == basket)
        let plist = try PropertyListEncoder().encode(basket)
        #expect(try PropertyListDecoder().decode(Basket.self, from: plist) == basket)
    }

    @Test("An optional versioned part may be missing or null, and is left out when nil")
    func optionalPart() throws {
        let missing = try JSONDecoder().decode(
            Basket.self,
            from: Data(
                #"{"featured": {"version": 3, "title": "A", "price": {"cents": 1, "currency": "EUR"}}, "items": []}"#
                    .utf8
            )
        )
        #expect(missing.lastRemoved == nil)
        let null = try JSONDecoder().decode(
            Basket.self,
            from: Data(
                #"{"featured": {"version": 2, "name": "A", "priceInCents": 1}, "items": [], "lastRemoved": null}"#.utf8
            )
        )
        #expect(null.lastRemoved == nil)
        #expect(null.featured.price.cents == 1)
        let present = try JSONDecoder().decode(
            Basket.self,
            from: Data(
                #"{"featured": {"version": 1, "name": "A"}, "items": [], "lastRemoved": {"version": 1, "name": "B"}}"#
                    .utf8
            )
        )
        #expect(present.lastRemoved?.storedVersion == 1)
        #expect(present.lastRemoved?.wrappedValue.title == "B")
        let written = try JSONEncoder().encode(missing)
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object.keys.contains("lastRemoved") == false)
    }

    @Test("A part whose version is a number no Int holds says so, not that a migration failed")
    func nestedUnreadableVersion() throws {
        for version in ["2.5", "1e30", "99999999999999999999"] {
            let data = Data(#"{"featured": {"version": \#(version), "name": "A"}, "items": []}"#.utf8)
            let error = #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(Basket.self, from: data)
            }
            switch error {
            case .dataCorrupted(let context)? where context.codingPath.first?.stringValue == "featured":
                // The coder's own error for the number, passed on at the part's place.
                #expect(context.debugDescription.contains("featured has a version that could not be read"))
                #expect(!context.debugDescription.contains("migrating"))
            case .typeMismatch(_, let context)?, .dataCorrupted(let context)?:
                // A coder that says so itself names the version's place.
                #expect(context.codingPath.map(\.stringValue) == ["featured", "version"])
            default:
                Issue.record("Expected a decoding error at featured, got \(String(describing: error))")
            }
        }
    }

    @Test("A part that cannot be read says where it is, what version it has and what is supported")
    func nestedErrorSaysWhere() throws {
        let data = Data(
            #"{"featured": {"version": 1, "name": "A"}, "items": [{"version": 1, "name": "B"}, {"version": 8, "name": "C"}]}"#
                .utf8
        )
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Basket.self, from: data)
        }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("Expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue).first == "items")
        #expect(context.codingPath.last?.intValue == 1)
        #expect(context.debugDescription.contains("items[1]"))
        #expect(context.debugDescription.contains("version 8"))
        #expect(context.debugDescription.contains("supports versions 3, 2, 1"))
        let underlying = try #require(context.underlyingError as? VersionedDecodingError)
        #expect(underlying == .documentVersionTooNew(found: 8, newest: Item.self))

        let missing = Data(#"{"featured": {"name": "A"}, "items": []}"#.utf8)
        let missingError = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Basket.self, from: missing)
        }
        guard case .dataCorrupted(let missingContext)? = missingError else {
            Issue.record("Expected dataCorrupted, got \(String(describing: missingError))")
            return
        }
        #expect(missingContext.debugDescription.contains("featured has no version"))
    }

    @Test(
        "A migration refused inside a document names the part, the stored version and the step; at the root it is unchanged"
    )
    func refusedMigrationNamesTheStep() throws {
        struct Refusal: Error, Equatable {}
        struct OldNote: VersionedCodable {
            static let version: Int? = 1
            typealias PreviousVersion = NothingEarlier
            var text: String
        }
        struct MiddleNote: VersionedCodable {
            static let version: Int? = 2
            typealias PreviousVersion = OldNote
            var text: String
            init(from old: OldNote) throws { text = old.text }
        }
        struct Note: VersionedCodable {
            static let version: Int? = 3
            typealias PreviousVersion = MiddleNote
            var text: String
            init(from old: MiddleNote) throws {
                guard !old.text.isEmpty else { throw Refusal() }
                text = old.text
            }
        }
        struct Board: Decodable { var notes: [Versioned<Note>] }

        let board = Data(#"{"notes": [{"version": 3, "text": "a"}, {"version": 1, "text": ""}]}"#.utf8)
        let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Board.self, from: board) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("Expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription.contains("notes[1]"))
        #expect(context.debugDescription.contains("version 1"))
        #expect(context.debugDescription.contains("from MiddleNote (version 2) to Note (version 3)"))
        #expect(context.underlyingError is Refusal)

        let root = Data(#"{"version": 1, "text": ""}"#.utf8)
        #expect(throws: Refusal()) { try JSONDecoder().decode(versioned: Note.self, from: root) }
    }

    @Test("Equality and hashing compare the values, not the versions they were read from")
    func equalityIgnoresStoredVersion() throws {
        let read = try JSONDecoder().decode(
            Versioned<Item>.self,
            from: Data(#"{"version": 2, "name": "Mug", "priceInCents": 800}"#.utf8)
        )
        let made = Versioned(Self.mug)
        #expect(read.storedVersion == 2)
        #expect(made.storedVersion == 3)
        #expect(read == made)
        #expect(Set([read, made]).count == 1)
    }

    @Test("The wrapper can be sent to another task when its value can")
    func sendable() async throws {
        let value = Versioned(Self.tea)
        let title = await Task.detached { value.wrappedValue.title }.value
        #expect(title == "Teapot")
    }

    @Test("decode(versioned:) reads a Versioned part's chain when it is the whole document")
    func wholeDocument() throws {
        let data = Data(#"{"version": 1, "name": "Kettle"}"#.utf8)
        #expect(try JSONDecoder().decode(versioned: Item.self, from: data) == Self.kettle)
        let read = try JSONDecoder().decodeWithStoredVersion(Item.self, from: data)
        #expect(read.storedVersion == 1)
        #expect(read.wasMigrated)
    }
}
