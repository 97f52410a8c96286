import Foundation
import NotesModel
import VersionedCodable

/// What the load generator expects the store to hold: the last note each owner wrote, as the
/// newest version reads it, and the running totals of both phases.
///
/// A note is written by one worker only (its owner), so the owner knows its value at every
/// moment; other workers read it only to prove it is readable. What a write of an older
/// version loses is what that version's migration defines, so the expected value is the note
/// as sent, read back through the chain the way the service reads it.
struct Ledger: Codable {
    /// The expected note of each id; `nil` after a write whose outcome is unknown.
    var notes: [String: Versioned<Note>?] = [:]
    var totals = Totals()

    static func load(from url: URL) throws -> Ledger {
        try JSONDecoder().decode(Ledger.self, from: Data(contentsOf: url))
    }

    func save(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url, options: .atomic)
    }
}

/// Counts of requests and of the problems the checks found.
struct Totals: Codable, Sendable {
    var requests = 0
    var failed = 0
    var lost = 0
    var unreadable = 0

    static func + (lhs: Totals, rhs: Totals) -> Totals {
        Totals(
            requests: lhs.requests + rhs.requests,
            failed: lhs.failed + rhs.failed,
            lost: lhs.lost + rhs.lost,
            unreadable: lhs.unreadable + rhs.unreadable
        )
    }

    var problems: Int { failed + lost + unreadable }
}

/// The expected note as a client of an API version sees it: written as that version and read
/// back through the chain.
func asSeen(_ note: Note, byAPIVersion version: Int) throws -> Note {
    try JSONDecoder().decode(versioned: Note.self, from: NotesAPI.encode(note, asAPIVersion: version))
}
