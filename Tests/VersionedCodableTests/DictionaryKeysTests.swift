import Foundation
import Testing
import VersionedCodable

// A dictionary at the version's place is written with exactly the keys a plain encode of it
// writes, under every key strategy, and an entry is refused only where it would land on a key
// the spec writes, as given: never on a guess about what a strategy might make of it.

@Suite("Dictionary keys where the version goes")
struct DictionaryKeysTests {
    struct Score: Codable, Equatable, Sendable { var points: Int }
    enum Player: String, Codable, CodingKeyRepresentable, Hashable, Sendable { case carolJones, bob }

    /// A versioned root that is a dictionary, written through a single-value container or by
    /// the dictionary's own encoding.
    struct Board<Key: Codable & Hashable & Sendable>: VersionedCodable, Equatable {
        static var version: Int? { 1 }
        typealias PreviousVersion = NothingEarlier
        var scores: [Key: Score]
        var throughSingleValue: Bool

        init(scores: [Key: Score], throughSingleValue: Bool) {
            self.scores = scores
            self.throughSingleValue = throughSingleValue
        }

        init(from decoder: any Decoder) throws {
            scores = try decoder.singleValueContainer().decode([Key: Score].self)
            throughSingleValue = true
        }

        func encode(to encoder: any Encoder) throws {
            if throughSingleValue {
                var container = encoder.singleValueContainer()
                try container.encode(scores)
            } else {
                try scores.encode(to: encoder)
            }
        }
    }

    static let strategies: [(String, JSONEncoder.KeyEncodingStrategy)] = [
        ("default keys", .useDefaultKeys),
        ("snake case", .convertToSnakeCase),
        ("custom", .custom { path in SharedRootDecoderTests.Tally.AnyKey(stringValue: path.last!.stringValue + "_x") }),
    ]

    /// The versioned document's object without its version, and the plain encode's object.
    func objects(
        _ value: some VersionedCodable & Encodable,
        _ strategy: JSONEncoder.KeyEncodingStrategy
    ) throws -> (
        versioned: NSDictionary, plain: NSDictionary
    ) {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = strategy
        var versioned = try SpecTruth.Format.json.object(try encoder.encode(versioned: value))
        // The spec's key goes through the strategy as written by the dictionary's own encoding.
        #expect((versioned.removeValue(forKey: "version") ?? versioned.removeValue(forKey: "version_x")) as? Int == 1)
        let plain = try SpecTruth.Format.json.object(try encoder.encode(value))
        return (versioned as NSDictionary, plain as NSDictionary)
    }

    @Test("Keys are what a plain encode writes, under every key strategy, for every key type")
    func keysAsAPlainEncodeWritesThem() throws {
        for (name, strategy) in Self.strategies {
            for single in [true, false] {
                let strings = try objects(
                    Board(scores: ["carolJones": Score(points: 3)], throughSingleValue: single),
                    strategy
                )
                #expect(strings.versioned == strings.plain, "String keys, \(name), single value: \(single)")
                let integers = try objects(Board(scores: [42: Score(points: 3)], throughSingleValue: single), strategy)
                #expect(integers.versioned == integers.plain, "Int keys, \(name), single value: \(single)")
                let players = try objects(
                    Board(scores: [Player.carolJones: Score(points: 3)], throughSingleValue: single),
                    strategy
                )
                #expect(players.versioned == players.plain, "enum keys, \(name), single value: \(single)")
            }
        }
    }

    @Test("Keys near the version's are written and read back; only the version's own key is refused")
    func onlyTheVersionKeyIsRefused() throws {
        for single in [true, false] {
            for key in ["_version", "version_", "Versions", "VERSION", "version "] {
                let board = Board(scores: [key: Score(points: 1), "a": Score(points: 2)], throughSingleValue: single)
                let read = try JSONDecoder().decode(
                    versioned: Board<String>.self,
                    from: JSONEncoder().encode(versioned: board)
                )
                #expect(read.scores == board.scores, "\(key)")
            }
            let clash = Board(scores: ["version": Score(points: 1)], throughSingleValue: single)
            #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "version")) {
                try JSONEncoder().encode(versioned: clash)
            }
            do {
                _ = try JSONEncoder().encode(versioned: clash)
            } catch {
                #expect("\(error)".contains("dictionary entry"))
            }
        }
    }

    @Test("An entry under the version's key inside a document names the part, the key and the dictionary")
    func nestedEntryIsNamed() throws {
        struct Shelf: Codable {
            var boards: [Versioned<Board<String>>]
        }
        let shelf = Shelf(boards: [Versioned(Board(scores: ["version": Score(points: 1)], throughSingleValue: true))])
        #expect {
            try JSONEncoder().encode(shelf)
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.underlyingError as? VersionedEncodingError == .dictionaryEntryClash(key: "version")
                && context.debugDescription.contains("dictionary") && context.debugDescription.contains("boards[0]")
        }
    }
}
