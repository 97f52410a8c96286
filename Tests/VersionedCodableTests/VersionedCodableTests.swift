import Foundation
import Testing
import VersionedCodable

@testable import PoemHistory

@Suite("Decoding a version chain")
struct VersionedCodableTests {
    static let expectedFromFixture: [String: Poem] = [
        "unversioned": Poem(
            author: Author(name: "Edward Lear", born: nil),
            title: "Untitled",
            stanzas: [["The Owl and the Pussy-cat went to sea", "In a beautiful pea-green boat,"]],
            stars: 3
        ),
        "v1": Poem(
            author: Author(name: "Christina Rossetti", born: nil),
            title: "Untitled",
            stanzas: [["Who has seen the wind?", "Neither I nor you:"]],
            stars: 3
        ),
        "v2": Poem(
            author: Author(name: "Lewis Carroll", born: nil),
            title: "Untitled",
            stanzas: [
                ["'Twas brillig, and the slithy toves", "Did gyre and gimble in the wabe:"],
                ["All mimsy were the borogoves,", "And the mome raths outgrabe."],
            ],
            stars: 5
        ),
        "v3": Poem(
            author: Author(name: "Emily Dickinson", born: 1830),
            title: "Hope",
            stanzas: [["Hope is the thing with feathers", "That perches in the soul"]],
            stars: 1
        ),
        "v3-no-title": Poem(
            author: Author(name: "Anonymous", born: nil),
            title: "Untitled",
            stanzas: [["Sumer is icumen in"]],
            stars: 3
        ),
        "v4": Poem(
            author: Author(name: "William Blake", born: 1757),
            title: "The Tyger",
            stanzas: [
                ["Tyger Tyger, burning bright,", "In the forests of the night;"],
                ["What immortal hand or eye,", "Could frame thy fearful symmetry?"],
            ],
            stars: 3
        ),
    ]

    static let storedVersion: [String: Int?] = [
        "unversioned": nil, "v1": 1, "v2": 2, "v3": 3, "v3-no-title": 3, "v4": 4,
    ]

    static var fixtureNames: [String] {
        (try? FixtureFiles.names("Poem")) ?? []
    }

    @Test("Every fixture of every version decodes into the current type", arguments: fixtureNames)
    func fixtureDecodes(name: String) throws {
        let data = try FixtureFiles.data("Poem", name)
        let stem = String(name.prefix { $0 != "." })
        let expected = try #require(Self.expectedFromFixture[stem], "no expected value for \(name)")
        let read: Versioned<Poem>
        if name.hasSuffix(".json") {
            read = try JSONDecoder().decodeWithStoredVersion(Poem.self, from: data)
            #expect(try JSONDecoder().decode(versioned: Poem.self, from: data) == expected)
        } else {
            read = try PropertyListDecoder().decodeWithStoredVersion(Poem.self, from: data)
            #expect(try PropertyListDecoder().decode(versioned: Poem.self, from: data) == expected)
        }
        #expect(read.wrappedValue == expected)
        #expect(read.storedVersion == Self.storedVersion[stem]!)
        #expect(read.wasMigrated == (stem != "v4"))
    }

    @Test("The fixtures cover every version in JSON and both property-list formats")
    func fixturesCoverEveryVersion() throws {
        let names = Set(try FixtureFiles.names("Poem"))
        for version in VersionChain(for: Poem.self).versions {
            let stem = version.map { "v\($0)" } ?? "unversioned"
            for format in ["json", "xml.plist", "binary.plist"] {
                #expect(names.contains("\(stem).\(format)"), "missing \(stem).\(format)")
            }
        }
    }

    @Test("The one-line decode reads an old document into the current type")
    func oneLineDecode() throws {
        let data = try FixtureFiles.data("Poem", "v2.json")
        // snippet: decode-one
        let poem = try JSONDecoder().decode(versioned: Poem.self, from: data)
        // end snippet
        #expect(poem == Self.expectedFromFixture["v2"])
    }

