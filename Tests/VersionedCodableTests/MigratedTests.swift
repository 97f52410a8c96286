import Foundation
import Testing
import VersionedCodable

// The declarations from here to the suite are the code samples of the FieldMigrations
// article, kept verbatim so that the article's code is known to compile; a test below checks
// that they still match.

// snippet: field-migration
// snippet: watering-schedule
struct WateringSchedule: Codable, Hashable, MigrationTarget {
    var everyDays: Int
    var amountMillilitres: Int

    init(everyDays: Int, amountMillilitres: Int) {
        self.everyDays = everyDays
        self.amountMillilitres = amountMillilitres
    }

    // Until the schedule grew an amount, documents held only the number of days.
    init(migrateFrom everyDays: Int) {
        self.init(everyDays: everyDays, amountMillilitres: 250)
    }
}
// end snippet

// snippet: houseplant
struct Houseplant: Codable, Equatable {
    var name: String
    @Migrated var watering: WateringSchedule
}
// end snippet
// end snippet

func loadHouseplants(from json: Data) throws -> [Houseplant] {
    // Reads [{"name": "Fern", "watering": 3}] and
    // [{"name": "Fern", "watering": {"everyDays": 3, "amountMillilitres": 250}}] alike.
    try JSONDecoder().decode([Houseplant].self, from: json)
}

struct PotSize: Codable, Hashable, MigrationTarget {
    var diameterCentimetres: Int

    init(diameterCentimetres: Int) {
        self.diameterCentimetres = diameterCentimetres
    }

    // Old documents said "small" or "large", or had no pot at all.
    init(migrateFrom label: String?) {
        switch label {
        case "small": diameterCentimetres = 12
        case "large": diameterCentimetres = 30
        default: diameterCentimetres = 18
        }
    }
}

// snippet: repotting
struct Repotting: Codable, Equatable {
    @Migrated var pot: PotSize  // missing or null: PotSize(migrateFrom: nil)
    @Migrated var previousPot: PotSize?  // missing or null: nil
}
// end snippet

struct PlantLabelV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var name: String  // "Monstera deliciosa (Swiss cheese plant)"
}

struct PlantLabel: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = PlantLabelV1
    var botanicalName: String
    var commonName: String?

    init(from old: PlantLabelV1) throws {
        let parts = old.name.components(separatedBy: " (")
        botanicalName = parts[0]
        commonName = parts.count > 1 ? String(parts[1].dropLast()) : nil
    }
}

struct GardenV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var plants: [String]
}

struct Garden: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = GardenV1
    var plants: [String]
    // Version 2 documents were written with "watering": 7 for a while, then with a schedule.
    @Migrated var watering: WateringSchedule

    init(plants: [String], watering: WateringSchedule) {
        self.plants = plants
        self.watering = watering
    }

    init(from old: GardenV1) throws {
        plants = old.plants
        watering = WateringSchedule(everyDays: 7, amountMillilitres: 500)
    }
}

// End of the article's code samples.

@Suite("Migrated property wrapper")
struct MigratedTests {
    /// `Houseplant` without the wrapper: what the document looked like before field migration
    /// was added, and what encoding must still produce.
    struct BareHouseplant: Codable {
        var name: String
        var watering: WateringSchedule
    }

    /// `Houseplant` as it was before the schedule type existed.
    struct OldHouseplant: Codable {
        var name: String
        var watering: Int
    }

    /// A value whose old shape, an integer in tenths, can also be read in the new shape, a
    /// number, so that the order of the attempts shows.
    struct Score: Codable, Hashable, MigrationTarget {
        var value: Double
        init(value: Double) { self.value = value }
        init(migrateFrom tenths: Int) { value = Double(tenths) / 10 }
        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Double.self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    struct Scored: Codable, Equatable {
        @Migrated var score: Score
    }

    /// A date that used to be stored as a year alone.
    struct PlantedOn: Codable, Equatable, MigrationTarget {
        var date: Date
        init(date: Date) { self.date = date }
        init(migrateFrom year: Int) {
            var components = DateComponents()
            components.year = year
            components.month = 1
            components.day = 1
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            date = calendar.date(from: components)!
        }
        init(from decoder: any Decoder) throws { date = try decoder.singleValueContainer().decode(Date.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(date)
        }
    }

    struct Planting: Codable, Equatable {
        @Migrated var plantedOn: PlantedOn
    }

    struct BarePlanting: Codable {
        var plantedOn: PlantedOn
    }

    struct NegativeDays: Error, Equatable {
        var days: Int
    }

