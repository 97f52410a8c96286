import Foundation
import Testing
import VersionedCodable

@testable import PoemHistory

@Suite("Any coder through decodeTransparently and encodeTransparently")
struct DecodeTransparentlyTests {
    @Test("The decode function is called once per document: the document is parsed once")
    func decodeFunctionCalledOnce() throws {
        let data = try FixtureFiles.data("Poem", "v1.json")
        var calls: [String] = []
        let poem: Poem = try Poem.decodeTransparently(from: data) { type, data in
            calls.append("\(type)")
            return try JSONDecoder().decode(type, from: data)
        }
        #expect(calls == ["Versioned<Poem>"])
        #expect(poem == VersionedCodableTests.expectedFromFixture["v1"])
    }

    @Test("Every fixture decodes through a property-list decode function")
    func propertyListThroughFunction() throws {
        for name in try FixtureFiles.names("Poem") where name.hasSuffix(".plist") {
            let poem: Poem = try Poem.decodeTransparently(from: FixtureFiles.data("Poem", name)) {
                try PropertyListDecoder().decode($0, from: $1)
            }
            #expect(poem == VersionedCodableTests.expectedFromFixture[String(name.prefix { $0 != "." })])
        }
    }

    @Test("Other XML than a property list reaches the decode function whatever its nesting")
    func otherXMLIsNotChecked() throws {
        let depth = 1_000
        let xml = Data(
            ("<poem>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</poem>")
                .utf8
        )
        struct Handed: Error {}
        #expect(throws: Handed.self) {
            let _: Poem = try Poem.decodeTransparently(from: xml) { _, _ in throw Handed() }
        }
    }

    @Test("A decode function that returns the wrong type throws instead of trapping")
    func wrongReturnTypeThrows() throws {
        let data = try FixtureFiles.data("Poem", "v4.json")
        let error = #expect(throws: VersionedDecodingError.self) {
            let _: Poem = try Poem.decodeTransparently(from: data) { _, data in
                try JSONDecoder().decode(PoemV1.self, from: Data(#"{"author":"a","poem":[]}"#.utf8))
            }
        }
        guard case .decodeFunctionReturnedWrongType(let expected, let returned)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(isSameType(expected, Versioned<Poem>.self))
        #expect(isSameType(returned, PoemV1.self))
        #expect("\(error!)".contains("PoemV1"))
    }

    @Test("encodeTransparently writes the version and passes the function's errors through")
    func encodeThroughFunction() throws {
        struct Refused: Error, Equatable {}
        let poem = try #require(VersionedCodableTests.expectedFromFixture["v3"])
        let data = try poem.encodeTransparently { try JSONEncoder().encode($0) }
        #expect(try JSONDecoder().decode(versioned: Poem.self, from: data) == poem)
        #expect(throws: Refused()) {
            try poem.encodeTransparently { _ in throw Refused() }
        }
    }
}
