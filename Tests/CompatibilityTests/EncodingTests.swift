import Foundation
import Testing
import VersionedCodable

@Suite("Encoding with JSONEncoder writes the fields and the current version")
struct EncodingTests {
    @Test("The version is written beside the type's own keys")
    func versionBesideFields() throws {
        let poem = Poem(author: "Anonymous", poem: "An epicure", rating: .hate)
        let data = try JSONEncoder().encode(versioned: poem)
        let object = try jsonObject(data)
        #expect(Set(object.keys) == ["version", "author", "poem", "rating"])
        #expect(object["version"] as? Int == 3)
        #expect(object["rating"] as? String == "hate")
    }

    @Test("An encoded value decodes back equal")
    func roundTrip() throws {
        let poem = Poem(author: "Anonymous", poem: "An epicure\ndining at Crewe", rating: .love)
        let data = try JSONEncoder().encode(versioned: poem)
        #expect(try JSONDecoder().decode(versioned: Poem.self, from: data) == poem)
    }

    @Test("A value held as any VersionedCodable encodes with its own type's version")
    func existentialValue() throws {
        let values: [any VersionedCodable] = [
            Poem(author: "A", poem: "B", rating: .meh),
            Limerick(title: "T", lines: ["L"]),
        ]
        let versions = try values.map { try jsonObject(JSONEncoder().encode(versioned: $0))["version"] as? Int }
        #expect(versions == [3, 1])
    }

    @Test("An older type encodes with its own version")
    func olderTypeVersion() throws {
        let data = try JSONEncoder().encode(versioned: PoemV1(author: "Anonymous", poem: ["a", "b"]))
        let object = try jsonObject(data)
        #expect(object["version"] as? Int == 1)
        #expect(object["poem"] as? [String] == ["a", "b"])
    }

    @Test("A nil-version type writes no version, so it reads back as the nil version")
    func nilVersionWritesNothing() throws {
        let data = try JSONEncoder().encode(versioned: LimerickPreV1(lines: ["Only line"]))
        let object = try jsonObject(data)
        #expect(object["lines"] as? [String] == ["Only line"])
        #expect(object["version"] == nil || object["version"] is NSNull)
        #expect(try JSONDecoder().decode(versioned: Limerick.self, from: data).title == "Only line")
    }

    @Test("The encoder's key strategy applies to the fields")
    func encoderStrategiesApply() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(versioned: PoemV2(from: PoemV1(author: "A", poem: ["x"])))
        let object = try jsonObject(data)
        #expect(object["star_rating"] as? Int == 3)
        #expect(object["version"] as? Int == 2)
    }
}
