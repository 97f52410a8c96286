import Foundation
import Testing
import VersionedCodable
import VersionedCodableSchema

@testable import PoemHistory

@Suite("A schema for every version, from what its decoding code reads")
struct SchemaDerivationTests {
    @Test("Every version of the chain has a schema, newest first, with its file name")
    func everyVersionHasASchema() {
        let schemas = VersionSchemas(for: Poem.self)
        #expect(schemas.typeName == "Poem")
        #expect(schemas.schemas.map(\.version) == [4, 3, 2, 1, nil])
        #expect(
            schemas.schemas.map(\.fileName) == [
                "v4.schema.json", "v3.schema.json", "v2.schema.json", "v1.schema.json", "unversioned.schema.json",
            ]
        )
        #expect(schemas[4]?.dialect == "https://json-schema.org/draft/2020-12/schema")
        #expect(schemas[4]?.title == "Poem version 4")
        #expect(schemas[9] == nil)
    }

    @Test("The schemas are written one file per version, named as the fixtures are")
    func writtenPerVersion() throws {
        let folder = try SourceFolders.temporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        // snippet: schema-derive
        let schemas = VersionSchemas(for: Poem.self, decoder: JSONDecoder())
        for version in schemas.schemas {
            try version.schema.jsonData().write(to: folder.appendingPathComponent(version.fileName))
        }
        // end snippet
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(
            names == [
                "unversioned.schema.json", "v1.schema.json", "v2.schema.json", "v3.schema.json", "v4.schema.json",
            ]
        )
    }

    @Test("Decoded keys are required, nested types are objects, and the version is a constant at the root")
    func currentVersionShape() throws {
        let schema = try #require(VersionSchemas(for: Poem.self)[4])
        #expect(schema.required == ["author", "stanzas", "stars", "title", "version"])
        #expect(schema.additionalProperties == .false)
        #expect(schema.properties?["version"]?.constValue == .number(4))
        let author = try #require(schema.properties?["author"])
        #expect(author.type == ["object"])
        #expect(author.required == ["name"])
        #expect(author.properties?["born"]?.type == ["integer", "null"])
        #expect(schema.properties?["stanzas"]?.items?.items?.type == ["string"])
        let stars = try #require(schema.properties?["stars"])
        #expect(stars.minimum == Decimal(string: String(Int.min)))
        #expect(stars.maximum == Decimal(string: String(Int.max)))
    }

    @Test("A key read with decodeIfPresent is optional and may be null")
    func optionalKey() throws {
        let schema = try #require(VersionSchemas(for: Poem.self)[3])
        #expect(schema.required?.contains("title") == false)
        #expect(schema.properties?["title"]?.type == ["string", "null"])
    }

    @Test("The version before versioning has no version, or a null one")
    func unversioned() throws {
        let schema = try #require(VersionSchemas(for: Poem.self)[nil])
        #expect(schema.required == ["author", "lines"])
        #expect(schema.properties?["version"]?.type == ["null"])
    }

    @Test("A spec's place for the version is found by writing the spec: _metadata.version")
    func customSpec() throws {
        let schema = try #require(VersionSchemas(for: Note.self)[2])
        let metadata = try #require(schema.properties?["_metadata"])
        #expect(metadata.properties?["version"]?.constValue == .number(2))
        #expect(metadata.required == ["version"])
        #expect(schema.required == ["_metadata", "text"])
    }

    @Test("Strategies, listed enums, dictionaries and versioned parts follow the JSON coders' defaults")
    func kindsOfValues() throws {
        let schema = try #require(VersionSchemas(for: Catalogue.self)[1])
        let properties = try #require(schema.properties)
        #expect(properties["createdAt"]?.type == ["number"])
        #expect(properties["createdAt"]?.description?.contains("deferredToDate") == true)
        #expect(properties["thumbnail"]?.contentEncoding == "base64")
        #expect(properties["homePage"]?.format == "uri")
        #expect(properties["identifier"]?.format == "uuid")
        #expect(properties["price"]?.type == ["number"])
        #expect(properties["shelf"]?.enumValues == [.string("top"), .string("middle"), .string("bottom")])
        #expect(properties["floor"]?.enumValues == [.number(0), .number(1), .null])
        #expect(properties["counts"]?.additionalProperties?.type == ["integer"])
        #expect(properties["byte"]?.maximum == 255)
        #expect(properties["total"]?.minimum == 0)
        #expect(properties["total"]?.maximum == Decimal(string: "18446744073709551615"))
        #expect(properties["kind"]?.type == ["string"])
        #expect(properties["kind"]?.enumValues == nil)
        #expect(
            properties["kind"]?.description
                == #"an open enum: known values "top", "middle", "bottom"; any other value is kept"#
        )
        #expect(properties["lead"]?.ref == "#/$defs/Versioned.Note")
        #expect(properties["others"]?.items?.ref == "#/$defs/Versioned.Note")
        #expect(schema.definitions?["Versioned.Note"]?.anyOf?.first?.ref == "#/$defs/Note")
        let note = try #require(schema.definitions?["Note"])
        #expect(note.properties?["_metadata"]?.properties?["version"]?.constValue == .number(2))
    }

    @Test("The decoder's date and data strategies change the schema")
    func decoderStrategies() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .deferredToData
        let properties = try #require(VersionSchemas(for: Catalogue.self, decoder: decoder)[1]?.properties)
        #expect(properties["createdAt"]?.format == "date-time")
        #expect(properties["thumbnail"]?.items?.maximum == 255)
    }

    @Test("Under convertFromString, a number may also be the decoder's names for infinities and NaN")
    func nonConformingFloats() throws {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan"
        )
        let ratio = try #require(VersionSchemas(for: Catalogue.self, decoder: decoder)[1]?.properties?["ratio"])
        #expect(ratio.violations(of: .number(1.5)).isEmpty)
        #expect(ratio.violations(of: .string("inf")).isEmpty)
        #expect(ratio.violations(of: .string("infinity")).count == 1)
    }

    @Test("Keys are written as convertFromSnakeCase reads them, and a key it cannot reach is noted")
    func snakeCaseKeys() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let schema = try #require(VersionSchemas(for: Profile.self, decoder: decoder)[1])
        #expect(schema.properties?["display_name"] != nil)
        #expect(schema.isIncomplete)
        #expect(schema.description?.contains("homeURL") == true)
    }

    @Test("A custom key strategy is asked which document key reaches each coding key")
    func customKeyStrategy() throws {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let words = path.last!.stringValue.split(separator: "_")
            let name = words.enumerated().map { $0.offset == 0 ? $0.element.lowercased() : $0.element.capitalized }
            return Key(stringValue: name.joined())
        }
        let schema = try #require(VersionSchemas(for: Profile.self, decoder: decoder)[1])
        #expect(schema.properties?["display_name"] != nil)
        #expect(schema.properties?["homeURL"] != nil)
        #expect(
            schema.description?.contains("the custom key decoding strategy maps no obvious key to `homeURL`") == true
        )
    }

    @Test("The same derivation gives the same bytes, with sorted keys")
    func stableOutput() throws {
        let first = try VersionSchemas(for: Catalogue.self)[1]!.jsonData()
        let second = try VersionSchemas(for: Catalogue.self)[1]!.jsonData()
        #expect(first == second)
        let decoded = try JSONDecoder().decode(JSONSchema.self, from: first)
        #expect(decoded == VersionSchemas(for: Catalogue.self)[1])
    }

    @Test("A type declared in a function is named without its context's address")
    func localTypeNames() throws {
        struct Point: Codable { var x: Int }
        struct Route: VersionedCodable {
            static var version: Int? { 1 }
            typealias PreviousVersion = NothingEarlier
            var start: Point
            var end: Point
        }
        let schema = try #require(VersionSchemas(for: Route.self)[1])
        #expect(schema.definitions.map { Array($0.keys) } == ["SchemaDerivationTests.Point"])
        #expect(schema.properties?["start"]?.ref == "#/$defs/SchemaDerivationTests.Point")
    }

    @Test("Derivations from many tasks at once give the same schemas")
    func concurrentDerivations() async {
        let expected = VersionSchemas(for: Catalogue.self).schemas
        let results = await withTaskGroup(of: [VersionSchema].self) { group in
            for index in 0..<8 {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? VersionSchemas(for: Catalogue.self).schemas
                        : (VersionSchemas(for: Note.self), VersionSchemas(for: Catalogue.self)).1.schemas
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
    }

    @Test("The public types cross into a detached task")
    func sendable() async throws {
        let schemas = await Task.detached { VersionSchemas(for: Poem.self) }.value
        let lock = SchemaLock(folder: SourceFolders.schemas)
        let report = try await Task.detached { try lock.check(schemas, recording: false) }.value
        #expect(report.checked.count == 5)
    }
}
