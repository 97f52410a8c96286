import Foundation
import NotesModel
import NotesModelPrevious
import Testing
import VersionedCodable

/// The old build's model, compiled from the same files without `NOTES_NEXT`, beside the new
/// one's: what each reads of what the other stores while both run.
typealias OldNote = NotesModelPrevious.Note

@Suite("Old and new builds on the same notes")
struct OldBuildTests {
    /// What the new build stores while old instances run, and once they are gone.
    static let beside = NotesModel.NotesAPI.storage(whileOldestBuildKnows: 2)
    static let after = NotesModel.NotesAPI.storage(whileOldestBuildKnows: 3)

    static let sample = NoteCompatibilityTests.sample

    static func oldBuildReads(_ document: Data) throws -> Versioned<OldNote> {
        try JSONDecoder().decode(Versioned<OldNote>.self, from: document)
    }

    @Test("The old build edits a version 3 note the new build stores beside it, and keeps what it does not know")
    func oldBuildEditsVersion3() throws {
        let stored = try Self.beside.encoder.encode(versioned: Self.sample)

        var read = try Self.oldBuildReads(stored)
        #expect(read.storedVersion == 3)
        #expect(read.isFromNewerVersion)
        #expect(
            read.wrappedValue.attachments.map(\.wrappedValue) == [
                NotesModelPrevious.AttachmentV1(name: "plan.txt", url: "https://example.com/plan.txt")
            ]
        )
        read.wrappedValue.title = "Rollout, done"
        read.wrappedValue.tags.append("done")

        let written = try JSONEncoder().encode(read)
        let back = try JSONDecoder().decodeWithStoredVersion(NotesModel.Note.self, from: written)
        var expected = Self.sample
        expected.title = "Rollout, done"
        expected.tags.append("done")
        #expect(back.storedVersion == 3)
        #expect(back.wrappedValue == expected)
    }

    @Test("The old build answers a version 3 note to its clients in the versions it knows")
    func oldBuildAnswersInItsVersions() throws {
        let read = try Self.oldBuildReads(Self.beside.encoder.encode(versioned: Self.sample))
        let answer = try NotesModelPrevious.NotesAPI.encode(read.wrappedValue, asAPIVersion: 2)
        let object = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        #expect(object["version"] as? Int == 2)
        #expect(object["pinned"] == nil && object["checklist"] == nil)
    }

    @Test("The old build cannot read attachment version 2, so the new build writes it only once old builds are gone")
    func attachmentGate() throws {
        #expect(Self.beside.attachmentVersion == 1)
        #expect(Self.after.attachmentVersion == 2)
        let afterTheFlip = try Self.after.encoder.encode(versioned: Self.sample)
        #expect {
            try Self.oldBuildReads(afterTheFlip)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error,
                case VersionedDecodingError.documentVersionTooNew(found: 2, _)? = context.underlyingError
            else { return false }
            return true
        }
    }

    @Test("An incompatible note version waits for the fleet setting, as attachment version 2 does")
    func incompatibleNoteVersionWaits() throws {
        #expect(NotesModel.NotesAPI.newestVersion(of: ParagraphNote.self, writableByBuildsOf: 2) == 2)
        #expect(NotesModel.NotesAPI.newestVersion(of: ParagraphNote.self, writableByBuildsOf: 3) == 3)
        #expect(NotesModel.NotesAPI.newestVersion(of: NotesModel.Note.self, writableByBuildsOf: 2) == 3)

        let note = ParagraphNote(title: "Rollout", paragraphs: ["Drain.", "Flip."], tags: [])
        #expect {
            try Self.oldBuildReads(JSONEncoder().encode(versioned: note))
        } throws: { error in
            guard case VersionedDecodingError.documentVersionTooNew(found: 3, _) = error else { return false }
            return true
        }
        // Written as version 2 while old builds run, it is a note they read and own.
        let read = try Self.oldBuildReads(JSONEncoder().encode(versioned: note, asVersion: 2))
        #expect(read.storedVersion == 2 && !read.isFromNewerVersion)
        #expect(read.wrappedValue.body == "Drain.\n\nFlip.")
    }
}

/// A version 3 that is not additive: it replaces the body with paragraphs. A build of version 2
/// would find no body, so the version declares no compatibility, and the new build must not
/// store it while builds of version 2 run.
struct ParagraphNote: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = NotesModel.NoteV2

    var title: String
    var paragraphs: [String]
    var tags: [String]

    init(title: String, paragraphs: [String], tags: [String]) {
        self.title = title
        self.paragraphs = paragraphs
        self.tags = tags
    }

    init(from old: NotesModel.NoteV2) {
        self.init(title: old.title, paragraphs: old.body.components(separatedBy: "\n\n"), tags: old.tags)
    }

    func downgraded() -> NotesModel.NoteV2 {
        NotesModel.NoteV2(title: title, body: paragraphs.joined(separator: "\n\n"), tags: tags, attachments: [])
    }
}
