import Foundation
import Testing
import VersionedCodable

@Suite("Property lists decode and encode versioned values like JSON")
struct PropertyListTests {
    /// The top-level dictionary of a property list.
    private func dictionary(_ data: Data) throws -> [String: Any] {
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        return try #require(plist as? [String: Any])
    }

    @Test("An encoded property list holds the fields and the version")
    func encodes() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let data = try encoder.encode(versioned: Poem(author: "Blake", poem: "Tyger", rating: .love))
        let plist = try dictionary(data)
        #expect(plist["version"] as? Int == 3)
        #expect(plist["author"] as? String == "Blake")
        #expect(plist["rating"] as? String == "love")
    }

    @Test("A binary property list round-trips")
    func roundTrips() throws {
        let poem = Poem(author: "Blake", poem: "Tyger", rating: .meh)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try encoder.encode(versioned: poem)
        #expect(try PropertyListDecoder().decode(versioned: Poem.self, from: data) == poem)
    }

    @Test("An old property list migrates to the current type")
    func oldDocumentMigrates() throws {
        let old: [String: Any] = ["version": 1, "author": "Anonymous", "poem": ["a", "b"]]
        let data = try PropertyListSerialization.data(fromPropertyList: old, format: .xml, options: 0)
        let poem = try PropertyListDecoder().decode(versioned: Poem.self, from: data)
        #expect(poem == Poem(author: "Anonymous", poem: "a\nb", rating: .meh))
    }

    @Test("An unsupported version in a property list is caught by its case")
    func unsupportedVersion() throws {
        let old: [String: Any] = ["version": 0, "author": "Anonymous", "poem": ["a"]]
        let data = try PropertyListSerialization.data(fromPropertyList: old, format: .binary, options: 0)
        #expect(throws: VersionedDecodingError.unsupportedVersion(tried: PoemV1.self)) {
            try PropertyListDecoder().decode(versioned: Poem.self, from: data)
        }
    }

    @Test("A nested version path works in property lists")
    func nestedPath() throws {
        let recipe = Recipe(recipeTitle: "Dauphinoise", lastModifiedBy: "Sophie")
        let data = try PropertyListEncoder().encode(versioned: recipe)
        let metadata = try #require(try dictionary(data)["_metadata"] as? [String: Any])
        #expect(metadata["version"] as? Int == 2)
        #expect(metadata["lastModifiedBy"] as? String == "Sophie")
        #expect(try PropertyListDecoder().decode(versioned: Recipe.self, from: data) == recipe)
    }
}
