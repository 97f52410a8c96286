import Foundation
import Testing
import VersionedCodable
import VersionedCodableSchema

@Suite("What the derivation cannot see, it says, and it always ends")
struct DerivationLimitsTests {
    @Test("A type whose init(from:) throws on the recording decoder is marked incomplete and left open")
    func throwingType() throws {
        let schema = try #require(VersionSchemas(for: RefusingDocument.self)[1])
        let refusing = try #require(schema.properties?["refusing"])
        #expect(refusing.isIncomplete)
        #expect(
            refusing.description?.contains("Refusing's init(from:) threw on the recording decoder: refused") == true
        )
        #expect(refusing.properties?["text"]?.type == ["string"])
        #expect(schema.isIncomplete)
        #expect(schema.description?.contains("stopped at refusing") == true)
        #expect(schema.additionalProperties == nil)
        #expect(schema.properties?["before"] != nil)
        // The field after the stop is unknown: the open root still accepts it.
        let document = Data(#"{"version": 1, "before": "a", "refusing": {"text": "b"}, "after": "c"}"#.utf8)
        #expect(try schema.violations(in: document).isEmpty)
    }

    @Test("Code that branches on a value it read is marked incomplete at the fields where it differs")
    func branchingCode() throws {
        let schema = try #require(VersionSchemas(for: Figure.self)[1])
        #expect(schema.isIncomplete)
        #expect(schema.description?.contains("reads differently for different values at radius, side") == true)
        #expect(schema.additionalProperties == nil)
        #expect(schema.properties?["kind"]?.enumValues == [.string("circle"), .string("square")])
    }

    @Test("An enum that does not list its raw values is a string with a note, not a guessed list")
    func unlistedEnum() throws {
        let schema = try #require(VersionSchemas(for: Diary.self)[1])
        let mood = try #require(schema.properties?["mood"])
        #expect(mood.type == ["string"])
        #expect(mood.enumValues == nil)
        #expect(mood.description?.contains("conform it to CaseIterable") == true)
    }

    @Test("A declared list of raw values is checked against the type's own code, and only accepted ones are claimed")
    func declaredRawValues() throws {
        let schema = try #require(VersionSchemas(for: Forecast.self)[1])
        #expect(!schema.isIncomplete)
        let weather = try #require(schema.properties?["weather"])
        #expect(weather.enumValues == [.string("sun"), .string("rain"), .string("sunny")])
        #expect(weather.violations(of: .string("sunny")).isEmpty)
        #expect(weather.violations(of: .string("hail")).count == 1)
        let season = try #require(schema.properties?["season"])
        #expect(season.enumValues == [.number(1), .number(2)])
        #expect(season.description == "Season lists 3, which its init(from:) refuses: not allowed")
        // What the schema allows, the type's code reads.
        for value in ["sun", "rain", "sunny"] {
            let data = Data(#"{"version": 1, "weather": "\#(value)", "season": 2}"#.utf8)
            #expect(try schema.violations(in: data).isEmpty)
            #expect(throws: Never.self) { try JSONDecoder().decode(versioned: Forecast.self, from: data) }
        }
    }

    @Test("An enum with associated values is marked incomplete, and the fields before it are kept")
    func enumWithAssociatedValues() throws {
        let schema = try #require(VersionSchemas(for: Receipt.self)[1])
        #expect(schema.isIncomplete)
        #expect(schema.description?.contains("stopped at payment") == true)
        #expect(schema.properties?["total"]?.type == ["integer"])
        #expect(schema.properties?["payment"]?.isIncomplete == true)
    }

    @Test("A type that contains itself, through an optional, an array and a dictionary, is one definition")
    func recursion() throws {
        let schema = try #require(VersionSchemas(for: OutlineDocument.self)[1])
        #expect(!schema.isIncomplete)
        #expect(schema.properties?["outline"]?.ref == "#/$defs/Outline")
        #expect(schema.properties?["appendix"]?.ref == "#/$defs/Outline")
        let outline = try #require(schema.definitions?["Outline"])
        #expect(outline.properties?["children"]?.items?.ref == "#/$defs/Outline")
        #expect(outline.properties?["index"]?.additionalProperties?.ref == "#/$defs/Outline")
        #expect(outline.properties?["next"]?.anyOf?.first?.ref == "#/$defs/Outline")
        #expect(outline.required == ["children", "heading", "index"])
        let document = Data(
            #"""
            {"version": 1,
             "outline": {"heading": "a", "children": [{"heading": "b", "children": [], "index": {}, "next": null}],
                         "index": {"x": {"heading": "c", "children": [], "index": {}}}},
             "appendix": {"heading": "d", "children": [], "index": {}}}
            """#.utf8
        )
        #expect(try schema.violations(in: document).isEmpty)
        let damaged = Data(
            #"{"version": 1, "outline": {"heading": "a", "children": [{"heading": 2}], "index": {}}, "appendix": {"heading": "d", "children": [], "index": {}}}"#
                .utf8
        )
        let problems = try schema.violations(in: damaged).map(\.description)
        #expect(problems.contains(#"$.outline.children[0].heading: expected string, found integer 2"#))
        #expect(problems.contains(#"$.outline.children[0]: missing required key "children""#))
    }

    @Test("A versioned part of the document's own type refers to the root")
    func partOfItsOwnType() throws {
        let schema = try #require(VersionSchemas(for: Thread.self)[1])
        #expect(!schema.isIncomplete)
        #expect(schema.properties?["replies"]?.items?.ref == "#/$defs/Versioned.Thread")
        #expect(schema.definitions.map { Array($0.keys) } == ["Versioned.Thread"])
        #expect(schema.definitions?["Versioned.Thread"]?.anyOf?.first?.ref == "#")
        let document = Data(
            #"{"version": 1, "text": "a", "replies": [{"version": 1, "text": "b", "replies": []}]}"#.utf8
        )
        #expect(try schema.violations(in: document).isEmpty)
        let damaged = Data(
            #"{"version": 1, "text": "a", "replies": [{"version": 2, "text": "b", "replies": []}]}"#.utf8
        )
        #expect(
            try schema.violations(in: damaged).map(\.description) == [
                "$.replies[0]: matches none of the allowed schemas; the closest fails at "
                    + "$.replies[0].version: expected 1, found 2"
            ]
        )
    }

    @Test("A chain of fifty versions gives fifty schemas, each with its own version")
    func longChain() throws {
        let schemas = VersionSchemas(for: FiftySteps.self)
        #expect(schemas.schemas.count == 51)
        #expect(schemas.schemas.map(\.version) == (0...50).reversed().map { $0 })
        for schema in schemas.schemas {
            #expect(schema.schema.properties?["version"]?.constValue == .number(Decimal(schema.version!)))
            #expect(!schema.schema.isIncomplete)
        }
    }
}
