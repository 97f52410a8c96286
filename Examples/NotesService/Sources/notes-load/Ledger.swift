import Foundation
import NotesModel
import VersionedCodable

/// What the load generator expects the store to hold: the last note each owner wrote, as the
/// newest version reads it, and the running totals of both phases.
///
/// A note is written by one worker only (its owner), so the owner knows its value at every
/// moment; other workers read it only to prove it is readable. A write of an older API version
/// replaces the fields that version shows, as the note sent reads back through the chain; the
/// fields it does not show stay as they were: the attachments, for version 1, and the fields
/// version 3 added, which stay as the last version 3 client wrote them, whichever build took
/// the edit.
struct Ledger: Codable {
    var notes: [String: Expected] = [:]
    var totals = Totals()

    static func load(from url: URL) throws -> Ledger {
        try JSONDecoder().decode(Ledger.self, from: Data(contentsOf: url))
    }

    func save(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url, options: .atomic)
    }
}

/// What one note must hold.
struct Expected: Codable, Sendable {
    /// The note as the newest version reads it; `nil` after a write whose outcome is unknown.
    var note: Note?
    /// Whether a version 3 client set the fields that only version 3 knows and an old build has
    /// edited the note since: the edits that must keep fields the editing build does not know.
    var editedByOldBuild = false

    /// The note after a client of `version` wrote `sent` and the service answered.
    ///
    /// - Parameters:
    ///   - sent: The note the client had, as the newest version holds it.
    ///   - version: The API version the client wrote it as.
    ///   - oldBuild: Whether an old build took the write.
    /// - Returns: What the note must hold now.
    func written(_ sent: Note, asAPIVersion version: Int, byOldBuild oldBuild: Bool) throws -> Expected {
        var seen = try asSeen(sent, byAPIVersion: version)
        guard version < 3 else {
            return Expected(note: seen)
        }
        // The service keeps what the client was never shown; where the ledger does not know
        // it, it cannot know the note.
        guard let note else { return Expected(note: nil) }
        seen.pinned = note.pinned
        seen.checklist = note.checklist
        if version < 2 {
            seen.attachments = note.attachments
        }
        return Expected(note: seen, editedByOldBuild: editedByOldBuild || (oldBuild && note.hasVersion3Fields))
    }
}

extension Note {
    /// Whether a version 3 client set the fields that only version 3 knows: a note made from an
    /// older version has them empty.
    var hasVersion3Fields: Bool { pinned || !checklist.isEmpty }

    /// The note without the fields that only version 3 knows, to compare the rest apart.
    var withoutVersion3Fields: Note {
        var note = self
        note.pinned = false
        note.checklist = []
        return note
    }
}

/// Counts of requests and of the problems the checks found.
struct Totals: Codable, Sendable {
    var requests = 0
    var failed = 0
    var lost = 0
    var unreadable = 0
    /// Edits that an old build made to a note stored as a version newer than it knows.
    var newerEditedByOld = 0
    /// Answers in version 3 whose version 3 fields differ from what a version 3 client wrote,
    /// while every other field is as expected.
    var unknownFieldsLost = 0
    /// Answers in version 3 that showed the version 3 fields as written, after old builds had
    /// edited the note: the checks behind `unknownFieldsLost`.
    var unknownFieldsKept = 0

    static func + (lhs: Totals, rhs: Totals) -> Totals {
        Totals(
            requests: lhs.requests + rhs.requests,
            failed: lhs.failed + rhs.failed,
            lost: lhs.lost + rhs.lost,
            unreadable: lhs.unreadable + rhs.unreadable,
            newerEditedByOld: lhs.newerEditedByOld + rhs.newerEditedByOld,
            unknownFieldsLost: lhs.unknownFieldsLost + rhs.unknownFieldsLost,
            unknownFieldsKept: lhs.unknownFieldsKept + rhs.unknownFieldsKept
        )
    }

    var problems: Int { failed + lost + unreadable + unknownFieldsLost }
}

/// The expected note as a client of an API version sees it: written as that version and read
/// back through the chain.
func asSeen(_ note: Note, byAPIVersion version: Int) throws -> Note {
    try JSONDecoder().decode(versioned: Note.self, from: NotesAPI.encode(note, asAPIVersion: version))
}
