// snippet: quick-start
import Foundation
import VersionedCodable

// Before the app versioned its documents, a poem was stored as {"author": …, "lines": […]}.
struct PoemV0: VersionedCodable {
    static let version: Int? = nil  // documents that have no "version" key
    typealias PreviousVersion = NothingEarlier

    var author: String
    var lines: [String]
}

// Version 1 renamed `lines` to `poem`.
struct PoemV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = PoemV0

    var author: String
    var poem: [String]

    init(from old: PoemV0) throws {
        author = old.author
        poem = old.lines
    }
}

// Version 2, the current one, keeps the poem in one string and adds a rating.
struct Poem: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = PoemV1

    var author: String
    var poem: String
    var rating: Rating

    enum Rating: String, Codable {
        case love, meh, hate
    }
}

// In an extension, so that `Poem` keeps its memberwise initializer.
extension Poem {
    init(from old: PoemV1) throws {
        author = old.author
        poem = old.poem.joined(separator: "\n")
        rating = .meh
    }
}

// Documents of every version decode into the current `Poem`.
let stored = [
    #"{"author": "Anonymous", "lines": ["Roses are red,", "Violets are blue."]}"#,
    #"{"version": 1, "author": "Anonymous", "poem": ["Sugar is sweet,", "And so are you."]}"#,
]
for document in stored {
    let poem = try JSONDecoder().decode(versioned: Poem.self, from: Data(document.utf8))
    print(poem.author, poem.rating, poem.poem.split(separator: "\n").joined(separator: " / "))
}

// Encode with `encode(versioned:)`, which writes the version. A plain `encode(_:)` compiles
// too, but writes no version: the document would be read back as a PoemV0 document.
let encoder = JSONEncoder()
encoder.outputFormatting = .sortedKeys
let tyger = Poem(author: "William Blake", poem: "Tyger Tyger, burning bright", rating: .love)
let data = try encoder.encode(versioned: tyger)
print(String(decoding: data, as: UTF8.self))
// end snippet
