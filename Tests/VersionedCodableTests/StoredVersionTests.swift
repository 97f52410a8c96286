import Foundation
import Testing
import VersionedCodable

@testable import PoemHistory

/// A note whose version lives in `_metadata`, beside the note's own field there.
private struct MetadataNote: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec

    struct Metadata: Codable, Equatable {
        var editor: String
    }
    var _metadata: Metadata
    var text: String
}

/// A note whose version is under `schemaVersion`, which a snake-case strategy writes as
/// `schema_version`.
private struct SchemaNote: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = SchemaVersionSpec

    var text: String
}

@Suite("Reading the version a document is stored with")
struct StoredVersionTests {
    @Test("The JSON sample names the version of a document the chain cannot read")
    func jsonSample() throws {
        var messages: [String] = []
        func log(_ message: String) {
            messages.append(message)
        }
        let data = Data(#"{"version":0,"author":"William Blake","poem":["Tyger Tyger"]}"#.utf8)
        var poem: Poem?

        // snippet: json-stored-version
        do {
            poem = try JSONDecoder().decode(versioned: Poem.self, from: data)
        } catch VersionedDecodingError.unsupportedVersion {
            let stored = try JSONDecoder().storedVersion(of: Poem.self, from: data)
            log("Poem has no version \(stored.map { String($0) } ?? "(none)")")
        }
        // end snippet

        #expect(poem == nil)
        #expect(messages == ["Poem has no version 0"])
    }

    @Test("The property list sample names the version of a document the chain cannot read")
    func propertyListSample() throws {
        var messages: [String] = []
        func log(_ message: String) {
            messages.append(message)
        }
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["version": -3, "author": "William Blake", "poem": ["Tyger Tyger"]],
            format: .binary,
            options: 0
        )
        var poem: Poem?

        // snippet: property-list-stored-version
        do {
            poem = try PropertyListDecoder().decode(versioned: Poem.self, from: data)
        } catch VersionedDecodingError.unsupportedVersion {
            let stored = try PropertyListDecoder().storedVersion(of: Poem.self, from: data)
            log("Poem has no version \(stored.map { String($0) } ?? "(none)")")
        }
        // end snippet

        #expect(poem == nil)
        #expect(messages == ["Poem has no version -3"])
    }

    @Test(
        "Every version a JSON document can have is read, supported or not",
        arguments: [
            (#"{"version":4,"title":"x"}"#, 4 as Int?),
            (#"{"version":0}"#, 0),
            (#"{"version":99}"#, 99),
            (#"{"version":-9223372036854775808}"#, Int.min),
            (#"{"author":"William Blake","lines":[]}"#, nil),
            (#"{"version":null}"#, nil),
        ]
    )
    func jsonVersions(document: String, expected: Int?) throws {
        #expect(try JSONDecoder().storedVersion(of: Poem.self, from: Data(document.utf8)) == expected)
    }

    @Test("What the library writes reads back as the version written, in JSON and both property lists")
    func writtenVersions() throws {
        let written: [(value: any VersionedCodable, asVersion: Int?)] = [
            (Poem.sample, 4), (Poem.sample, 3), (PoemV0(author: "William Blake", lines: ["Tyger Tyger"]), nil),
        ]
        for (value, version) in written {
            let json = try JSONEncoder().encode(versioned: value, asVersion: version)
            #expect(try JSONDecoder().storedVersion(of: Poem.self, from: json) == version)
            for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
                let encoder = PropertyListEncoder()
                encoder.outputFormat = format
                let plist = try encoder.encode(versioned: value, asVersion: version)
                #expect(try PropertyListDecoder().storedVersion(of: Poem.self, from: plist) == version)
            }
        }
    }

    @Test("A custom spec's version is read where the spec puts it, and a missing parent is no version")
    func customSpecs() throws {
        let decoder = JSONDecoder()
        let metadata = Data(#"{"_metadata":{"editor":"Ann","version":7},"text":"x"}"#.utf8)
        #expect(try decoder.storedVersion(of: MetadataNote.self, from: metadata) == 7)
        #expect(try decoder.storedVersion(of: MetadataNote.self, from: Data(#"{"text":"x"}"#.utf8)) == nil)
        // The root key is not where this spec looks.
        #expect(try decoder.storedVersion(of: MetadataNote.self, from: Data(#"{"version":2}"#.utf8)) == nil)

        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let snake = Data(#"{"schema_version":5,"text":"x"}"#.utf8)
        #expect(try decoder.storedVersion(of: SchemaNote.self, from: snake) == 5)
    }

    @Test(
        "A version that is not an integer, or a document that is not an object, throws DecodingError",
        arguments: [
            #"{"version":"2"}"#, #"{"version":2.5}"#, #"{"version":true}"#, #"{"version":{}}"#,
            #"{"version":1e300}"#, #"[1,2]"#, #""version""#, #"{"version":2"#, "",
        ]
    )
    func unreadableVersions(document: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().storedVersion(of: Poem.self, from: Data(document.utf8))
        }
    }

    @Test("An XML property list too deep for Foundation's reader is refused before it is read")
    func deepPropertyList() {
        let depth = 5_000
        let xml =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
            + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        #expect(throws: DecodingError.self) {
            try PropertyListDecoder().storedVersion(of: Poem.self, from: Data(xml.utf8))
        }
    }
}
