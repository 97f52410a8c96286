import Foundation
import Testing
import VersionedCodable

// What a spec writes as an array is written whole by the real coder, beside the version: its
// elements are never the spec's objects, whatever they hold, and only the real coder encodes
// them, with the encoder's own userInfo and coding path.

@Suite("Arrays a spec writes beside the version")
struct SpecArraysTests {
    static let stampKey = CodingUserInfoKey(rawValue: "SpecArraysTests.stamp")!

    /// An element that can only be encoded with a stamp in the encoder's userInfo.
    struct Stamped: Codable, Equatable {
        var number: Int

        init(number: Int) { self.number = number }

        init(from decoder: any Decoder) throws {
            number = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .number)
        }

        func encode(to encoder: any Encoder) throws {
            guard let stamp = encoder.userInfo[SpecArraysTests.stampKey] as? String else {
                let context = EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "no stamp")
                throw EncodingError.invalidValue(number, context)
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(stamp, forKey: .stamp)
        }

        enum CodingKeys: String, CodingKey {
            case number, stamp
        }
    }

    /// Writes the version, then arrays of objects, of arrays and of dictionaries.
    struct ListsSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        var stamped = [Stamped(number: 1), Stamped(number: 2)]
        var grid = [[1, 2], [3]]
        var maps = [["k": [Stamped(number: 3)]]]

        init(withVersion version: Int?) { self.version = version }
    }

    struct Ledger: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ListsSpec
        var title: String
    }

    @Test("Arrays of objects, arrays and dictionaries are written whole, with the encoder's userInfo")
    func writtenWhole() throws {
        let encoder = JSONEncoder()
        encoder.userInfo = [Self.stampKey: "s"]
        let written = try encoder.encode(versioned: Ledger(title: "t"))
        let object = try SpecTruth.Format.json.object(written)
        #expect(object["version"] as? Int == 2)
        #expect(object["title"] as? String == "t")
        let stamped = try #require(object["stamped"] as? [[String: Any]])
        #expect(stamped.map { $0["number"] as? Int } == [1, 2])
        #expect(stamped.map { $0["stamp"] as? String } == ["s", "s"])
        #expect((object["grid"] as? [[Int]]) == [[1, 2], [3]])
        let maps = try #require(object["maps"] as? [[String: [[String: Any]]]])
        #expect(maps.first?["k"]?.first?["number"] as? Int == 3)
        #expect(try JSONDecoder().decode(versioned: Ledger.self, from: written) == Ledger(title: "t"))
    }

    @Test("An element that cannot be encoded fails the encode with its own error, where it is")
    func elementErrorIsThrown() {
        #expect {
            try JSONEncoder().encode(versioned: Ledger(title: "t"))
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.debugDescription == "no stamp" && context.codingPath.first?.stringValue == "stamped"
        }
    }

    /// An element that writes where it stands in the document, as its coding path says, and
    /// cannot stand at the root.
    struct Placed: Codable, Equatable {
        func encode(to encoder: any Encoder) throws {
            guard !encoder.codingPath.isEmpty else {
                let context = EncodingError.Context(codingPath: [], debugDescription: "not at the root")
                throw EncodingError.invalidValue(0, context)
            }
            var container = encoder.singleValueContainer()
            try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "/"))
        }
        init() {}
        init(from decoder: any Decoder) throws {}
    }

    /// Writes an array of elements that write their own place.
    struct PlacedSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        var placed = [Placed()]

        init(withVersion version: Int?) { self.version = version }
    }

    struct Map: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = PlacedSpec
        var title: String
    }

    @Test("An element is encoded only where it stands in the document")
    func elementsSeeTheirPlace() throws {
        let object = try SpecTruth.Format.json.object(JSONEncoder().encode(versioned: Map(title: "t")))
        let placed = try #require(object["placed"] as? [String])
        #expect(placed.count == 1 && placed.first?.hasPrefix("placed/") == true, "\(placed)")
    }

    /// Opens an object at `list` through a super encoder, writes an array there, then writes a
    /// number at the same key.
    struct ReplacedArraySpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        init(withVersion version: Int?) { self.version = version }
        init(from decoder: any Decoder) throws {
            version = try decoder.container(keyedBy: SpecWritingFormsTests.Key.self)
                .decodeIfPresent(Int.self, forKey: SpecWritingFormsTests.Key("version"))
        }
        func encode(to encoder: any Encoder) throws {
            var root = encoder.container(keyedBy: SpecWritingFormsTests.Key.self)
            try root.encode(version, forKey: SpecWritingFormsTests.Key("version"))
            var list = root.superEncoder(forKey: SpecWritingFormsTests.Key("list")).unkeyedContainer()
            try list.encode(1)
            try root.encode(5, forKey: SpecWritingFormsTests.Key("list"))
        }
    }

    struct Tally: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ReplacedArraySpec
        var count: Int
    }

    @Test("A spec's problem in an object stands when a value later replaces the object")
    func replacedObjectKeepsItsProblem() {
        #expect {
            try JSONEncoder().encode(versioned: Tally(count: 1))
        } throws: { error in
            "\(error)".contains("writes an array through superEncoder(forKey:)")
        }
    }

    /// Writes the version and a list beside it, and reads both.
    struct ListSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        var list = [1, 2]

        init(withVersion version: Int?) { self.version = version }
    }

    /// A map of counts whose root is the document's: it hands its coders to a dictionary.
    struct Counts: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ListSpec
        var counts: [String: Int]

        init(_ counts: [String: Int]) { self.counts = counts }
        init(from decoder: any Decoder) throws { counts = try [String: Int](from: decoder) }
        func encode(to encoder: any Encoder) throws { try counts.encode(to: encoder) }
    }

    @Test(
        "An array the spec reads is its own, as a single value is: a map beside it reads back, and a type sees none",
        arguments: SpecTruth.Format.allCases
    )
    func arrayReadBySpecIsTheSpecs(format: SpecTruth.Format) throws {
        let counts = Counts(["a": 1, "b": 2])
        let written = try format.write(counts)
        #expect(try format.object(written)["list"] as? [Int] == [1, 2])
        #expect(try format.readValue(Counts.self, written) == counts)
        let listing = SpecWritingFormsTests.Listing<ListSpec>(found: ["a", "b"])
        #expect(try format.readValue(type(of: listing), format.write(listing)) == listing)
    }
}
