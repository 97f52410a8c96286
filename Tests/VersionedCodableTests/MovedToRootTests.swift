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

    @Test("A version an older spec wrote as a string is a type mismatch, and the chain does not validate")
    func olderStringVersion() throws {
        // A spec must write the version as an integer in keyed objects; one that writes a
        // string cannot hold a version, and the chain that uses it says so.
        let v1 = Data(#"{"version": "1", "text": "old"}"#.utf8)
        #expect {
            try JSONDecoder().decode(versioned: Label.self, from: v1)
        } throws: { error in
            guard case DecodingError.typeMismatch = error else { return false }
            return true
        }
        #expect(throws: VersionedDecodingError.self) { try Label.validateVersionChain() }
    }
}
