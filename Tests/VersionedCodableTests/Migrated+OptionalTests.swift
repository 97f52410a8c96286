import Foundation
import Testing
import VersionedCodable

@Suite("Migrated: missing keys, null and nil")
struct MigratedOptionalTests {
    /// Optional value, old shape not optional.
    struct Cutting: Codable, Equatable {
        var name: String
        @Migrated var watering: WateringSchedule?
    }

    struct BareCutting: Codable {
        var name: String
        var watering: WateringSchedule?
    }

    /// Neither the value nor the old shape optional.
    struct Seedling: Codable, Equatable {
        var name: String
        @Migrated var watering: WateringSchedule
    }

    /// A value whose old shape is optional and whose migration of `nil` can fail.
    struct Shelf: Codable, Equatable, MigrationTarget {
        var level: Int
        init(level: Int) { self.level = level }
        init(migrateFrom level: Int?) throws {
            guard let level else { throw NoShelf() }
            self.level = level
        }
    }

    struct NoShelf: Error, Equatable {}

    struct Placement: Codable, Equatable {
        @Migrated var shelf: Shelf
    }

    struct Nested: Codable, Equatable {
        @Migrated var nested: WateringSchedule??
    }

    struct BareNested: Codable {
        var nested: WateringSchedule??
    }

    /// Synthesized code in a generic type knows nothing of `Value` but that it is a migration
    /// target; the rules must hold all the same.
    struct Box<Value: Codable & MigrationTarget & Equatable>: Codable, Equatable {
        @Migrated var value: Value
    }

    static let schedule = WateringSchedule(everyDays: 3, amountMillilitres: 250)

    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    // MARK: - Optional value

    @Test("an optional value whose key is missing decodes as nil")
    func optionalValueMissing() throws {
        #expect(try decode(Cutting.self, #"{"name": "Ivy"}"#) == Cutting(name: "Ivy", watering: nil))
    }

    @Test("an optional value that is null decodes as nil")
    func optionalValueNull() throws {
        #expect(
            try decode(Cutting.self, #"{"name": "Ivy", "watering": null}"#)
                == Cutting(name: "Ivy", watering: nil)
        )
    }

    @Test("an optional value that is present decodes from either shape")
    func optionalValuePresent() throws {
        #expect(try decode(Cutting.self, #"{"name": "Ivy", "watering": 3}"#).watering == Self.schedule)
        let current = #"{"name": "Ivy", "watering": {"everyDays": 3, "amountMillilitres": 250}}"#
        #expect(try decode(Cutting.self, current).watering == Self.schedule)
    }

    @Test("an optional value in neither shape still throws")
    func optionalValueWrongShape() throws {
        let error = try #require(throws: DecodingError.self) {
            try decode(Cutting.self, #"{"name": "Ivy", "watering": [3]}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["watering"])
        #expect(context.underlyingError is MigratedDecodingFailure)
    }

    @Test("a nil optional value is left out when encoding, as without the wrapper")
    func nilIsOmitted() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Cutting(name: "Ivy", watering: nil))
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Ivy"}"#)
        #expect(data == (try encoder.encode(BareCutting(name: "Ivy", watering: nil))))

