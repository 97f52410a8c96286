import Foundation
import VersionedCodable

// The 200 B case: a small record, where the fixed cost of versioning (reading the version,
// checking the chain) weighs most against the plain decode.

/// The note as it was first stored, without a colour.
public struct NoteV1: VersionedCodable, Sendable {
    /// The first stored version.
    public static let version: Int? = 1
    /// The oldest version.
    public typealias PreviousVersion = NothingEarlier

    /// The note's identifier.
    public var id: Int
    /// The title.
    public var title: String
    /// The text.
    public var text: String
}

/// The current note: version 2 adds tags, a pin and a colour.
public struct Note: VersionedCodable, Equatable, Sendable {
    /// The current version.
    public static let version: Int? = 2
    /// The note before it had a colour.
    public typealias PreviousVersion = NoteV1

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

    /// Creates a note.
    public init(id: Int, title: String, text: String, tags: [String], pinned: Bool, colour: String) {
        self.id = id
        self.title = title
        self.text = text
        self.tags = tags
        self.pinned = pinned
        self.colour = colour
    }

    /// Gives an old note no tags and the default colour.
    ///
    /// - Parameter old: The note as first stored.
    public init(from old: NoteV1) {
        self.init(id: old.id, title: old.title, text: old.text, tags: [], pinned: false, colour: "yellow")
    }
}

/// The floor for ``Note``: a plain `Codable` struct with the same fields.
public struct PlainNote: Codable, Equatable, Sendable {
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

    /// The same fields as `note`.
    ///
    /// - Parameter note: The versioned note to copy.
    public init(_ note: Note) {
        id = note.id
        title = note.title
        text = note.text
        tags = note.tags
        pinned = note.pinned
        colour = note.colour
    }
}

extension Note {
    /// A sample note whose JSON is about 200 bytes.
    public static let sample = Note(
        id: 7_301,
        title: "Groceries for the weekend",
        text: "Bread, cheese, apples, coffee beans and something for the neighbours' party.",
        tags: ["home", "shopping"],
        pinned: true,
        colour: "green"
    )
}

/// The floor for the counter chain: one `Int` field, decoded from the same document.
public struct PlainCounter: Codable, Equatable, Sendable {
    /// The counted value.
    public var count: Int
}

/// The next version of ``Note``, which only adds fields: builds whose newest version is
/// ``Note`` read its documents through `Versioned<Note>` and keep the two fields they do not
/// know.
public struct NoteNext: VersionedCodable, Equatable, Sendable {
    /// The version after ``Note``'s.
    public static let version: Int? = 3
    /// Builds of ``Note`` may read and write its documents.
    public static let compatibility = ForwardCompatibility.compatible
    /// The note before it had a reminder.
    public typealias PreviousVersion = Note

    /// ``Note``'s fields.
    public var note: Note
    /// When to remind, as text.
    public var reminder: String
    /// Who shared the note.
    public var sharedWith: [String]

    /// Creates a note with a reminder.
    public init(note: Note, reminder: String, sharedWith: [String]) {
        self.note = note
        self.reminder = reminder
        self.sharedWith = sharedWith
    }

    /// A note without a reminder.
    public init(from old: Note) {
        self.init(note: old, reminder: "", sharedWith: [])
    }

    enum CodingKeys: String, CodingKey {
        case reminder, sharedWith
    }

    /// Reads ``Note``'s fields and the two new ones from the same object.
    public init(from decoder: any Decoder) throws {
        note = try Note(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reminder = try container.decode(String.self, forKey: .reminder)
        sharedWith = try container.decode([String].self, forKey: .sharedWith)
    }

    /// Writes ``Note``'s fields and the two new ones into the same object.
    public func encode(to encoder: any Encoder) throws {
        try note.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reminder, forKey: .reminder)
        try container.encode(sharedWith, forKey: .sharedWith)
    }

    /// ``Note/sample`` with a reminder, shared with two people.
    public static let sample = NoteNext(note: .sample, reminder: "saturday 9:00", sharedWith: ["ada", "grace"])
}
