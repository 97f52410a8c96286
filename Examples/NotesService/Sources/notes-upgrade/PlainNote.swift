/// A current note as a program without versioning would declare it: the version is an ordinary
/// field, and only the current shape decodes. The plain pass reads and writes notes with it, to
/// measure what the versioned upgrade costs beyond plain `Codable`.
struct PlainNote: Codable, Equatable {
    var version: Int
    var title: String
    var body: String
    var tags: [String]
    var attachments: [PlainAttachment]
    var pinned: Bool
    var checklist: [PlainChecklistItem]
}

/// An attachment of a current note, its version an ordinary field.
struct PlainAttachment: Codable, Equatable {
    var version: Int
    var fileName: String
    var href: String
}

/// A checklist line of a current note.
struct PlainChecklistItem: Codable, Equatable {
    var text: String
    var done: Bool
}
