import VersionedCodable

// The history of a poem document, oldest first. Each version is an ordinary Codable struct;
// only the newest one, `Poem`, is used by the rest of the program.

/// A poem as the app stored it before it adopted versioning: no `version` key at all.
public struct PoemV0: VersionedCodable, Equatable, Sendable {
    public static let version: Int? = nil
    public typealias PreviousVersion = NothingEarlier

    public var author: String
    public var lines: [String]

    public init(author: String, lines: [String]) {
        self.author = author
        self.lines = lines
    }
}

/// Version 1 renamed `lines` to `poem`.
public struct PoemV1: VersionedCodable, Equatable, Sendable {
    public static let version: Int? = 1
    public typealias PreviousVersion = PoemV0

    public var author: String
    public var poem: [String]

    public init(author: String, poem: [String]) {
        self.author = author
        self.poem = poem
    }

    public init(from old: PoemV0) throws {
        author = old.author
        poem = old.lines
    }
}

// snippet: adding-a-version
/// Version 2 keeps the poem as one string and adds a rating.
public struct PoemV2: VersionedCodable, Equatable, Sendable {
    public static let version: Int? = 2
    public typealias PreviousVersion = PoemV1

    public var author: String
    public var poem: String
    public var rating: Rating

    public enum Rating: String, Codable, Sendable {
        case love, meh, hate
    }

    public init(author: String, poem: String, rating: Rating) {
        self.author = author
        self.poem = poem
        self.rating = rating
    }

    public init(from old: PoemV1) throws {
        author = old.author
        poem = old.poem.joined(separator: "\n")
        rating = .meh
    }
}
// end snippet

/// Version 3 gave the author a structure of their own and added an optional title.
public struct PoemV3: VersionedCodable, Equatable, Sendable {
    public static let version: Int? = 3
    public typealias PreviousVersion = PoemV2

    public var author: Author
    public var title: String?
    public var poem: String
    public var rating: PoemV2.Rating

    public init(author: Author, title: String?, poem: String, rating: PoemV2.Rating) {
        self.author = author
        self.title = title
        self.poem = poem
        self.rating = rating
    }

    public init(from old: PoemV2) throws {
        author = Author(name: old.author, born: nil)
        title = nil
        poem = old.poem
        rating = old.rating
    }
}

/// A poet.
public struct Author: Codable, Equatable, Hashable, Sendable {
    public var name: String
    public var born: Int?

    public init(name: String, born: Int?) {
        self.name = name
        self.born = born
    }
}

// snippet: migration-step
/// The current version: stanzas instead of one string, a title that is always there, and a
/// star rating.
public struct Poem: VersionedCodable, Equatable, Sendable {
    public static let version: Int? = 4
    public typealias PreviousVersion = PoemV3

    public var author: Author
    public var title: String
    public var stanzas: [[String]]
    public var stars: Int

    public init(author: Author, title: String, stanzas: [[String]], stars: Int) {
        self.author = author
        self.title = title
        self.stanzas = stanzas
        self.stars = stars
    }

    public init(from old: PoemV3) throws {
        guard !old.author.name.isEmpty else {
            throw VersionedDecodingError.fieldNoLongerValid(
                .init(codingPath: [], debugDescription: "A poem needs an author; this one has an empty name.")
            )
        }
        author = old.author
        title = old.title ?? "Untitled"
        stanzas = old.poem.components(separatedBy: "\n\n").map { $0.components(separatedBy: "\n") }
        stars = switch old.rating {
        case .love: 5
        case .meh: 3
        case .hate: 1
        }
    }
}
// end snippet

// snippet: downgrade
extension Poem {
    /// Writes the poem for readers that still run version 3.
    public func downgraded() throws -> PoemV3 {
        let rating: PoemV2.Rating
        switch stars {
        case 5: rating = .love
        case 3: rating = .meh
        case 1: rating = .hate
        default:
            throw VersionedEncodingError.notRepresentable(
                in: PoemV3.self,
                .init(codingPath: [], debugDescription: "Version 3 has no rating for \(stars) stars.")
            )
        }
        return PoemV3(
            author: author,
            title: title,
            poem: stanzas.map { $0.joined(separator: "\n") }.joined(separator: "\n\n"),
            rating: rating
        )
    }
}
// end snippet
