import Foundation
import Testing
import VersionedCodable

// What a spec writes as an array is written whole by the real coder, beside the version: its
// elements are never the spec's objects, whatever they hold, and they are encoded with the
// encoder's own userInfo.

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

    @Test("An element that cannot be encoded fails the encode with its own error")
    func elementErrorIsThrown() {
        #expect {
            try JSONEncoder().encode(versioned: Ledger(title: "t"))
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.debugDescription == "no stamp"
        }
    }
}
