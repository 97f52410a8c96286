import Foundation
import VersionedCodable

// The 2 KB case: an article with a dozen root fields and nested sections, the size of a typical
// stored settings file or API record. The versioned and plain types have the same fields, so
// the plain one decodes the same bytes and the difference is what versioning costs.

/// One section of an article; shared by the versioned and plain article types.
public struct ArticleSection: Codable, Equatable, Sendable {
    /// The section's heading.
    public var heading: String
    /// The section's text.
    public var text: String
    /// How many words `text` has.
    public var wordCount: Int
}

/// The article as it was first stored, before it had a summary.
public struct ArticleV1: VersionedCodable, Sendable {
    /// The first stored version.
    public static let version: Int? = 1
    /// The oldest version.
    public typealias PreviousVersion = NothingEarlier

    /// The article's identifier.
    public var id: Int
    /// The title.
    public var title: String
    /// Who wrote it.
    public var author: String
    /// Its tags.
    public var tags: [String]
    /// Its sections.
    public var sections: [ArticleSection]
}

/// The current article: version 2 adds a summary and reading statistics.
public struct Article: VersionedCodable, Equatable, Sendable {
    /// The current version.
    public static let version: Int? = 2
    /// The article before it had a summary.
    public typealias PreviousVersion = ArticleV1

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

    /// Creates an article.
    public init(
        id: Int,
        title: String,
        author: String,
        summary: String,
        tags: [String],
        published: Bool,
        rating: Double,
        reads: Int,
        editedAt: Double,
        language: String,
        sections: [ArticleSection]
    ) {
        self.id = id
        self.title = title
        self.author = author
        self.summary = summary
        self.tags = tags
        self.published = published
        self.rating = rating
        self.reads = reads
        self.editedAt = editedAt
        self.language = language
        self.sections = sections
    }

    /// Gives an old article an empty summary and no statistics.
    ///
    /// - Parameter old: The article as first stored.
    public init(from old: ArticleV1) {
        self.init(
            id: old.id,
            title: old.title,
            author: old.author,
            summary: "",
            tags: old.tags,
            published: false,
            rating: 0,
            reads: 0,
            editedAt: 0,
            language: "en",
            sections: old.sections
        )
    }
}

/// The floor for ``Article``: a plain `Codable` struct with the same fields.
public struct PlainArticle: Codable, Equatable, Sendable {
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

    /// The same fields as `article`.
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
    }
}

extension Article {
    /// A sample article whose JSON is about 2 KB.
    public static let sample: Article = {
        let sentence = "Documents outlive the code that wrote them, so each version keeps its shape. "
        let sections = (1...7).map { index in
            ArticleSection(
                heading: "Section \(index): keeping old files readable",
                text: String(repeating: sentence, count: 2),
                wordCount: 26
            )
        }
        return Article(
            id: 48_213,
            title: "Versioned documents in practice",
            author: "Ada Example",
            summary: "How a chain of small Codable types lets a program read every file it ever wrote.",
            tags: ["codable", "migration", "swift", "storage", "versions"],
            published: true,
            rating: 4.5,
            reads: 1_024,
            editedAt: 1_767_225_600,
            language: "en",
            sections: sections
        )
    }()
}
