import Foundation
import Testing
import VersionedCodable

@testable import PoemHistory

/// The samples in the documentation comments of the Foundation coder extensions, run as they
/// are written there: Scripts/sync-snippets.py copies each region into its comment.
@Suite("The coder extensions' documentation samples")
struct CoderSampleTests {
    @Test("The JSON samples read an old poem, write it back upgraded, and write it for old readers")
    func jsonSamples() throws {
        var saved: [Data] = []
        func save(_ data: Data) {
            saved.append(data)
        }
        let data = try JSONEncoder().encode(versioned: Poem.sample, asVersion: 3)

        // snippet: json-upgrade-on-read
        let read = try JSONDecoder().decodeWithStoredVersion(Poem.self, from: data)
        if read.wasMigrated {
            try save(JSONEncoder().encode(versioned: read.wrappedValue))
        }
        // end snippet
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue == Poem.sample)
        #expect(saved.count == 1)

        let poem = read.wrappedValue
        try Self.checkJSONEncoding(of: poem)
    }

    static func checkJSONEncoding(of poem: Poem) throws {
        // snippet: json-encode
        let data = try JSONEncoder().encode(versioned: poem)
        // end snippet
        // snippet: json-encode-older
        let forOldReaders = try JSONEncoder().encode(versioned: poem, asVersion: 3)
        // end snippet
        #expect(try JSONDecoder().decodeWithStoredVersion(Poem.self, from: data).storedVersion == 4)
        #expect(try JSONDecoder().decodeWithStoredVersion(Poem.self, from: forOldReaders).storedVersion == 3)
    }

    @Test("The property list samples read an old poem, write it back upgraded, and write it for old readers")
    func propertyListSamples() throws {
        var saved: [Data] = []
        func save(_ data: Data) {
            saved.append(data)
        }
        let data = try PropertyListEncoder().encode(versioned: Poem.sample, asVersion: 3)

        // snippet: property-list-decode
        let poem = try PropertyListDecoder().decode(versioned: Poem.self, from: data)
        // end snippet
        #expect(poem == Poem.sample)

        // snippet: property-list-upgrade-on-read
        let read = try PropertyListDecoder().decodeWithStoredVersion(Poem.self, from: data)
        if read.wasMigrated {
            try save(PropertyListEncoder().encode(versioned: read.wrappedValue))
        }
        // end snippet
        #expect(read.storedVersion == 3)
        #expect(saved.count == 1)

        try Self.checkPropertyListEncoding(of: poem)
    }

    static func checkPropertyListEncoding(of poem: Poem) throws {
        // snippet: property-list-encode
        let data = try PropertyListEncoder().encode(versioned: poem)
        // end snippet
        // snippet: property-list-encode-older
        let forOldReaders = try PropertyListEncoder().encode(versioned: poem, asVersion: 3)
        // end snippet
        #expect(try PropertyListDecoder().decodeWithStoredVersion(Poem.self, from: data).storedVersion == 4)
        #expect(
            try PropertyListDecoder().decodeWithStoredVersion(Poem.self, from: forOldReaders).storedVersion == 3
        )
    }
}
