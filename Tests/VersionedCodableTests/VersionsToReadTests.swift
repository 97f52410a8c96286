import Foundation
import Testing
import VersionedCodable

@Suite("Reading documents whose writers leave the version out")
struct VersionsToReadTests {
    typealias Part = VersionsToWriteTests.Part
    typealias PartV1 = VersionsToWriteTests.PartV1

    struct Box: Codable {
        var parts: [Versioned<Part>]
    }

    private func decoder(_ versions: VersionsToWrite) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[.versionsToRead] = versions
        return decoder
    }

    @Test("A part without a version is read as the listed version; one with it as stored")
    func partsWithoutVersion() throws {
        let data = Data(#"{"parts": [{"name": "a"}, {"version": 1, "name": "b"}]}"#.utf8)
        let box = try decoder(VersionsToWrite().writing(Part.self, asVersion: 1)).decode(Box.self, from: data)
        #expect(box.parts.map(\.wrappedValue) == [Part(name: "a", count: 1), Part(name: "b", count: 1)])
        #expect(box.parts.map(\.storedVersion) == [1, 1])
        // Without the list, a part without a version is not one the chain has.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Box.self, from: data) }
    }

    @Test("A part that carries another version than the listed one is refused where it is")
    func partWithAnotherVersion() throws {
        let data = Data(#"{"parts": [{"version": 2, "name": "a", "count": 3}]}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try decoder(VersionsToWrite().writing(Part.self, asVersion: 1)).decode(Box.self, from: data)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["parts", "Index 0"])
        #expect("\(error)".contains("version 2"))
    }

    @Test("The root of a document too, through decode(versioned:)")
    func root() throws {
        let data = Data(#"{"name": "a"}"#.utf8)
        let decoder = decoder(VersionsToWrite().writing(Part.self, asVersion: 1))
        #expect(try decoder.decode(versioned: Part.self, from: data) == Part(name: "a", count: 1))
        #expect(throws: (any Error).self) {
            try decoder.decode(versioned: Part.self, from: Data(#"{"version": 2, "name": "a", "count": 1}"#.utf8))
        }
    }
}
