import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI
import VersionedCodableSchema

/// The OpenAPI document of each API version, as the article serves it.
@Suite("OpenAPI documents: each API version's schemas at the versions it shows")
struct OpenAPIDocumentTests {
    static let contact = OpenAPIDocument.componentName(of: Contact.self)
    static let address = OpenAPIDocument.componentName(of: Address.self)

    /// The constant a component's `version` property holds.
    static func versionConstant(_ schema: JSONSchema?) -> JSONValue? {
        schema?.properties?["version"]?.constValue
    }

    @Test("Each document is OpenAPI 3.1 and holds every type at the version its API version shows")
    func shape() throws {
        let versions = try ContactAPI.versions()
        let documents = try versions.openAPIDocuments(of: [Contact.self], title: "Contacts")
        #expect(documents.keys.sorted() == ["2025-01-01", "2025-09-01", "2026-06-01"])
        let expected: [String: (contact: Int, address: Int)] = [
            "2025-01-01": (1, 1), "2025-09-01": (2, 1), "2026-06-01": (3, 2),
        ]
        for (name, document) in documents {
            #expect(document.openapi == "3.1.0")
            #expect(document.info == .init(title: "Contacts", version: name))
            #expect(document.jsonSchemaDialect == "https://json-schema.org/draft/2020-12/schema")
            #expect(document.components.schemas.keys.sorted() == [Self.address, Self.contact])
            let schemas = document.components.schemas
            #expect(Self.versionConstant(schemas[Self.contact]) == .number(Decimal(expected[name]!.contact)))
            #expect(Self.versionConstant(schemas[Self.address]) == .number(Decimal(expected[name]!.address)))
            // References point into the document's components, as OpenAPI resolves them.
            let text = String(decoding: try document.jsonData(), as: UTF8.self)
            #expect(!text.contains("$defs"))
            #expect(!text.contains("\"$schema\""))
            #expect(try JSONDecoder().decode(OpenAPIDocument.self, from: document.jsonData()) == document)
        }
        // Version 1 of the contact has no addresses; from version 2 on, each refers to the
        // address's component.
        let middle = try #require(documents["2025-09-01"]?.components.schemas[Self.contact])
        #expect(middle.properties?["addresses"]?.items?.ref == "#/components/schemas/Address")
        #expect(documents["2025-01-01"]?.components.schemas[Self.contact]?.properties?["addresses"] == nil)
        #expect(
            try versions.openAPIDocument(at: "2025-09-01", of: [Contact.self], title: "Contacts")
                == documents["2025-09-01"]
        )
    }

    @Test("Every response an API version writes validates against its own document, and not against another's")
    func responsesValidate() throws {
        let versions = try ContactAPI.versions()
        // snippet: openapi-validate
        let documents = try versions.openAPIDocuments(of: [Contact.self], title: "Contacts")
        for version in versions.versions {
            let body = try versions.encode(ContactAPI.stored, at: version)
            let document = try #require(documents[version.name])
            let problems = try document.violations(in: body, of: OpenAPIDocument.componentName(of: Contact.self))
            #expect(problems.isEmpty, "\(problems)")
        }
        // end snippet
        let newest = try versions.encode(ContactAPI.stored, at: "2026-06-01")
        let problems = try #require(documents["2025-01-01"]).violations(in: newest, of: Self.contact)
        #expect(problems.contains(SchemaViolation(path: "$.version", message: "expected 1, found 3")))
    }

    @Test("A response that does not validate is reported at each place it breaks the schema")
    func invalidResponseReported() throws {
        let versions = try ContactAPI.versions()
        let document = try versions.openAPIDocument(at: "2025-09-01", of: [Contact.self], title: "Contacts")
        var object =
            try JSONSerialization.jsonObject(with: versions.encode(ContactAPI.stored, at: "2025-09-01"))
            as! [String: Any]
        object["nickname"] = "Em"
        object["email"] = nil
        var addresses = object["addresses"] as! [[String: Any]]
        addresses[0]["version"] = 2
        object["addresses"] = addresses
        let body = try JSONSerialization.data(withJSONObject: object)
        let problems = try document.violations(in: body, of: Self.contact)
        #expect(
            Set(problems) == [
                SchemaViolation(path: "$", message: "missing required key \"email\""),
                SchemaViolation(path: "$.nickname", message: "the key is not allowed"),
                SchemaViolation(path: "$.addresses[0].version", message: "expected 1, found 2"),
            ]
        )
    }

    @Test("Responses written without their root's version are described without it; parts keep theirs")
    func withoutVersionKey() throws {
        let versions = try ContactAPI.versions(versionKeyInResponses: false)
        let documents = try versions.openAPIDocuments(of: [Contact.self], title: "Contacts")
        for version in versions.versions {
            let document = try #require(documents[version.name])
            #expect(document.components.schemas[Self.contact]?.properties?["version"] == nil)
            #expect(document.components.schemas[Self.address]?.required?.contains("version") == true)
            let body = try versions.encode(ContactAPI.stored, at: version)
            #expect(try document.violations(in: body, of: Self.contact).isEmpty)
        }
    }

    @Test("A version that declares older builds may read it is described with that declaration, as it is written")
    func declarationOfOlderBuilds() throws {
        let versions = try APIVersions(
            [APIVersion(1).showing(Memo.self, asVersion: 1), APIVersion(2)],
            defaultVersion: 1
        )
        let documents = try versions.openAPIDocuments(of: [Memo.self], title: "Memos")
        let memo = OpenAPIDocument.componentName(of: Memo.self)
        let newest = try #require(documents["2"]?.components.schemas[memo])
        // As the derivation allows it: from the oldest version whose builds read it, to its own.
        #expect(newest.properties?["versionReadableFrom"] == JSONSchema(type: "integer").withMinimum(1).withMaximum(2))
        #expect(newest.required?.contains("versionReadableFrom") == true)
        #expect(documents["1"]?.components.schemas[memo]?.properties?["versionReadableFrom"] == nil)
        let value = Memo(text: "milk", pinned: true)
        for version in versions.versions {
            let body = try versions.encode(value, at: version)
            #expect(try #require(documents[version.name]).violations(in: body, of: memo).isEmpty)
        }
        #expect(String(decoding: try versions.encode(value, at: "2"), as: UTF8.self).contains("versionReadableFrom"))
    }

    @Test("An undeclared API version, an unknown component and a dangling reference each get an error naming them")
    func badInput() throws {
        let versions = try ContactAPI.versions()
        #expect(
            throws: OpenAPIDocumentError.unknownAPIVersion(
                "2024-01-01",
                served: ["2025-01-01", "2025-09-01", "2026-06-01"]
            )
        ) {
            try versions.openAPIDocument(at: "2024-01-01", of: [Contact.self], title: "Contacts")
        }
        #expect(
            "\(OpenAPIDocumentError.unknownAPIVersion("2024-01-01", served: ["2025-01-01"]))"
                == "API version 2024-01-01 is not declared; the versions are 2025-01-01"
        )
        let document = try versions.openAPIDocument(at: "2026-06-01", of: [Contact.self], title: "Contacts")
        #expect(throws: OpenAPIDocumentError.unknownComponent("Note", available: ["Address", "Contact"])) {
            try document.violations(in: Data("{}".utf8), of: "Note")
        }
        var dangling = document
        dangling.components.schemas[Self.address] = nil
        #expect(throws: OpenAPIDocumentError.danglingReference("#/components/schemas/Address", in: "Contact")) {
            try dangling.schema(named: Self.contact)
        }
        #expect(throws: (any Error).self) {
            try document.violations(in: Data("not json".utf8), of: Self.contact)
        }
    }

    @Test("The description links each API version's document when asked to")
    func descriptionLinks() throws {
        let versions = try ContactAPI.versions()
        // snippet: api-versions-description-links
        let page = versions.describe(linkingSchemas: { "/openapi/v\($0.name).json" }).markdown
        // end snippet
        #expect(
            page.contains("## 2025-09-01 (default)\n\nSchemas: [OpenAPI 3.1 components](/openapi/v2025-09-01.json)\n")
        )
        let described = versions.describe(linkingSchemas: { "/openapi/v\($0.name).json" })
        #expect(described.versions.map(\.schemas) == versions.versions.map { "/openapi/v\($0.name).json" })
        #expect(
            try JSONDecoder().decode(APIVersionsDescription.self, from: JSONEncoder().encode(described)) == described
        )
        #expect(versions.describe().versions.allSatisfy { $0.schemas == nil })
        #expect(!versions.describe().markdown.contains("Schemas:"))
    }

    @Test("The article's sample writes a document")
    func articleSample() throws {
        let versions = try ContactAPI.versions()
        // snippet: openapi-document
        let document = try versions.openAPIDocument(at: "2025-09-01", of: [Contact.self], title: "Contacts")
        let json = try document.jsonData()
        // end snippet
        #expect(try JSONDecoder().decode(OpenAPIDocument.self, from: json).info.version == "2025-09-01")
    }
}

/// A memo whose second version only adds a field and declares that builds of the first may read
/// it: its documents name those builds beside the version.
struct MemoV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var text: String
}

struct Memo: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = MemoV1
    var text: String
    var pinned: Bool

    init(text: String, pinned: Bool) {
        self.text = text
        self.pinned = pinned
    }

    init(from old: MemoV1) {
        self.init(text: old.text, pinned: false)
    }

    func downgraded() -> MemoV1 {
        MemoV1(text: text)
    }
}

extension JSONSchema {
    fileprivate func withMinimum(_ minimum: Decimal) -> JSONSchema {
        var schema = self
        schema.minimum = minimum
        return schema
    }

    fileprivate func withMaximum(_ maximum: Decimal) -> JSONSchema {
        var schema = self
        schema.maximum = maximum
        return schema
    }
}
