import Foundation
import Testing
import VersionedCodable

// An integer the type writes where its spec writes the version mirrors the version, at every
// place the spec writes it, and is written as the version being written.

@Suite("Version mirrors where a spec writes the version twice")
struct VersionMirrorTests {
    /// Writes the version under `version` and `legacyVersion`, and reads it from the second.
    struct TwiceSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.legacyVersion }
        var version: Int?
        var legacyVersion: Int?
        init(withVersion version: Int?) {
            self.version = version
            legacyVersion = version
        }
    }

    struct NoteV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = TwiceSpec
        var text: String
    }

    /// Keeps a mirror of the version at the key the spec reads, stale after a migration.
    struct Note: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NoteV1
        typealias VersionSpec = TwiceSpec
        var text: String
        var legacyVersion: Int?

        init(text: String, legacyVersion: Int?) {
            self.text = text
            self.legacyVersion = legacyVersion
        }

        init(from old: NoteV1) {
            self.init(text: old.text, legacyVersion: 1)
        }
    }

    @Test("A stale mirror at either place the spec writes the version is written as the version")
    func staleMirrorAtEitherPlace() throws {
        try Note.validateVersionChain()
        let migrated = try JSONDecoder().decode(
            versioned: Note.self,
            from: JSONEncoder().encode(versioned: NoteV1(text: "t"))
        )
        #expect(migrated.legacyVersion == 1)
        let written = try JSONEncoder().encode(versioned: migrated)
        let object = try SpecTruth.Format.json.object(written)
        #expect(object["version"] as? Int == 2)
        #expect(object["legacyVersion"] as? Int == 2)
        #expect(try JSONDecoder().decode(versioned: Note.self, from: written).text == "t")
    }
}
