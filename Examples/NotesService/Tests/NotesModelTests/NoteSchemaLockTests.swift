import Foundation
import NotesModel
import Testing
import VersionedCodable
import VersionedCodableSchema

/// The notes' and attachments' shipped versions keep the shapes of their committed schema files:
/// a change to a version that clients and stored documents already have fails here, naming the
/// field. Run with `VERSIONED_CODABLE_RECORD=1` to write the files of a new version.
@Suite("The notes model's shipped versions are locked")
struct NoteSchemaLockTests {
    private static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Schemas", isDirectory: true)

    @Test("Every version of a note keeps the shape of its committed schema file")
    func notesLocked() throws {
        let report = try SchemaLock(folder: Self.schemas).check(VersionSchemas(for: Note.self))
        #expect(report.checked.count + report.recorded.count == NotesAPI.versions.count)
    }

    @Test("Every version of an attachment keeps the shape of its committed schema file")
    func attachmentsLocked() throws {
        let report = try SchemaLock(folder: Self.schemas).check(VersionSchemas(for: Attachment.self))
        #expect(report.checked.count + report.recorded.count == 2)
    }
}
