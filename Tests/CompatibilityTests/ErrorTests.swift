import Foundation
import Testing
import VersionedCodable

/// How a 1.2 program reports a document it cannot open: by the error's case where it has a
/// message for it, and by the error's type for the rest.
func describeOpening(_ data: Data) -> String {
    do {
        let poem = try JSONDecoder().decode(versioned: Poem.self, from: data)
        return "Opened a poem by \(poem.author)"
    } catch VersionedDecodingError.unsupportedVersion(let tried) {
        return "No version down to \(tried) can read this poem"
    } catch VersionedDecodingError.fieldNoLongerValid(let context) {
        return "This poem cannot be upgraded: \(context.debugDescription)"
    } catch let error as VersionedDecodingError {
        return "This poem cannot be opened: \(error)"
    } catch {
        return "This poem is damaged: \(error)"
    }
}

@Suite("Catching and comparing the errors a 1.2 program handles")
struct ErrorTests {
    @Test(
        "A version the chain does not have is unsupported, naming the oldest type",
        arguments: [
            #"{"version": -1, "author": "A", "poem": ["x"]}"#,
            #"{"version": 0, "author": "A", "poem": ["x"]}"#,
            #"{"author": "A", "poem": ["x"]}"#,
        ]
    )
    func unsupportedVersion(json: String) {
        #expect(throws: VersionedDecodingError.unsupportedVersion(tried: PoemV1.self)) {
            try JSONDecoder().decode(versioned: Poem.self, from: document(json))
        }
    }

    @Test("The unsupported version's case is caught with the type it tried")
    func catchUnsupportedVersion() throws {
        let data = document(#"{"version": 0, "author": "A", "poem": ["x"]}"#)
        do {
            _ = try JSONDecoder().decode(versioned: Poem.self, from: data)
            Issue.record("A version 0 poem decoded")
        } catch VersionedDecodingError.unsupportedVersion(let tried) {
            #expect(ObjectIdentifier(tried) == ObjectIdentifier(PoemV1.self))
            #expect(tried.version == 1)
        }
        #expect(describeOpening(data).hasPrefix("No version down to PoemV1"))
    }

    @Test("A migration's fieldNoLongerValid reaches the caller with its context")
    func catchFieldNoLongerValid() throws {
        let data = document(#"{"version": 2, "author": "A", "poem": "x", "starRating": 9}"#)
        do {
            _ = try JSONDecoder().decode(versioned: Poem.self, from: data)
            Issue.record("A poem with 9 stars decoded")
        } catch VersionedDecodingError.fieldNoLongerValid(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["rating"])
            #expect(context.debugDescription == "Star rating 9 is outside 0...5")
        }
        #expect(describeOpening(data) == "This poem cannot be upgraded: Star rating 9 is outside 0...5")
    }

    @Test("The program's own Equatable compares the cases it knows")
    func ownEquatable() {
        let context = DecodingError.Context(codingPath: [], debugDescription: "")
        let oldest = VersionedDecodingError.unsupportedVersion(tried: PoemV1.self)
        #expect(oldest == .unsupportedVersion(tried: PoemV1.self))
        #expect(oldest != .unsupportedVersion(tried: Poem.self))
        #expect(VersionedDecodingError.fieldNoLongerValid(context) == .fieldNoLongerValid(context))
        #expect(VersionedDecodingError.fieldNoLongerValid(context) != oldest)
    }

    @Test("A document newer than the newest type throws documentVersionTooNew")
    func documentTooNew() throws {
        let data = document(#"{"version": 9, "author": "A", "poem": "x", "rating": "love"}"#)
        do {
            _ = try JSONDecoder().decode(versioned: Poem.self, from: data)
            Issue.record("A version 9 poem decoded")
        } catch VersionedDecodingError.documentVersionTooNew(let found, let newest) {
            #expect(found == 9)
            #expect(ObjectIdentifier(newest) == ObjectIdentifier(Poem.self))
        }
    }

    @Test("A 1.2 catch-all for VersionedDecodingError still catches a document that is too new")
    func catchAllCatchesTooNew() {
        let data = document(#"{"version": 9, "author": "A", "poem": "x", "rating": "love"}"#)
        let message = describeOpening(data)
        #expect(message.hasPrefix("This poem cannot be opened: "))
        #expect(message.contains("9"))
    }

    @Test("Malformed data is still a DecodingError")
    func malformedData() {
        #expect(describeOpening(document(#"{"version": 3, "author": 1}"#)).hasPrefix("This poem is damaged: "))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(versioned: Poem.self, from: document(#"{"version": "three"}"#))
        }
    }

    @Test("A type that writes a string where the version goes cannot be encoded")
    func clashingVersionField() throws {
        let release = Release(version: "2024.1", notes: "First")
        do {
            _ = try JSONEncoder().encode(versioned: release)
            Issue.record("The release's own version was overwritten")
        } catch VersionedEncodingError.typeHasClashingVersionField {
            // The library refuses to overwrite the type's value.
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try PropertyListEncoder().encode(versioned: release)
        }
    }
}
