import VersionedCodable

/// A note as the program writes it today: version 3.
///
/// The store holds notes written by every release of the program, so reading one may walk the
/// chain `NoteV0` (before versioning) → ``NoteV1`` → ``NoteV2`` → `Note`.
///
/// ```json
/// {"version": 3, "title": "Groceries", "lines": ["eggs", "milk"], "tags": ["home"], "pinned": false}
/// ```
public struct Note: VersionedCodable, Equatable, Sendable {
    /// The version notes are written with.
    public static let version: Int? = 3
    /// The shape that version 3 replaced.
    public typealias PreviousVersion = NoteV2

    /// The note's title.
    public var title: String
    /// The note's text, one entry per line.
    public var lines: [String]
    /// Labels the user gave the note.
    public var tags: [String]
    /// Whether the note stays at the top of the list.
    public var pinned: Bool

    /// Creates a note.
    ///
    /// - Parameters:
    ///   - title: The note's title.
    ///   - lines: The note's text, one entry per line.
    ///   - tags: Labels for the note.
    ///   - pinned: Whether the note stays at the top of the list.
    public init(title: String, lines: [String], tags: [String], pinned: Bool) {
        self.title = title
        self.lines = lines
        self.tags = tags
        self.pinned = pinned
    }

    /// Version 2 marked pinned notes with a `pinned` tag; version 3 has a field for it.
    ///
    /// - Parameter old: The note as version 2.
    public init(from old: NoteV2) {
        title = old.title
        lines = old.lines
        tags = old.tags.filter { $0 != NoteV2.pinnedTag }
        pinned = old.tags.contains(NoteV2.pinnedTag)
    }
}

/// A note as version 2 wrote it: version 1 with tags, where the tag `pinned` pins the note.
public struct NoteV2: VersionedCodable, Equatable, Sendable {
    /// Version 2.
    public static let version: Int? = 2
    /// The shape that version 2 replaced.
    public typealias PreviousVersion = NoteV1

    /// The tag that pinned a note before pinning had its own field.
    public static let pinnedTag = "pinned"

    /// The note's title.
    public var title: String
    /// The note's text, one entry per line.
    public var lines: [String]
    /// Labels the user gave the note, `pinned` among them for a pinned note.
    public var tags: [String]

    /// Creates a version 2 note.
    ///
    /// - Parameters:
    ///   - title: The note's title.
    ///   - lines: The note's text, one entry per line.
    ///   - tags: Labels for the note.
    public init(title: String, lines: [String], tags: [String]) {
        self.title = title
        self.lines = lines
        self.tags = tags
    }

    /// Version 1 had no tags, so a migrated note has none.
    ///
    /// - Parameter old: The note as version 1.
    public init(from old: NoteV1) {
        title = old.title
        lines = old.lines
        tags = []
    }
}

/// A note as version 1 wrote it: the text split into lines.
public struct NoteV1: VersionedCodable, Equatable, Sendable {
    /// Version 1.
    public static let version: Int? = 1
    /// The shape written before versioning.
    public typealias PreviousVersion = NoteV0

    /// The note's title.
    public var title: String
    /// The note's text, one entry per line.
    public var lines: [String]

    /// Creates a version 1 note.
    ///
    /// - Parameters:
    ///   - title: The note's title.
    ///   - lines: The note's text, one entry per line.
    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }

    /// Splits the old single text into lines.
    ///
    /// - Parameter old: The note as written before versioning.
    public init(from old: NoteV0) {
        title = old.title
        lines = old.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

/// A note as the first release wrote it, before notes had a version: a title and one text.
public struct NoteV0: VersionedCodable, Equatable, Sendable {
    /// No version: these documents have no `version` key.
    public static let version: Int? = nil
    /// Nothing came before.
    public typealias PreviousVersion = NothingEarlier

    /// The note's title.
    public var title: String
    /// The note's text, lines separated by newlines.
    public var text: String

    /// Creates a note in the shape the first release wrote.
    ///
    /// - Parameters:
    ///   - title: The note's title.
    ///   - text: The note's text, lines separated by newlines.
    public init(title: String, text: String) {
        self.title = title
        self.text = text
    }
}
