import Foundation
import Testing
import VersionedCodable

@Suite("Extending other coders with decodeTransparently and encodeTransparently")
struct OtherCoderTests {
    @Test("A coder extended as 1.2's guide shows decodes an old document")
    func extendedCoderDecodes() throws {
        let data = document(#"{"version": 1, "author": "Anonymous", "poem": ["a", "b"]}"#)
        let poem = try TapeDecoder().decode(versioned: Poem.self, from: data)
        #expect(poem == Poem(author: "Anonymous", poem: "a\nb", rating: .meh))
    }

    @Test("A coder extended as 1.2's guide shows encodes the version")
    func extendedCoderEncodes() throws {
        let data = try TapeEncoder().encode(versioned: Poem(author: "A", poem: "B", rating: .love))
        let object = try jsonObject(data)
        #expect(object["version"] as? Int == 3)
        #expect(object["author"] as? String == "A")
        #expect(String(decoding: data, as: UTF8.self).hasPrefix(#"{"author":"A""#))
    }

    @Test("A program's own method names on JSONDecoder and JSONEncoder round-trip")
    func renamedMethods() throws {
        let sonnet = Sonnet(title: "Sonnet 18", lines: ["Shall I", "Thou art"])
        let data = try JSONEncoder().encodeArchived(sonnet)
        #expect(try jsonObject(data)["schemaVersion"] as? Int == 2)
        #expect(try JSONDecoder().decodeArchived(Sonnet.self, from: data) == sonnet)
    }

    @Test("Closures stored with 1.2's spelling of the function types work")
    func storedFunctions() throws {
        let decode = StoredCoderFunctions.decodeFunction(for: TapeDecoder())
        let encode = StoredCoderFunctions.encodeFunction(for: TapeEncoder())

        let old = document(#"{"version": 2, "author": "Blake", "poem": "Tyger", "starRating": 2}"#)
        let poem: Poem = try Poem.decodeTransparently(from: old, using: decode)
        #expect(poem.rating == .hate)

        let data = try poem.encodeTransparently(using: encode)
        #expect(try jsonObject(data)["version"] as? Int == 3)
    }

    @Test("A closure that cannot throw makes encodeTransparently need no try")
    func nonThrowingEncode() throws {
        let encoder = JSONEncoder()
        let data = Limerick(title: "T", lines: ["L"]).encodeTransparently { value in
            (try? encoder.encode(value)) ?? Data()
        }
        #expect(try jsonObject(data)["version"] as? Int == 1)
    }

    @Test("Errors thrown by a migration reach the caller of another coder unchanged")
    func migrationErrorThroughOtherCoder() {
        let data = document(#"{"version": 2, "author": "Blake", "poem": "Tyger", "starRating": 11}"#)
        #expect(throws: VersionedDecodingError.fieldNoLongerValid(.init(codingPath: [], debugDescription: ""))) {
            try TapeDecoder().decode(versioned: Poem.self, from: data)
        }
    }

    @Test("An unsupported version through another coder names the oldest type tried")
    func unsupportedThroughOtherCoder() {
        let data = document(#"{"version": 0, "author": "Anonymous", "poem": ["a"]}"#)
        #expect(throws: VersionedDecodingError.unsupportedVersion(tried: PoemV1.self)) {
            try JSONDecoder().decodeArchived(Poem.self, from: data)
        }
    }
}
