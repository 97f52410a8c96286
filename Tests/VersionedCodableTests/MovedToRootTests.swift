import Foundation
import Testing
import VersionedCodable

// A chain whose older versions kept the version in a place of their own, and whose newest
// keeps it at the root: each document is read through the spec that wrote it.

@Suite("Chains whose newest version keeps the version at the root")
struct MovedToRootTests {
    /// Versions 0 and 1 kept the version in `_metadata`; version 2 moved it to the root.
    struct NoteV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var title: String
    }

    struct NoteV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NoteV0
        typealias VersionSpec = MetadataVersionSpec
        var title: String
        init(title: String) { self.title = title }
        init(from old: NoteV0) { title = old.title + "+1" }
    }

    struct Note: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NoteV1
        var title: String
        init(title: String) { self.title = title }
        init(from old: NoteV1) { title = old.title + "+2" }
        func downgraded() throws -> NoteV1 { NoteV1(title: title) }
    }

    /// Version 1 wrote the version as a string at the root.
    struct LabelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = StringVersionSpec
        var text: String
    }

    struct Label: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = LabelV1
        var text: String
        init(text: String) { self.text = text }
        init(from old: LabelV1) { text = old.text.uppercased() }
        func downgraded() throws -> LabelV1 { LabelV1(text: text.lowercased()) }
    }

    /// The `nil` version kept its version in `_metadata`, beside an optional header of its own
    /// there; version 1 moved the version to the root.
    struct HeadedV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Header: Codable, Equatable { var by: String? }
        var title: String
        var _metadata: Header?
    }

    struct Headed: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = HeadedV0
        var title: String
        var header: HeadedV0.Header?
        init(title: String, header: HeadedV0.Header?) {
            self.title = title
            self.header = header
        }
        init(from old: HeadedV0) { self.init(title: old.title, header: old._metadata) }
        func downgraded() throws -> HeadedV0 { HeadedV0(title: title, _metadata: header) }
    }

    /// Version 1 has a `_metadata` of its own where the `nil` version's spec kept the version.
    struct Tagged: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NoteV0
        var title: String
        var _metadata: [String: String]?
        init(title: String, _metadata: [String: String]?) {
            self.title = title
            self._metadata = _metadata
        }
        init(from old: NoteV0) { self.init(title: old.title, _metadata: nil) }
    }

    @Test("A document of the nil version is read with the places of that version's own spec")
    func nilVersionsOwnPlaces() throws {
        // No spec reads a version from `{"_metadata":{},"title":"a"}`; the empty object is what
        // `HeadedV0`'s spec wrote, not a header, in the newest build as in `HeadedV0`'s own.
        for header in [nil, HeadedV0.Header(by: "x")] {
            for (_, encode) in VersionPlacementTests.formats {
                let own = try HeadedV0(title: "a", _metadata: header).encodeTransparently(using: encode)
                let read = try VersionPlacementTests.decode(Headed.self, own)
                #expect(read.storedVersion == nil)
                #expect(read.wrappedValue == Headed(title: "a", header: header))
                #expect(try VersionPlacementTests.decode(HeadedV0.self, own).wrappedValue._metadata == header)
                let written = try Headed(title: "a", header: header).encodeTransparently(asVersion: nil, using: encode)
                #expect(try VersionPlacementTests.decode(Headed.self, written).wrappedValue.header == header)
            }
        }
        // A document the decoder's `versionsToRead` reads as version 1 is version 1's: its empty
        // `_metadata` is its own.
        let decoder = JSONDecoder()
        decoder.userInfo[.versionsToRead] = VersionsToWrite().writing(Tagged.self, asVersion: 1)
        let listed = try decoder.decode(versioned: Tagged.self, from: Data(#"{"title":"a","_metadata":{}}"#.utf8))
        #expect(listed == Tagged(title: "a", _metadata: [:]))
    }

    @Test("Documents of every version read back, the older ones through their own spec")
    func everyVersionReads() throws {
        try Note.validateVersionChain()
        for (_, encode) in VersionPlacementTests.formats {
            let current = try Note(title: "a").encodeTransparently(using: encode)
            #expect(try VersionPlacementTests.decode(Note.self, current).wrappedValue == Note(title: "a"))
            let older = try Note(title: "a").encodeTransparently(asVersion: 1, using: encode)
            let read = try VersionPlacementTests.decode(Note.self, older)
            #expect(read.storedVersion == 1)
            #expect(read.wrappedValue == Note(title: "a+2"))
        }
        let v1 = Data(#"{"_metadata": {"version": 1}, "title": "a"}"#.utf8)
        #expect(try JSONDecoder().decode(versioned: Note.self, from: v1) == Note(title: "a+2"))
        let v0 = Data(#"{"title": "a"}"#.utf8)
        #expect(try JSONDecoder().decode(versioned: Note.self, from: v0) == Note(title: "a+1+2"))
    }

    @Test(
        "A version at an older spec's place that the spec cannot read is an error, never the nil version",
        arguments: [
            (#"{"version": 1}"#, "a+2"), ("{}", "a+1+2"), (#"{"version": "1"}"#, nil), (#"{"version": true}"#, nil),
            ("[1]", nil), (#""v1""#, nil),
        ] as [(String, String?)]
    )
    func damagedOlderVersion(metadata: String, title: String?) throws {
        let text = #"{"_metadata": \#(metadata), "title": "a"}"#
        let json = Data(text.utf8)
        let object = try JSONSerialization.jsonObject(with: json)
        let documents = [
            json,
            try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0),
            try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0),
        ]
        for data in documents {
            let decoded = Result { try VersionPlacementTests.decode(Note.self, data) }
            if let title {
                #expect(try decoded.get().wrappedValue == Note(title: title))
            } else {
                // Read as the nil version, it would lose what `_metadata` holds with no error.
                #expect(throws: DecodingError.self) { try decoded.get() }
            }
        }
    }

    @Test("A version an older spec wrote as a string is read by that spec, where the newest spec cannot read it")
    func olderStringVersion() throws {
        // `Label`'s own spec finds a string where it reads an integer; `LabelV1`'s spec, asked
        // next, reads the label as version 1.
        try Label.validateVersionChain()
        let v1 = Data(#"{"version": "1", "text": "old"}"#.utf8)
        let read = try JSONDecoder().decodeWithStoredVersion(Label.self, from: v1)
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == Label(text: "OLD"))
        let written = try JSONEncoder().encode(versioned: Label(text: "new"), asVersion: 1)
        #expect(try JSONDecoder().decode(versioned: Label.self, from: written) == Label(text: "NEW"))
        // A string no spec of the chain reads as a version is the newest spec's error.
        #expect {
            try JSONDecoder().decode(versioned: Label.self, from: Data(#"{"version": "one", "text": "old"}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch = error else { return false }
            return true
        }
    }
}
