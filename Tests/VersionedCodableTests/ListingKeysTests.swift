import Foundation
import Testing
import VersionedCodable

// An older build's type that lists its keys (to fall back to an older key name, or to collect
// extension keys) keeps the fields of a newer document that it did not decode: listing a key is
// not reading it.

@Suite("Listing keys is not reading them")
struct ListingKeysTests {
    /// The old build's newest version: it lists its keys to find its title under either name,
    /// and asks whether a note is there.
    struct ListingChore: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var name: String
        var hasNote: Bool

        enum CodingKeys: String, CodingKey { case name, title, note }

        init(name: String, hasNote: Bool) {
            self.name = name
            self.hasNote = hasNote
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let key: CodingKeys = container.allKeys.contains(.name) ? .name : .title
            name = try container.decode(String.self, forKey: key)
            hasNote = container.contains(.note)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
        }
    }

    /// The new build's version 3, which only adds fields.
    struct NewChore: VersionedCodable, Equatable {
        static let version: Int? = 3
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = ListingChore
        var name: String
        var due: String
        var note: String
        var extra: [String: Int]

        init(name: String, due: String, note: String, extra: [String: Int]) {
            self.name = name
            self.due = due
            self.note = note
            self.extra = extra
        }

        init(from old: ListingChore) {
            self.init(name: old.name, due: "", note: "", extra: [:])
        }
    }

    @Test(
        "An old build whose type lists its keys keeps the fields it did not read, in every format",
        arguments: SpecTruth.Format.allCases
    )
    func listingKeysKeepsUnreadFields(format: SpecTruth.Format) throws {
        let newer = NewChore(name: "dishes", due: "monday", note: "soap", extra: ["a": 1])
        var old = try format.readPlain(Versioned<ListingChore>.self, try format.write(newer))
        #expect(old.isFromNewerVersion)
        #expect(old.wrappedValue == ListingChore(name: "dishes", hasNote: true))
        old.wrappedValue.name = "plates"
        let back = try format.readValue(NewChore.self, try format.writePlain(old))
        #expect(back == NewChore(name: "plates", due: "monday", note: "soap", extra: ["a": 1]))
    }

    /// The old build's newest version, which keeps the fields it can read as strings and tries
    /// every other key as one.
    struct TryingChore: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var strings: [String: String]

        init(strings: [String: String]) { self.strings = strings }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: SharedRootDecoderTests.Tally.AnyKey.self)
            var strings: [String: String] = [:]
            for key in container.allKeys {
                // A failed try is not a read: the key is kept.
                if try !container.decodeNil(forKey: key), let value = try? container.decode(String.self, forKey: key) {
                    strings[key.stringValue] = value
                }
            }
            self.strings = strings
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: SharedRootDecoderTests.Tally.AnyKey.self)
            for (key, value) in strings {
                try container.encode(value, forKey: SharedRootDecoderTests.Tally.AnyKey(stringValue: key))
            }
        }
    }

    struct TriedChore: VersionedCodable, Equatable {
        static let version: Int? = 3
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = TryingChore
        var name: String
        var tags: [String]
        var count: Int

        init(name: String, tags: [String], count: Int) {
            self.name = name
            self.tags = tags
            self.count = count
        }

        init(from old: TryingChore) {
            self.init(name: old.strings["name"] ?? "", tags: [], count: 0)
        }
    }

    @Test(
        "A key the older type tried and failed to read is kept, in every format",
        arguments: SpecTruth.Format.allCases
    )
    func failedTriesAreNotReads(format: SpecTruth.Format) throws {
        let newer = TriedChore(name: "dishes", tags: ["home"], count: 3)
        let old = try format.readPlain(Versioned<TryingChore>.self, try format.write(newer))
        #expect(old.wrappedValue.strings == ["name": "dishes"])
        #expect(try format.readValue(TriedChore.self, try format.writePlain(old)) == newer)
    }
}
