import Foundation
import Testing
import VersionedCodable

@testable import PoemHistory

/// The version and the type read the document's root through one shared keyed container; these
/// tests check that the type sees the same decoder it would see without versioning.
@Suite("Reading the version and the fields through one root container")
struct SharedRootDecoderTests {
    /// Reads every key of its root, as types with open-ended keys do.
    struct Tally: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var counts: [String: Int]

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(counts: [String: Int]) { self.counts = counts }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            var counts: [String: Int] = [:]
            for key in container.allKeys where key.stringValue != "version" {
                counts[key.stringValue] = try container.decode(Int.self, forKey: key)
            }
            self.counts = counts
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for (name, count) in counts {
                try container.encode(count, forKey: AnyKey(stringValue: name))
            }
        }
    }

    /// Decodes part of itself through a super decoder and a nested container.
    struct Layered: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var base: [String]
        var name: String
        var inner: Int

        enum CodingKeys: String, CodingKey { case base, name, nested }
        enum NestedKeys: String, CodingKey { case inner }

        init(base: [String], name: String, inner: Int) {
            self.base = base
            self.name = name
            self.inner = inner
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            base = try [String](from: container.superDecoder(forKey: .base))
            name = try container.decode(String.self, forKey: .name)
            inner = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested).decode(
                Int.self,
                forKey: .inner
            )
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(base, forKey: .base)
            try container.encode(name, forKey: .name)
            var nested = container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
            try nested.encode(inner, forKey: .inner)
        }
    }

    @Test("A type that lists its keys sees every key of the document, the version among them")
    func allKeys() throws {
        let data = Data(#"{"version": 1, "apples": 3, "pears": 5}"#.utf8)
        #expect(
            try JSONDecoder().decode(versioned: Tally.self, from: data) == Tally(counts: ["apples": 3, "pears": 5])
        )
        let written = try JSONEncoder().encode(versioned: Tally(counts: ["figs": 1]))
        #expect(try JSONDecoder().decode(versioned: Tally.self, from: written) == Tally(counts: ["figs": 1]))
    }

    @Test("Super decoders and nested containers work through the shared root")
    func superAndNested() throws {
        let value = Layered(base: ["a", "b"], name: "n", inner: 7)
        for data in [try JSONEncoder().encode(versioned: value), try PropertyListEncoder().encode(versioned: value)] {
            let isJSON = data.first == UInt8(ascii: "{")
            let decoded =
                isJSON
                ? try JSONDecoder().decode(versioned: Layered.self, from: data)
                : try PropertyListDecoder().decode(versioned: Layered.self, from: data)
            #expect(decoded == value)
        }
    }

    @Test("A missing field is reported with the type's own key and path")
    func missingFieldError() throws {
        let data = Data(#"{"version": 4, "author": {"name": "A"}, "stanzas": [], "stars": 3}"#.utf8)
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(versioned: Poem.self, from: data)
        }
        guard case .keyNotFound(let key, let context)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "title")
        #expect("\(type(of: key))".contains("CodingKeys"))
        #expect(context.codingPath.isEmpty)
    }

    @Test("A field of the wrong type deep inside is reported with its full path")
    func nestedTypeMismatch() throws {
        let data = Data(#"{"version": 4, "author": {"name": 12}, "title": "t", "stanzas": [], "stars": 3}"#.utf8)
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(versioned: Poem.self, from: data)
        }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["author", "name"])
    }

    @Test("A root that is not an object fails as a plain decode of the same root does")
    func rootNotAnObject() throws {
        for document in ["[1, 2]", "\"text\"", "12", "null"] {
            let error = #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(versioned: Poem.self, from: Data(document.utf8))
            }
            switch error {
            case .typeMismatch?, .valueNotFound?:
                continue
            default:
                Issue.record("\(document): unexpected \(String(describing: error))")
            }
        }
    }
}