        let present = try encoder.encode(Cutting(name: "Ivy", watering: Self.schedule))
        #expect(present == (try encoder.encode(BareCutting(name: "Ivy", watering: Self.schedule))))
    }

    @Test(
        "a nil optional value round-trips through property lists, which cannot hold null",
        arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary]
    )
    func nilInPropertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let empty = Cutting(name: "Ivy", watering: nil)
        let data = try encoder.encode(empty)
        #expect(data == (try encoder.encode(BareCutting(name: "Ivy", watering: nil))))
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        #expect(plist.map { Set($0.keys) } == ["name"])
        #expect(try PropertyListDecoder().decode(Cutting.self, from: data) == empty)

        let full = Cutting(name: "Ivy", watering: Self.schedule)
        #expect(try PropertyListDecoder().decode(Cutting.self, from: try encoder.encode(full)) == full)
    }

    @Test("an optional of an optional that holds nil is written as null, as without the wrapper")
    func someNilIsWritten() throws {
        let encoder = JSONEncoder()
        let value = Nested(nested: .some(nil))
        let data = try encoder.encode(value)
        #expect(String(decoding: data, as: UTF8.self) == #"{"nested":null}"#)
        #expect(data == (try encoder.encode(BareNested(nested: .some(nil)))))
        #expect(try encoder.encode(Nested(nested: nil)) == Data("{}".utf8))
    }

    // MARK: - Optional old shape

    @Test("a missing key migrates from nil when the old shape is optional")
    func optionalSourceMissing() throws {
        let repotting = try decode(Repotting.self, "{}")
        #expect(repotting.pot == PotSize(diameterCentimetres: 18))
        #expect(repotting.previousPot == nil)
    }

    @Test("null migrates from nil when the old shape is optional")
    func optionalSourceNull() throws {
        let repotting = try decode(Repotting.self, #"{"pot": null, "previousPot": null}"#)
        #expect(repotting.pot == PotSize(diameterCentimetres: 18))
        #expect(repotting.previousPot == nil)
    }

    @Test("an optional old shape that is present migrates from its value")
    func optionalSourcePresent() throws {
        let repotting = try decode(Repotting.self, #"{"pot": "large", "previousPot": "small"}"#)
        #expect(repotting.pot == PotSize(diameterCentimetres: 30))
        #expect(repotting.previousPot == PotSize(diameterCentimetres: 12))
        let current = try decode(Repotting.self, #"{"pot": {"diameterCentimetres": 24}}"#)
        #expect(current.pot == PotSize(diameterCentimetres: 24))
        #expect(current.previousPot == nil)
    }

    @Test("an error from migrating nil for a missing key reaches the caller")
    func migrationOfNilThrows() throws {
        #expect(throws: NoShelf()) { try decode(Placement.self, "{}") }
        #expect(throws: NoShelf()) { try decode(Placement.self, #"{"shelf": null}"#) }
        #expect(try decode(Placement.self, #"{"shelf": 2}"#).shelf == Shelf(level: 2))
    }

    // MARK: - Neither optional

    @Test("a missing key throws keyNotFound when neither shape is optional")
    func requiredMissing() throws {
        let json = #"{"plants": [{"name": "Fern"}]}"#
        let error = try #require(throws: DecodingError.self) {
            try decode(MigratedTests.Greenhouse.self, json)
        }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "watering")
        #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["plants", "0"])
    }

    @Test("null throws dataCorrupted when neither shape is optional")
    func requiredNull() throws {
        let error = try #require(throws: DecodingError.self) {
            try decode(Seedling.self, #"{"name": "Basil", "watering": null}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["watering"])
        let failure = try #require(context.underlyingError as? MigratedDecodingFailure)
        #expect(failure.oldShape == "Int")
    }

    // MARK: - Both optional, and generic code

    @Test("when both the value and the old shape are optional, missing and null decode as nil")
    func bothOptional() throws {
        #expect(try decode(Box<PotSize?>.self, "{}").value == nil)
        #expect(try decode(Box<PotSize?>.self, #"{"value": null}"#).value == nil)
        #expect(
            try decode(Box<PotSize?>.self, #"{"value": "small"}"#).value == PotSize(diameterCentimetres: 12)
        )
    }

    @Test("the rules hold in a generic type whose synthesized code only knows a generic value")
    func genericContext() throws {
        #expect(try decode(Box<WateringSchedule?>.self, "{}").value == nil)
        #expect(try decode(Box<PotSize>.self, "{}").value == PotSize(diameterCentimetres: 18))
        #expect(throws: DecodingError.self) { try decode(Box<WateringSchedule>.self, "{}") }
        #expect(try decode(Box<WateringSchedule>.self, #"{"value": 3}"#).value == Self.schedule)
        #expect(try JSONEncoder().encode(Box<WateringSchedule?>(value: nil)) == Data("{}".utf8))
    }
}