    @Test("A document is decoded as the type whose version matches, not a neighbour's")
    func intermediateTypesDecodeTheirOwnVersion() throws {
        let v2 = try FixtureFiles.data("Poem", "v2.json")
        let asV3 = try JSONDecoder().decode(versioned: PoemV3.self, from: v2)
        #expect(asV3.author == Author(name: "Lewis Carroll", born: nil))
        #expect(asV3.title == nil)
        let asV2 = try JSONDecoder().decode(versioned: PoemV2.self, from: v2)
        #expect(asV2.rating == .love)
        #expect(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: PoemV1.self, from: v2)
        }
    }

    @Test("A migration error reaches the caller unchanged, with its context")
    func migrationErrorPropagates() throws {
        let data = Data(#"{"version": 3, "author": {"name": ""}, "poem": "x", "rating": "meh"}"#.utf8)
        do {
            _ = try JSONDecoder().decode(versioned: Poem.self, from: data)
            Issue.record("decoding should have thrown")
        } catch VersionedDecodingError.fieldNoLongerValid(let context) {
            #expect(context.debugDescription == "A poem needs an author; this one has an empty name.")
        }
    }

    @Test("Other errors thrown by a migration step are not wrapped")
    func customMigrationErrorIsNotWrapped() throws {
        struct Refused: Error, Equatable {}
        struct OldThing: VersionedCodable {
            static let version: Int? = 1
            typealias PreviousVersion = NothingEarlier
            var n: Int
        }
        struct NewThing: VersionedCodable {
            static let version: Int? = 2
            typealias PreviousVersion = OldThing
            var n: Int
            init(from old: OldThing) throws { throw Refused() }
        }
        #expect(throws: Refused()) {
            try JSONDecoder().decode(versioned: NewThing.self, from: Data(#"{"version":1,"n":1}"#.utf8))
        }
    }

    @Test("A version below the oldest type is unsupported and names the oldest type")
    func olderVersionIsUnsupported() throws {
        let data = Data(#"{"version": 0, "author": "x", "lines": []}"#.utf8)
        do {
            _ = try JSONDecoder().decode(versioned: Poem.self, from: data)
            Issue.record("decoding should have thrown")
        } catch VersionedDecodingError.unsupportedVersion(let tried) {
            #expect(isSameType(tried, PoemV0.self))
        }
    }

    @Test("A version missing from the middle of a chain is unsupported")
    func gapInVersionsIsUnsupported() throws {
        struct GapV1: VersionedCodable {
            static let version: Int? = 1
            typealias PreviousVersion = NothingEarlier
        }
        struct GapV3: VersionedCodable {
            static let version: Int? = 3
            typealias PreviousVersion = GapV1
            init(from old: GapV1) throws {}
        }
        do {
            _ = try JSONDecoder().decode(versioned: GapV3.self, from: Data(#"{"version": 2}"#.utf8))
            Issue.record("decoding should have thrown")
        } catch VersionedDecodingError.unsupportedVersion(let tried) {
            #expect(isSameType(tried, GapV1.self))
        }
    }

    @Test("A document newer than the newest type says so and names both versions")
    func newerDocumentIsReported() throws {
        let data = Data(#"{"version": 9, "author": "x"}"#.utf8)
        do {
            _ = try JSONDecoder().decode(versioned: Poem.self, from: data)
            Issue.record("decoding should have thrown")
        } catch let error as VersionedDecodingError {
            guard case .documentVersionTooNew(let found, let newest) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(found == 9)
            #expect(isSameType(newest, Poem.self))
            #expect("\(error)".contains("version 9"))
            #expect("\(error)".contains("version 4"))
            #expect("\(error)".contains("4, 3, 2, 1, nil"))
        }
    }

    @Test("A missing version key and a null version both read as the nil version")
    func missingAndNullVersionAreNil() throws {
        let missing = Data(#"{"author": "A", "lines": ["x"]}"#.utf8)
        let null = Data(#"{"version": null, "author": "A", "lines": ["x"]}"#.utf8)
        let a = try JSONDecoder().decodeWithStoredVersion(Poem.self, from: missing)
        let b = try JSONDecoder().decodeWithStoredVersion(Poem.self, from: null)
        #expect(a.storedVersion == nil)
        #expect(b.storedVersion == nil)
        #expect(a.wrappedValue == b.wrappedValue)
        #expect(a.wrappedValue.stanzas == [["x"]])
    }

    @Test("A chain without a nil version rejects unversioned documents")
    func noNilVersionRejectsUnversioned() throws {
        do {
            _ = try JSONDecoder().decode(versioned: PoemV3.self, from: Data(#"{"author":"x"}"#.utf8))
            Issue.record("decoding should have thrown")
        } catch VersionedDecodingError.unsupportedVersion(let tried) {
            // PoemV3's chain does reach PoemV0, whose version is nil, so this decodes in the
            // real chain; a chain that stops at version 1 must refuse.
            Issue.record("PoemV3 reaches PoemV0 and should decode, tried \(tried)")
        } catch {
            // PoemV0 needs `lines`; the document has none.
            #expect(error is DecodingError)
        }
        struct OnlyOne: VersionedCodable {
            static let version: Int? = 1
            typealias PreviousVersion = NothingEarlier
        }
        do {
            _ = try JSONDecoder().decode(versioned: OnlyOne.self, from: Data("{}".utf8))
            Issue.record("decoding should have thrown")
        } catch VersionedDecodingError.unsupportedVersion(let tried) {
            #expect(isSameType(tried, OnlyOne.self))
        }
    }

    @Test("Encoding writes the current version after the type's own fields")
    func encodeWritesVersionAfterFields() throws {
        let poem = try JSONDecoder().decode(versioned: Poem.self, from: FixtureFiles.data("Poem", "v4.json"))
        let data = try JSONEncoder().encode(versioned: poem)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == 4)
        #expect(Set(object.keys) == ["author", "title", "stanzas", "stars", "version"])
        #expect(try JSONDecoder().decode(versioned: Poem.self, from: data) == poem)
        // Foundation's encoders do not keep key order, so the order of writes is checked with
        // an encoder that records it.
        let writes = try KeyOrderEncoder.keys(writtenBy: Versioned(poem))
        #expect(writes == ["author", "title", "stanzas", "stars", "version"])
    }

    @Test("Values round-trip through JSON and both property-list formats")
    func roundTrips() throws {
        let poem = Self.expectedFromFixture["v2"]!
        let json = try JSONEncoder().encode(versioned: poem)
        #expect(try JSONDecoder().decode(versioned: Poem.self, from: json) == poem)
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let plist = try encoder.encode(versioned: poem)
            let object = try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]
            #expect(object?["version"] as? Int == 4)
            #expect(try PropertyListDecoder().decode(versioned: Poem.self, from: plist) == poem)
        }
    }

    @Test("An unversioned type encodes without a version key")
    func nilVersionWritesNoKey() throws {
        let data = try JSONEncoder().encode(versioned: PoemV0(author: "A", lines: ["x"]))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] == nil)
        #expect(try JSONDecoder().decode(versioned: PoemV0.self, from: data) == PoemV0(author: "A", lines: ["x"]))
    }

    @Test("NothingEarlier cannot be decoded and ends every chain")
    func nothingEarlier() throws {
        #expect(NothingEarlier.version == nil)
        #expect(isSameType(NothingEarlier.PreviousVersion.self, NothingEarlier.self))
        let plain = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NothingEarlier.self, from: Data("{}".utf8))
        }
        let versioned = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(versioned: NothingEarlier.self, from: Data("{}".utf8))
        }
        for error in [plain, versioned] {
            guard case .typeMismatch(let type, _)? = error else {
                Issue.record("expected a type mismatch, got \(String(describing: error))")
                continue
            }
            #expect(isSameType(type, NothingEarlier.self))
        }
        #expect(VersionChain(for: PoemV0.self).versions == [nil])
    }

    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    @Test("Never is a versioned type with no version that cannot be decoded")
    func neverConforms() throws {
        #expect(Never.version == nil)
        #expect(isSameType(Never.PreviousVersion.self, NothingEarlier.self))
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(versioned: Never.self, from: Data("{}".utf8))
        }
        guard case .typeMismatch? = error else {
            Issue.record("expected a type mismatch, got \(String(describing: error))")
            return
        }
    }

    @Test("Many concurrent decodes of every version give the same values")
    func concurrentDecodes() async throws {
        let names = try FixtureFiles.names("Poem").filter { $0.hasSuffix(".json") }
        let documents = try names.map { try FixtureFiles.data("Poem", $0) }
        let expected = names.map { Self.expectedFromFixture[String($0.prefix { $0 != "." })]! }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var mismatches = 0
                    let decoder = JSONDecoder()
                    for round in 0..<50 {
                        let index = (task + round) % documents.count
                        if try decoder.decode(versioned: Poem.self, from: documents[index]) != expected[index] {
                            mismatches += 1
                        }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
