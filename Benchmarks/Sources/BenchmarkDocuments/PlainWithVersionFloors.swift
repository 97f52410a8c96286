import Foundation

// The second floor: the plain struct with the version as one more field, last, where the
// library writes it. Decoding or encoding it is the least work any versioned decode or encode
// of the same bytes can do (the version must be read or written), so the distance from this
// floor is what the library itself costs, and the distance from the plain floor is what
// versioning costs at all.

/// ``PlainNote`` with the version as one more field.
public struct PlainNoteWithVersion: Codable, Equatable, Sendable {
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
    /// The stored version; optional, as the library reads a missing version as `nil`.
    public var version: Int?

    /// The same fields as `note`, and its type's version.
    ///
    /// - Parameter note: The versioned note to copy.
    public init(_ note: Note) {
        id = note.id
        title = note.title
        text = note.text
        tags = note.tags
        pinned = note.pinned
        colour = note.colour
        version = Note.version
    }
}

/// ``PlainArticle`` with the version as one more field.
public struct PlainArticleWithVersion: Codable, Equatable, Sendable {
    /// The article's identifier.
    public var id: Int
    /// The title.
    public var title: String
    /// Who wrote it.
    public var author: String
    /// A one-paragraph summary.
    public var summary: String
    /// Its tags.
    public var tags: [String]
    /// Whether it is published.
    public var published: Bool
    /// The average rating, from 0 to 5.
    public var rating: Double
    /// How many times it was read.
    public var reads: Int
    /// When it was last edited, in seconds since 1970.
    public var editedAt: Double
    /// Its language.
    public var language: String
    /// Its sections.
    public var sections: [ArticleSection]
    /// The stored version; optional, as the library reads a missing version as `nil`.
    public var version: Int?

    /// The same fields as `article`, and its type's version.
    ///
    /// - Parameter article: The versioned article to copy.
    public init(_ article: Article) {
        id = article.id
        title = article.title
        author = article.author
        summary = article.summary
        tags = article.tags
        published = article.published
        rating = article.rating
        reads = article.reads
        editedAt = article.editedAt
        language = article.language
        sections = article.sections
        version = Article.version
    }
}

/// ``PlainCounter`` with the version as one more field.
public struct PlainCounterWithVersion: Codable, Equatable, Sendable {
    /// The counted value.
    public var count: Int
    /// The stored version.
    public var version: Int?
}
