import Foundation
import GRDB
import VersionedCodable

/// Fills a store with notes of every version, as successive releases of a program would have
/// left it.
///
/// The same seed gives the same documents, so a run can be repeated and compared.
///
/// ```swift
/// let database = try DocumentDatabase(path: "notes.sqlite")
/// try DocumentGenerator(seed: 42).fill(database, count: 10_000)
/// ```
public struct DocumentGenerator: Sendable {
    /// The seed of the pseudo-random sequence that picks each document's version and content.
    public let seed: UInt64

    /// How many documents are inserted per transaction.
    public let batchSize: Int

    /// Creates a generator.
    ///
    /// - Parameters:
    ///   - seed: Picks the documents; equal seeds give equal documents.
    ///   - batchSize: How many documents each insert transaction holds.
    public init(seed: UInt64, batchSize: Int = 1_000) {
        self.seed = seed
        self.batchSize = max(1, batchSize)
    }

    /// Appends `count` documents to the store, of the four versions in about equal numbers.
    ///
    /// - Parameters:
    ///   - database: The store to fill.
    ///   - count: How many documents to add.
    /// - Throws: `DatabaseError`, or `EncodingError` if a document cannot be written.
    public func fill(_ database: DocumentDatabase, count: Int) throws {
        var random = SeededRandom(seed: seed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var remaining = count
        while remaining > 0 {
            let size = min(batchSize, remaining)
            var bodies: [String] = []
            bodies.reserveCapacity(size)
            for _ in 0..<size {
                bodies.append(try Self.makeBody(using: &random, encoder: encoder))
            }
            try database.queue.write { db in
                let insert = try db.makeStatement(sql: "INSERT INTO documents (body) VALUES (?)")
                for body in bodies {
                    try insert.execute(arguments: [body])
                }
            }
            remaining -= size
        }
    }

    private static let words = [
        "apple", "river", "stone", "lamp", "window", "garden", "letter", "cloud", "music", "bread",
        "engine", "harbor", "candle", "forest", "ticket", "mirror", "pepper", "violin", "meadow", "copper",
    ]

    private static func makeBody(using random: inout SeededRandom, encoder: JSONEncoder) throws -> String {
        let title = phrase(words: Int.random(in: 1...4, using: &random), using: &random)
        let lines = (0..<Int.random(in: 1...5, using: &random)).map { _ in
            phrase(words: Int.random(in: 0...8, using: &random), using: &random)
        }
        var tags = (0..<Int.random(in: 0...3, using: &random)).map { _ in words.randomElement(using: &random)!
        }
        let data: Data
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            data = try encoder.encode(versioned: NoteV0(title: title, text: lines.joined(separator: "\n")))
        case 1:
            data = try encoder.encode(versioned: NoteV1(title: title, lines: lines))
        case 2:
            if Bool.random(using: &random) {
                tags.append(NoteV2.pinnedTag)
            }
            data = try encoder.encode(versioned: NoteV2(title: title, lines: lines, tags: tags))
        default:
            let note = Note(title: title, lines: lines, tags: tags, pinned: Bool.random(using: &random))
            data = try encoder.encode(versioned: note)
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func phrase(words count: Int, using random: inout SeededRandom) -> String {
        (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }
}

/// SplitMix64: a small, fast generator whose output depends only on its seed, unlike the
/// system generator.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
