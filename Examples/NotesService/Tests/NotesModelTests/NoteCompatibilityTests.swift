import Foundation
import NotesModel
import Testing
import VersionedCodableAPI
import VersionedCodableTesting

/// The checks that make the deploy safe before it starts: the new build (version 3) reads what
/// clients of versions 1 and 2 write, writing for them loses only what their versions do not
/// show, and version 3 keeps the promise it declares to builds of version 2.
@Suite("Note versions stay compatible across the deploy")
struct NoteCompatibilityTests {
    static let fixtures = VersionedFixtures(Note.self, directory: FileManager.default.temporaryDirectory)

    /// A note with the fields that version 3 added.
    static let sample = Note(
        title: "Rollout",
        body: "Drain the old instances.\n\nFlip the setting.",
        tags: ["ops", "deploy"],
        attachments: [.init(AttachmentV2(fileName: "plan.txt", href: "https://example.com/plan.txt"))],
        pinned: true,
        checklist: [ChecklistItem(text: "Old instances gone", done: false)]
    )

    /// A note as a version 2 client could have written it: nothing in the fields version 3 added.
    static let sampleOfVersion2 = Note(
        title: "Rollout",
        body: "Drain the old instances.",
        tags: ["ops"],
        attachments: [.init(AttachmentV2(fileName: "plan.txt", href: "https://example.com/plan.txt"))],
        pinned: false,
        checklist: []
    )

    @Test("A note a version 2 client could write comes back unchanged through version 2")
    func notesStayCompatible() {
        Self.fixtures.checkCompatibility(.full, samples: [Self.sampleOfVersion2], lossless: [2])
    }

    @Test("Written for a version 2 client, a note loses only the fields version 3 added")
    func version2ClientsDoNotSeeTheAdditions() {
        let report = Self.fixtures.checkCompatibility(.full, samples: [Self.sample])
        #expect(report.passed)
        let differences = report.losses.flatMap(\.differences)
        #expect(report.losses.map(\.version) == [2])
        #expect(differences.count == 2)
        #expect(differences.allSatisfy { $0.hasPrefix("pinned: ") || $0.hasPrefix("checklist: ") })
    }

    @Test("Attachments written as version 1 come back unchanged")
    func attachmentsStayCompatible() {
        VersionedFixtures(Attachment.self, directory: FileManager.default.temporaryDirectory)
            .checkCompatibility(.full, samples: [AttachmentV2(fileName: "a.png", href: "/a.png")], lossless: [1])
    }

    @Test("Clients of the first API see the note without its attachments, as version 1 defines")
    func firstAPIDropsAttachments() {
        let report = Self.fixtures.checkCompatibility(
            .fullTransitive,
            samples: [Self.sampleOfVersion2],
            lossless: [2]
        )
        #expect(report.passed)
        #expect(report.losses.map { $0.version } == [1])
        #expect(report.losses.first?.differences.first?.hasPrefix("attachments: ") == true)
    }

    @Test("A client of an older API replaces the fields it is shown and keeps the ones it is not")
    func olderClientsKeepTheAdditions() throws {
        let versions = try NotesAPI.makeAPIVersions()
        var edited = try NotesAPI.asSeen(Self.sample, byAPIVersion: 2)
        edited.title = "Rollout, done"
        let stored = try versions.merge(edited, at: 2, into: Self.sample)
        #expect(stored.title == "Rollout, done")
        #expect(stored.pinned && stored.checklist == Self.sample.checklist)

        var first = try NotesAPI.asSeen(Self.sample, byAPIVersion: 1)
        first.tags = ["ops"]
        let storedByFirst = try versions.merge(first, at: 1, into: Self.sample)
        #expect(storedByFirst.tags == ["ops"] && storedByFirst.attachments == Self.sample.attachments)
        #expect(storedByFirst.pinned && storedByFirst.checklist == Self.sample.checklist)

        var fresh = Self.sample
        fresh.pinned = false
        #expect(try versions.merge(fresh, at: 3, into: Self.sample) == fresh)
    }

    @Test("Note version 3 is stored from the start, attachment version 2 only once every build reads it")
    func storedVersions() {
        let versions = (1...3).map { NotesAPI.storage(whileOldestBuildKnows: $0) }
        #expect(versions.map(\.noteVersion) == [1, 3, 3])
        #expect(versions.map(\.attachmentVersion) == [1, 1, 2])
    }
}

extension NotesAPI {
    /// The note as a client of an API version sees it: written as that version and read back.
    static func asSeen(_ note: Note, byAPIVersion version: Int) throws -> Note {
        try JSONDecoder().decode(versioned: Note.self, from: encode(note, asAPIVersion: version))
    }
}
