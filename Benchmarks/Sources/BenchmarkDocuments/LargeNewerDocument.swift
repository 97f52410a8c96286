import Foundation
import VersionedCodable

// The large newer document: a note written by a build newer than ``Note``, whose fields the
// older build does not know hold about 10 MB. The older build reads it through
// `Versioned<Note>`, keeps those fields, and writes them back; the floor is a plain `Codable`
// type that declares every field of the document, read from and written to the same bytes.

/// One entry of the note's history: the kinds of value a stored document usually holds.
public struct Revision: Codable, Equatable, Sendable {
    /// When it was made, as text.
    public var at: String
    /// Who made it.
    public var by: String
    /// What changed.
    public var change: String
    /// How many words the note had after it.
    public var words: Int
    /// Whether it was a small change.
    public var minor: Bool
    /// How sure a classifier was that it was a small change.
    public var confidence: Double
    /// Labels given to it.
    public var labels: [String]
}

/// The floor: a plain `Codable` type with every field of the large newer document.
public struct PlainLargeNote: Codable, Equatable, Sendable {
    /// The note's identifier.
    public var id: Int
    /// The title.
    public var title: String
    /// The text.
    public var text: String
    /// Its tags.
    public var tags: [String]
    /// Whether it is pinned.
    public var pinned: Bool
    /// Its colour's name.
    public var colour: String
    /// The stored version.
    public var version: Int
    /// The oldest version that may read the document.
    public var versionReadableFrom: Int
    /// The oldest version that may write the document.
    public var versionWritableFrom: Int
    /// When to remind, as text.
    public var reminder: String
    /// Who shared the note.
    public var sharedWith: [String]
    /// Every change made to the note: the bulk of the document.
    public var history: [Revision]
}

extension PlainLargeNote {
    /// A note whose JSON is about `bytes` long, nearly all of it history, as a build of the
    /// version after ``Note`` would write it. The same every time.
    ///
    /// - Parameter bytes: About how long the document's JSON is.
    /// - Returns: The note.
    public static func sample(bytes: Int) -> PlainLargeNote {
        let people = ["ada", "grace", "edsger", "barbara", "donald", "frances"]
        let words = ["bread", "cheese", "apples", "coffee", "beans", "party", "neighbours", "saturday", "list"]
        var history: [Revision] = []
        var size = 0
        var seed: UInt64 = 0x5EED
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        while size < bytes {
            let index = history.count
            let change = (0..<(8 + next() % 12)).map { _ in words[next() % words.count] }.joined(separator: " ")
            let revision = Revision(
                at: "2025-\(10 + index % 3)-\(10 + index % 18)T\(10 + index % 12):\(10 + index % 50):00Z",
                by: people[next() % people.count],
                change: change,
                words: 40 + next() % 400,
                minor: next() % 3 == 0,
                confidence: Double(next() % 1000) / 1000,
                labels: index % 4 == 0 ? ["edited", words[next() % words.count]] : []
            )
            size += 118 + change.utf8.count
            history.append(revision)
        }
        let note = Note.sample
        return PlainLargeNote(
            id: note.id,
            title: note.title,
            text: note.text,
            tags: note.tags,
            pinned: note.pinned,
            colour: note.colour,
            version: 3,
            versionReadableFrom: 2,
            versionWritableFrom: 2,
            reminder: "saturday 9:00",
            sharedWith: ["ada", "grace"],
            history: history
        )
    }
}
