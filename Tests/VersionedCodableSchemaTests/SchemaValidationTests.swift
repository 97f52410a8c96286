import Foundation
import Testing
import VersionedCodable
import VersionedCodableSchema

@testable import PoemHistory

@Suite("Every fixture validates against its version's schema, and damaged documents do not")
struct SchemaValidationTests {
    static let schemas = VersionSchemas(for: Poem.self)

    /// The version a fixture's name gives: `v3-no-title.json` is version 3.
    static func version(ofFixture name: String) -> Int? {
        guard name.hasPrefix("v") else { return nil }
        return Int(name.dropFirst().prefix { $0.isNumber })
    }

    static let fixtureNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: SourceFolders.poemFixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test("There are JSON fixtures of every version")
    func fixturesFound() {
        let versions = Set(Self.fixtureNames.map(Self.version(ofFixture:)))
        #expect(versions == Set(Self.schemas.schemas.map(\.version)))
    }

    @Test("Each Poem fixture validates against its version's schema", arguments: fixtureNames)
    func fixtureValidates(name: String) throws {
        let schema = try #require(Self.schemas[Self.version(ofFixture: name)])
        let data = try Data(contentsOf: SourceFolders.poemFixtures.appendingPathComponent(name))
        // snippet: schema-validate
        let problems = try schema.violations(in: data)
        #expect(problems.isEmpty, "\(name): \(problems)")
        // end snippet
    }

    @Test("A fixture does not validate against another version's schema")
    func fixtureAgainstOtherVersion() throws {
        let data = try Data(contentsOf: SourceFolders.poemFixtures.appendingPathComponent("v4.json"))
        let problems = try #require(Self.schemas[3]).violations(in: data).map(\.description)
        #expect(problems.contains("$.version: expected 3, found 4"))
    }

    @Test(
        "Damaged documents fail with the path of the damage",
        arguments: [
            (
                #"{"version": 4, "author": {"name": "A"}, "title": "T", "stanzas": [["a"]]}"#,
                #"$: missing required key "stars""#
            ),
            (
                #"{"version": 4, "author": {"name": "A"}, "title": "T", "stanzas": [["a", 2]], "stars": 1}"#,
                "$.stanzas[0][1]: expected string, found integer 2"
            ),
            (
                #"{"version": 4, "author": {"name": "A", "born": "1800"}, "title": "T", "stanzas": [], "stars": 1}"#,
                #"$.author.born: expected integer or null, found string "1800""#
            ),
            (
                #"{"version": 4, "author": {"name": "A"}, "title": "T", "stanzas": [], "stars": 1.5}"#,
                "$.stars: expected integer, found number 1.5"
            ),
            (
                #"{"version": 4, "author": {"name": "A"}, "title": "T", "stanzas": [], "stars": 1e30}"#,
                "$.stars: 1000000000000000000000000000000 is above the maximum 9223372036854775807"
            ),
            (
                #"{"version": 4, "author": {"name": "A"}, "title": "T", "stanzas": [], "stars": 1, "rating": "love"}"#,
                "$.rating: the key is not allowed"
            ),
            (
                #"{"version": "4", "author": {"name": "A"}, "title": "T", "stanzas": [], "stars": 1}"#,
                #"$.version: expected integer, found string "4""#
            ),
            (#"[1, 2]"#, "$: expected object, found array [1,2]"),
        ]
    )
    func damagedDocument(document: String, expected: String) throws {
        let problems = try #require(Self.schemas[4]).violations(in: Data(document.utf8)).map(\.description)
        #expect(problems.contains(expected), "\(problems)")
    }

    @Test("A listed enum refuses a value it does not list, and a null where it is not allowed")
    func listedEnum() throws {
        let schema = try #require(VersionSchemas(for: Catalogue.self)[1])
        let shelf = try #require(schema.properties?["shelf"])
        #expect(shelf.violations(of: .string("middle")).isEmpty)
        #expect(
            shelf.violations(of: .string("attic")).map(\.message) == [
                #"expected one of "top", "middle", "bottom", found "attic""#
            ]
        )
        #expect(shelf.violations(of: .null).count == 1)
        #expect(try #require(schema.properties?["floor"]).violations(of: .null).isEmpty)
    }

    @Test("Integer bounds are exact at the edges of UInt64")
    func integerBounds() throws {
        let total = try #require(VersionSchemas(for: Catalogue.self)[1]?.properties?["total"])
        let largest = try JSONDecoder().decode(JSONValue.self, from: Data("18446744073709551615".utf8))
        let beyond = try JSONDecoder().decode(JSONValue.self, from: Data("18446744073709551616".utf8))
        #expect(total.violations(of: largest).isEmpty)
        #expect(
            total.violations(of: beyond).map(\.message) == [
                "18446744073709551616 is above the maximum 18446744073709551615"
            ]
        )
        #expect(total.violations(of: .number(-1)).count == 1)
    }

    @Test("A document that is not JSON throws rather than passing")
    func notJSON() throws {
        #expect(throws: (any Error).self) {
            try Self.schemas[4]!.violations(in: Data("not json".utf8))
        }
    }
}
