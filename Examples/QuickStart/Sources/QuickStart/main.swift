// snippet: quick-start
import Foundation
import VersionedCodable

// Stored before the app versioned its poems: no "version" key, the lines in an array.
struct PoemV0: VersionedCodable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier

    var author: String
    var lines: [String]
}

// Version 1, the current one, keeps the poem in one string and adds a rating.
struct Poem: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = PoemV0

    var author: String
    var poem: String
    var rating: Rating

    enum Rating: String, Codable { case love, meh, hate }

    init(from old: PoemV0) throws {
        author = old.author
        poem = old.lines.joined(separator: " ")
        rating = .meh
    }
}

let stored = #"{"author": "Anonymous", "lines": ["Roses are red,", "Violets are blue."]}"#
let poem = try JSONDecoder().decode(versioned: Poem.self, from: Data(stored.utf8))
print(poem.author, poem.rating, poem.poem)

let encoder = JSONEncoder()
encoder.outputFormatting = .sortedKeys
print(String(decoding: try encoder.encode(versioned: poem), as: UTF8.self))
// end snippet