    /// A schedule whose migration refuses some old values.
    struct StrictSchedule: Codable, Equatable, MigrationTarget {
        var everyDays: Int
        init(everyDays: Int) { self.everyDays = everyDays }
        init(migrateFrom everyDays: Int) throws {
            guard everyDays >= 0 else { throw NegativeDays(days: everyDays) }
            self.everyDays = everyDays
        }
    }

    struct StrictPlant: Codable, Equatable {
        @Migrated var watering: StrictSchedule
    }

    struct Greenhouse: Codable, Equatable {
        var plants: [Houseplant]
    }

    static let fern = Houseplant(
        name: "Fern",
        watering: WateringSchedule(everyDays: 3, amountMillilitres: 250)
    )
    static let cactus = Houseplant(
        name: "Cactus",
        watering: WateringSchedule(everyDays: 21, amountMillilitres: 50)
    )

    private static func sortedJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    @Test("a field in the current shape decodes as it is")
    func decodesCurrentShape() throws {
        let json = #"{"name": "Cactus", "watering": {"everyDays": 21, "amountMillilitres": 50}}"#
        let plant = try JSONDecoder().decode(Houseplant.self, from: Data(json.utf8))
        #expect(plant == Self.cactus)
    }

    @Test("a field in the old shape decodes and is migrated")
    func decodesOldShape() throws {
        let plant = try JSONDecoder().decode(
            Houseplant.self,
            from: Data(#"{"name": "Fern", "watering": 3}"#.utf8)
        )
        #expect(plant == Self.fern)
        #expect(plant.watering.amountMillilitres == 250)
    }

    @Test("the article's loading function reads both shapes in one array")
    func articleLoaderReadsBothShapes() throws {
        let json = #"""
            [{"name": "Fern", "watering": 3},
             {"name": "Cactus", "watering": {"everyDays": 21, "amountMillilitres": 50}}]
            """#
        #expect(try loadHouseplants(from: Data(json.utf8)) == [Self.fern, Self.cactus])
    }

    @Test("data that fits both shapes is read in the current shape")
    func currentShapeWins() throws {
        // 7 is a valid Double (current shape) and a valid Int in tenths (old shape).
        let scored = try JSONDecoder().decode(Scored.self, from: Data(#"{"score": 7}"#.utf8))
        #expect(scored.score.value == 7)
        // Only the old shape would have made 0.7 of it; a fraction is not an Int, so it is new.
        let fraction = try JSONDecoder().decode(Scored.self, from: Data(#"{"score": 0.5}"#.utf8))
        #expect(fraction.score.value == 0.5)
    }

    @Test("encoding writes the same JSON bytes as the property without the wrapper")
    func encodesLikeBareJSON() throws {
        let encoder = Self.sortedJSONEncoder()
        let wrapped = try encoder.encode(Self.fern)
        let bare = try encoder.encode(BareHouseplant(name: Self.fern.name, watering: Self.fern.watering))
        #expect(wrapped == bare)

        let object = try #require(try JSONSerialization.jsonObject(with: wrapped) as? [String: Any])
        let watering = try #require(
            object["watering"] as? [String: Any],
            "written as an object, not in an array"
        )
        #expect(watering["everyDays"] as? Int == 3)
        #expect(watering["amountMillilitres"] as? Int == 250)
        #expect(Set(object.keys) == ["name", "watering"])
    }

    @Test(
        "property lists: encoding matches the bare property and both shapes decode",
        arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary]
    )
    func propertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let wrapped = try encoder.encode(Self.fern)
        let bare = try encoder.encode(BareHouseplant(name: Self.fern.name, watering: Self.fern.watering))
        #expect(wrapped == bare)

        var readFormat = PropertyListSerialization.PropertyListFormat.openStep
        let plist = try PropertyListSerialization.propertyList(from: wrapped, format: &readFormat)
        #expect(readFormat == format)
        let watering = try #require((plist as? [String: Any])?["watering"] as? [String: Any])
        #expect(watering["everyDays"] as? Int == 3)

        let decoder = PropertyListDecoder()
        #expect(try decoder.decode(Houseplant.self, from: wrapped) == Self.fern)
        let old = try encoder.encode(OldHouseplant(name: "Fern", watering: 3))
        #expect(try decoder.decode(Houseplant.self, from: old) == Self.fern)
    }

    @Test("encoding and then decoding gives back the same value")
    func roundTrips() throws {
        let greenhouse = Greenhouse(plants: [Self.fern, Self.cactus])
        let data = try JSONEncoder().encode(greenhouse)
        #expect(try JSONDecoder().decode(Greenhouse.self, from: data) == greenhouse)
    }

    @Test("the coders' date strategies apply to the current shape")
    func strategiesApply() throws {
        let planting = Planting(plantedOn: PlantedOn(date: Date(timeIntervalSince1970: 1_700_000_000)))
        let encoder = Self.sortedJSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(planting)
        #expect(String(decoding: data, as: UTF8.self) == #"{"plantedOn":"2023-11-14T22:13:20Z"}"#)
        #expect(data == (try encoder.encode(BarePlanting(plantedOn: planting.plantedOn))))

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(Planting.self, from: data) == planting)
        // With ISO 8601 dates a bare year is not a date, so it is read as the old shape.
        let old = try decoder.decode(Planting.self, from: Data(#"{"plantedOn": 2019}"#.utf8))
        #expect(old.plantedOn.date == ISO8601DateFormatter().date(from: "2019-01-01T00:00:00Z"))
    }

    @Test("an error thrown by the migration reaches the caller unchanged")
    func migrationErrorPropagates() throws {
        #expect(throws: NegativeDays(days: -2)) {
            try JSONDecoder().decode(StrictPlant.self, from: Data(#"{"watering": -2}"#.utf8))
        }
        let plant = try JSONDecoder().decode(StrictPlant.self, from: Data(#"{"watering": 4}"#.utf8))
        #expect(plant.watering.everyDays == 4)
    }

    @Test("data in neither shape throws dataCorrupted with the coding path and both errors")
    func neitherShapeThrows() throws {
        let json = #"""
            {"plants": [{"name": "Fern", "watering": 3}, {"name": "Ivy", "watering": "weekly"}]}
            """#
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Greenhouse.self, from: Data(json.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == [
                "plants", "1", "watering",
            ]
        )
        let failure = try #require(context.underlyingError as? MigratedDecodingFailure)
        #expect(failure.currentShape == "WateringSchedule")
        #expect(failure.oldShape == "Int")
        #expect(failure.currentShapeError is DecodingError)
        #expect(failure.oldShapeError is DecodingError)
        #expect(context.debugDescription.contains("WateringSchedule"))
        #expect(context.debugDescription.contains("Int"))
    }

    @Test("values in an array and at the top level use the same two attempts")
    func unkeyedAndTopLevel() throws {
        let list = try JSONDecoder().decode(
            [Migrated<WateringSchedule>].self,
            from: Data(#"[3, {"everyDays": 21, "amountMillilitres": 50}]"#.utf8)
        )
        #expect(list.map(\.wrappedValue) == [Self.fern.watering, Self.cactus.watering])

        let single = try JSONDecoder().decode(Migrated<WateringSchedule>.self, from: Data("3".utf8))
        #expect(single.wrappedValue == Self.fern.watering)
        let encoded = try Self.sortedJSONEncoder().encode(Migrated(wrappedValue: Self.cactus.watering))
        #expect(encoded == (try Self.sortedJSONEncoder().encode(Self.cactus.watering)))
    }

    @Test("wrappers compare and hash by their values")
    func equatableAndHashable() {
        let three = Migrated(wrappedValue: WateringSchedule(everyDays: 3, amountMillilitres: 250))
        let same = Migrated(wrappedValue: WateringSchedule(everyDays: 3, amountMillilitres: 250))
        let other = Migrated(wrappedValue: WateringSchedule(everyDays: 4, amountMillilitres: 250))
        #expect(three == same)
        #expect(three != other)
        #expect(Set([three, same, other]).count == 2)
        #expect(three.hashValue == same.hashValue)
    }

    @Test("Codable conformances follow the value's")
    func conditionalConformances() {
        #expect((Migrated<WateringSchedule>.self as Any.Type) is any Decodable.Type)
        #expect((Migrated<WateringSchedule>.self as Any.Type) is any Encodable.Type)
        #expect((Migrated<WateringSchedule?>.self as Any.Type) is any Decodable.Type)
        // A value that is not a migration target can be written but not read.
        #expect((Migrated<String>.self as Any.Type) is any Encodable.Type)
        #expect(!((Migrated<String>.self as Any.Type) is any Decodable.Type))
        #expect(!((Migrated<Int?>.self as Any.Type) is any Decodable.Type))
        // A value that is not Codable at all leaves the wrapper with only the conformances it has.
        #expect(!((Migrated<NegativeDays>.self as Any.Type) is any Encodable.Type))
        #expect(!((Migrated<NegativeDays>.self as Any.Type) is any Hashable.Type))
        #expect((Migrated<NegativeDays>.self as Any.Type) is any Equatable.Type)
    }

    @Test("wrapped values can be decoded and encoded from other tasks")
    func sendable() async throws {
        let data = Data(#"[{"name": "Fern", "watering": 3}]"#.utf8)
        let plants = try await Task.detached {
            try loadHouseplants(from: data)
        }.value
        #expect(plants == [Self.fern])
        let wrapper = Migrated(wrappedValue: Self.cactus.watering)
        let encoded = try await Task.detached {
            try JSONEncoder().encode(wrapper)
        }.value
        #expect(try JSONDecoder().decode(WateringSchedule.self, from: encoded) == Self.cactus.watering)
    }

    // MARK: - Inside a version chain

    @Test("a version's field in the old shape migrates while decoding the version")
    func insideVersionChain() throws {
        let oldField = Data(#"{"version": 2, "plants": ["Fern"], "watering": 3}"#.utf8)
        let garden = try JSONDecoder().decode(versioned: Garden.self, from: oldField)
        #expect(garden == Garden(plants: ["Fern"], watering: Self.fern.watering))

        let newField = Data(
            #"{"version": 2, "plants": ["Ivy"], "watering": {"everyDays": 5, "amountMillilitres": 80}}"#.utf8
        )
        let ivy = try JSONDecoder().decode(versioned: Garden.self, from: newField)
        #expect(ivy.watering == WateringSchedule(everyDays: 5, amountMillilitres: 80))

        let versionOne = Data(#"{"version": 1, "plants": ["Moss"]}"#.utf8)
        let moss = try JSONDecoder().decode(versioned: Garden.self, from: versionOne)
        #expect(
            moss == Garden(plants: ["Moss"], watering: WateringSchedule(everyDays: 7, amountMillilitres: 500))
        )
    }

    @Test("a version with a migrated field is written with its version and the current shape")
    func versionedEncoding() throws {
        let garden = Garden(plants: ["Fern"], watering: Self.fern.watering)
        let data = try Self.sortedJSONEncoder().encode(versioned: garden)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == 2)
        let watering = try #require(object["watering"] as? [String: Any])
        #expect(watering["everyDays"] as? Int == 3)
        #expect(try JSONDecoder().decode(versioned: Garden.self, from: data) == garden)
    }

    /// The old-field version 2 document, written the way property lists write it.
    struct GardenWithDays: Codable {
        var version: Int
        var plants: [String]
        var watering: Int
    }

    @Test(
        "a version chain with a migrated field works with both property list formats",
        arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary]
    )
    func versionChainPropertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let decoder = PropertyListDecoder()

        let old = try encoder.encode(GardenWithDays(version: 2, plants: ["Fern"], watering: 3))
        #expect(
            try decoder.decode(versioned: Garden.self, from: old)
                == Garden(plants: ["Fern"], watering: Self.fern.watering)
        )

        let garden = Garden(plants: ["Cactus"], watering: Self.cactus.watering)
        let data = try encoder.encode(versioned: garden)
        #expect(try decoder.decode(versioned: Garden.self, from: data) == garden)
    }

    @Test("a change that needs a new version migrates through the chain")
    func articleNewVersionSample() throws {
        let label = try JSONDecoder().decode(
            versioned: PlantLabel.self,
            from: Data(#"{"version": 1, "name": "Monstera deliciosa (Swiss cheese plant)"}"#.utf8)
        )
        #expect(label.botanicalName == "Monstera deliciosa")
        #expect(label.commonName == "Swiss cheese plant")
        let bare = try JSONDecoder().decode(
            versioned: PlantLabel.self,
            from: Data(#"{"version": 1, "name": "Ficus lyrata"}"#.utf8)
        )
        #expect(bare.botanicalName == "Ficus lyrata")
        #expect(bare.commonName == nil)
    }

    // MARK: - The article

    @Test("every code sample in the FieldMigrations article is in this file verbatim")
    func articleSamplesCompile() throws {
        let thisFile = URL(fileURLWithPath: #filePath)
        let packageRoot = thisFile.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = packageRoot.appendingPathComponent(
            "Sources/VersionedCodable/VersionedCodable.docc/FieldMigrations.md"
        )
        let articleText = try String(contentsOf: article, encoding: .utf8)
        // The snippet markers that Scripts/sync-snippets.py reads are not part of the samples.
        let source = try String(contentsOf: thisFile, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return !code.hasPrefix("// snippet: ") && code != "// end snippet"
            }
            .joined(separator: "\n")

        var samples: [String] = []
        var current: [Substring]?
        for line in articleText.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                samples.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        #expect(current == nil, "a code block is not closed")
        #expect(samples.count >= 4)
        for sample in samples {
            #expect(source.contains(sample), "not in MigratedTests.swift:\n\(sample)")
        }
    }
}
