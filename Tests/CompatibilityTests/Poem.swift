import Foundation
import VersionedCodable

// A chain written the way the 1.2 README teaches it: the oldest type names `NothingEarlier`,
// each later type names the one before and migrates from it, and a migration that meets data
// with no place in the new model throws `fieldNoLongerValid`. The chain has no `nil` version,
// so a document without a version is unsupported.

/// The first stored poem: `{"version": 1, "author": "...", "poem": ["line", "line"]}`.
struct PoemV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var author: String
    var poem: [String]
}

/// Version 2 keeps the poem as one string and adds a star rating.
struct PoemV2: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = PoemV1

    var author: String
    var poem: String
    var starRating: Int

    init(from old: PoemV1) throws {
        author = old.author
        poem = old.poem.joined(separator: "\n")
        starRating = 3
    }
}

/// The current poem: a love, meh or hate rating instead of stars.
struct Poem: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = PoemV2

    var author: String
    var poem: String
    var rating: Rating

    enum Rating: String, Codable {
        case love, meh, hate
    }

    init(author: String, poem: String, rating: Rating) {
        self.author = author
        self.poem = poem
        self.rating = rating
    }

    init(from old: PoemV2) throws {
        author = old.author
        poem = old.poem
        switch old.starRating {
        case 0...2:
            rating = .hate
        case 3:
            rating = .meh
        case 4...5:
            rating = .love
        default:
            throw VersionedDecodingError.fieldNoLongerValid(
                DecodingError.Context(
                    codingPath: [CodingKeys.rating],
                    debugDescription: "Star rating \(old.starRating) is outside 0...5"
                )
            )
        }
    }
}
