import DocumentStore
import Foundation
import Testing
import VersionedCodable

@Suite("Note's version chain")
struct NoteTests {
    let decoder = JSONDecoder()

    @Test("A note written before versioning has its text split into lines and no tags")
    func unversionedNoteMigrates() throws {
        let json = #"{"title":"Trip","text":"pack\n\nleave"}"#
        let read = try decoder.decodeWithStoredVersion(Note.self, from: Data(json.utf8))
        #expect(read.storedVersion == nil)
        #expect(read.wasMigrated)
        #expect(
            read.wrappedValue == Note(title: "Trip", lines: ["pack", "", "leave"], tags: [], pinned: false)
        )
    }

    @Test("A version 1 note keeps its lines and gets no tags")
    func versionOneMigrates() throws {
        let json = #"{"version":1,"title":"Trip","lines":["pack"]}"#
        let note = try decoder.decode(versioned: Note.self, from: Data(json.utf8))
        #expect(note == Note(title: "Trip", lines: ["pack"], tags: [], pinned: false))
    }

    @Test("A version 2 note's pinned tag becomes the pinned field")
    func versionTwoPinnedTagBecomesField() throws {
        let json = #"{"version":2,"title":"Trip","lines":["pack"],"tags":["pinned","travel"]}"#
        let note = try decoder.decode(versioned: Note.self, from: Data(json.utf8))
        #expect(note == Note(title: "Trip", lines: ["pack"], tags: ["travel"], pinned: true))
    }

    @Test("A version 3 note is read as it is, without migration")
    func currentVersionIsNotMigrated() throws {
        let json = #"{"version":3,"title":"Trip","lines":["pack"],"tags":["pinned"],"pinned":false}"#
        let read = try decoder.decodeWithStoredVersion(Note.self, from: Data(json.utf8))
        #expect(!read.wasMigrated)
        #expect(read.wrappedValue == Note(title: "Trip", lines: ["pack"], tags: ["pinned"], pinned: false))
    }

    @Test("The chain is valid")
    func chainIsValid() throws {
        try Note.validateVersionChain()
    }
}
