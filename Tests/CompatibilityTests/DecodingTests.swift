import Foundation
import Testing
import VersionedCodable

@Suite("Decoding documents of every version with JSONDecoder, as 1.2 programs do")
struct DecodingTests {
    @Test("A current document decodes as it is")
    func currentDocument() throws {
        let data = document(#"{"version": 3, "author": "Anonymous", "poem": "An epicure", "rating": "love"}"#)
        let poem = try JSONDecoder().decode(versioned: Poem.self, from: data)
        #expect(poem == Poem(author: "Anonymous", poem: "An epicure", rating: .love))
    }

    @Test("A version 1 document migrates through every step to the current type")
    func oldestDocumentMigrates() throws {
        let data = document(#"{"version": 1, "author": "Anonymous", "poem": ["An epicure", "dining at Crewe"]}"#)
        let poem = try JSONDecoder().decode(versioned: Poem.self, from: data)
        #expect(poem.author == "Anonymous")
        #expect(poem.poem == "An epicure\ndining at Crewe")
        #expect(poem.rating == .meh)
    }

    @Test("A version 2 document's star rating becomes a rating")
    func middleDocumentMigrates() throws {
        let data = document(#"{"version": 2, "author": "Blake", "poem": "Tyger Tyger", "starRating": 5}"#)
        let poem = try JSONDecoder().decode(versioned: Poem.self, from: data)
        #expect(poem == Poem(author: "Blake", poem: "Tyger Tyger", rating: .love))
    }

    @Test("An older type in the chain can be asked for directly")
    func olderTypeDecodes() throws {
        let data = document(#"{"version": 1, "author": "Anonymous", "poem": ["a", "b"]}"#)
        let poem = try JSONDecoder().decode(versioned: PoemV2.self, from: data)
        #expect(poem.poem == "a\nb")
        #expect(poem.starRating == 3)
    }

    @Test("A document written before versioning decodes as the nil version and migrates")
    func unversionedDocumentMigrates() throws {
        let data = document(#"{"lines": ["There was an old man with a beard", "Who said"]}"#)
        let limerick = try JSONDecoder().decode(versioned: Limerick.self, from: data)
        #expect(limerick.title == "There was an old man with a beard")
        #expect(limerick.lines.count == 2)
    }

    @Test("A null version is the nil version")
    func nullVersionMigrates() throws {
        let data = document(#"{"version": null, "lines": ["Only line"]}"#)
        let limerick = try JSONDecoder().decode(versioned: Limerick.self, from: data)
        #expect(limerick == Limerick(title: "Only line", lines: ["Only line"]))
    }

    @Test("A type conformed in an extension decodes its own version")
    func extensionConformanceDecodes() throws {
        let data = document(#"{"version": 1, "title": "Beard", "lines": ["There was"]}"#)
        let limerick = try JSONDecoder().decode(versioned: Limerick.self, from: data)
        #expect(limerick == Limerick(title: "Beard", lines: ["There was"]))
    }

    @Test("The decoder's own strategies apply to every historical type")
    func decoderStrategiesApply() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let data = document(#"{"version": 2, "author": "Blake", "poem": "Tyger", "star_rating": 1}"#)
        let poem = try decoder.decode(versioned: Poem.self, from: data)
        #expect(poem.rating == .hate)
    }
}
