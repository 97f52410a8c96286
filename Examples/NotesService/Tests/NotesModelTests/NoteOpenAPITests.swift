import Foundation
import NotesModel
import Testing
import VersionedCodable
import VersionedCodableAPI
import VersionedCodableSchema

/// The OpenAPI documents the service serves, checked without a database: what each API
/// version answers validates against its own document, and not against an older one's.
@Suite("The notes API's OpenAPI documents")
struct NoteOpenAPITests {
    static let note = OpenAPIDocument.componentName(of: Note.self)

    @Test("Every API version's answer, captions and checklist included, validates against its document")
    func answersValidate() throws {
        let versions = try NotesAPI.makeAPIVersions()
        let documents = try versions.openAPIDocuments(of: [Note.self], title: NotesAPI.openAPITitle)
        #expect(documents.keys.sorted() == ["1", "2", "3"])
        var captioned = NoteCompatibilityTests.sample
        captioned.attachments[0].wrappedValue.caption = "the plan"
        for version in versions.versions {
            let document = try #require(documents[version.name])
            for note in [captioned, NoteCompatibilityTests.sampleOfVersion2] {
                let body = try versions.encode(note, at: version)
                let problems = try document.violations(in: body, of: Self.note)
                #expect(problems.isEmpty, "API version \(version): \(problems)")
            }
        }
    }

    @Test("An answer of API version 3 breaks the documents of versions 1 and 2, naming where")
    func newerAnswerRefused() throws {
        let versions = try NotesAPI.makeAPIVersions()
        let documents = try versions.openAPIDocuments(of: [Note.self], title: NotesAPI.openAPITitle)
        let body = try versions.encode(NoteCompatibilityTests.sample, at: "3")
        for name in ["1", "2"] {
            let problems = try #require(documents[name]).violations(in: body, of: Self.note)
            #expect(problems.contains { $0.path == "$.version" }, "API version \(name): \(problems)")
            #expect(problems.contains { $0.path == "$.pinned" }, "API version \(name): \(problems)")
        }
    }

    @Test("The description links each API version's document where the service serves it")
    func descriptionLinks() throws {
        let versions = try NotesAPI.makeAPIVersions()
        let page = versions.describe(linkingSchemas: NotesAPI.openAPIPath(of:)).markdown
        for name in ["1", "2", "3"] {
            #expect(page.contains("Schemas: [OpenAPI 3.1 components](/openapi/v\(name).json)"))
        }
    }
}
