import Foundation
import NotesModel
import Testing
import VersionedCodableTesting

/// The checks that make the deploy safe before it starts: the old build (version 2) and the
/// new one (version 3) read each other's notes and attachments, and writing for the old build
/// loses nothing.
@Suite("Note versions stay compatible across the deploy")
struct NoteCompatibilityTests {
    static let fixtures = VersionedFixtures(Note.self, directory: FileManager.default.temporaryDirectory)

    static let sample = Note(
        title: "Rollout",
        paragraphs: ["Drain the old instances.", "Flip the setting."],
        tags: ["ops", "deploy"],
        attachments: [.init(AttachmentV2(fileName: "plan.txt", href: "https://example.com/plan.txt"))]
    )

    @Test("The old build reads what the new one writes for it, and the new one reads it back unchanged")
    func notesStayCompatible() {
        Self.fixtures.checkCompatibility(.full, samples: [Self.sample], lossless: [2])
    }

    @Test("Attachments written as version 1 come back unchanged")
    func attachmentsStayCompatible() {
        VersionedFixtures(Attachment.self, directory: FileManager.default.temporaryDirectory)
            .checkCompatibility(.full, samples: [AttachmentV2(fileName: "a.png", href: "/a.png")], lossless: [1])
    }

    @Test("Clients of the first API see the note without its attachments, as version 1 defines")
    func firstAPIDropsAttachments() {
        let report = Self.fixtures.checkCompatibility(.fullTransitive, samples: [Self.sample], lossless: [2])
        #expect(report.passed)
        #expect(report.losses.map { $0.version } == [1])
        #expect(report.losses.first?.differences.first?.hasPrefix("attachments: ") == true)
    }

    @Test("A paragraph that version 2 cannot keep apart is refused, not merged")
    func paragraphBreakRefused() {
        let note = Note(title: "x", paragraphs: ["a\n\nb"], tags: [], attachments: [])
        #expect(throws: (any Error).self) {
            try NotesAPI.encode(note, asAPIVersion: 2)
        }
    }
}
