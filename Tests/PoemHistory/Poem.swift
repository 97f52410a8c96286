import VersionedCodable

// The history of a poem document, oldest first. Each version is an ordinary Codable struct;
// only the newest one, `Poem`, is used by the rest of the program.

// snippet: poem-v0
/// A poem as the app stored it before it adopted versioning: no `version` key at all.
struct PoemV0: VersionedCodable, Equatable, Sendable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier

    var author: String
    var lines: [String]

    init(author: String, lines: [String]) {
        self.author = author
        self.lines = lines
    }
}

// end snippet

// snippet: poem-v1
/// Version 1 renamed `lines` to `poem`.
struct PoemV1: VersionedCodable, Equatable, Sendable {
    static let version: Int? = 1
    typealias PreviousVersion = PoemV0

    var author: String
    var poem: [String]

    init(author: String, poem: [String]) {
        self.author = author
        self.poem = poem
    }

    init(from old: PoemV0) throws {
        author = old.author
        poem = old.lines
    }
}

// end snippet

// snippet: adding-a-version
/// Version 2 keeps the poem as one string and adds a rating.
struct PoemV2: VersionedCodable, Equatable, Sendable {
    static let version: Int? = 2
    typealias PreviousVersion = PoemV1

    var author: String
    var poem: String
    var rating: Rating

    enum Rating: String, Codable, Sendable {
        case love, meh, hate
    }

    init(author: String, poem: String, rating: Rating) {
        self.author = author
        self.poem = poem
        self.rating = rating
    }

    init(from old: PoemV1) throws {
        author = old.author
        poem = old.poem.joined(separator: "\n")
        rating = .meh
    }
}
// end snippet

// The ratings are listed so that version 2's and 3's schemas can name them: the decoder reads
// only these raw values, and without the list the derivation could not know them.
extension PoemV2.Rating: CaseIterable {}

/// Version 3 gave the author a structure of their own and added an optional title.
struct PoemV3: VersionedCodable, Equatable, Sendable {
    static let version: Int? = 3
    typealias PreviousVersion = PoemV2

    var author: Author
    var title: String?
    var poem: String
    var rating: PoemV2.Rating

    init(author: Author, title: String?, poem: String, rating: PoemV2.Rating) {
        self.author = author
        self.title = title
        self.poem = poem
        self.rating = rating
    }

    init(from old: PoemV2) throws {
        author = Author(name: old.author, born: nil)
        title = nil
        poem = old.poem
        rating = old.rating
    }
}

/// A poet.
struct Author: Codable, Equatable, Hashable, Sendable {
    var name: String
    var born: Int?

    init(name: String, born: Int?) {
        self.name = name
        self.born = born
    }
}

// snippet: migration-step
/// The current version: stanzas instead of one string, a title that is always there, and a
/// star rating.
struct Poem: VersionedCodable, Equatable, Sendable {
    static let version: Int? = 4
    typealias PreviousVersion = PoemV3

    var author: Author
    var title: String
    var stanzas: [[String]]
    var stars: Int

    init(author: Author, title: String, stanzas: [[String]], stars: Int) {
        self.author = author
        self.title = title
        self.stanzas = stanzas
        self.stars = stars
    }

    init(from old: PoemV3) throws {
        guard !old.author.name.isEmpty else {
            throw VersionedDecodingError.fieldNoLongerValid(
                .init(codingPath: [], debugDescription: "A poem needs an author; this one has an empty name.")
            )
        }
        author = old.author
        title = old.title ?? "Untitled"
        stanzas = old.poem.components(separatedBy: "\n\n").map { $0.components(separatedBy: "\n") }
        stars =
            switch old.rating {
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
    func downgraded() throws -> PoemV3 {
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
