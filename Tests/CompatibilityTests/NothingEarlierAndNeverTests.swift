import Foundation
import Testing
import VersionedCodable

/// Whether an error is the `typeMismatch` that decoding `type` throws.
func isTypeMismatch(_ error: any Error, for type: Any.Type) -> Bool {
    guard case DecodingError.typeMismatch(let mismatched, _) = error else { return false }
    return mismatched == type
}

@Suite("NothingEarlier and Never end chains and cannot be decoded")
struct NothingEarlierAndNeverTests {
    @Test("NothingEarlier has the nil version and ends its own chain")
    func nothingEarlierShape() {
        #expect(NothingEarlier.version == nil)
        #expect(NothingEarlier.PreviousVersion.self == NothingEarlier.self)
    }

    @Test("Decoding NothingEarlier throws DecodingError.typeMismatch")
    func nothingEarlierDoesNotDecode() {
        #expect {
            try JSONDecoder().decode(versioned: NothingEarlier.self, from: document("{}"))
        } throws: { error in
            isTypeMismatch(error, for: NothingEarlier.self)
        }
        #expect {
            try JSONDecoder().decode(NothingEarlier.self, from: document("{}"))
        } throws: { error in
            isTypeMismatch(error, for: NothingEarlier.self)
        }
    }

    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    @Test("Never is versioned with the nil version and cannot be decoded")
    func neverDoesNotDecode() {
        #expect(Never.version == nil)
        #expect {
            try JSONDecoder().decode(versioned: Never.self, from: document(#"{"no": "no"}"#))
        } throws: { error in
            isTypeMismatch(error, for: Never.self)
        }
    }

    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    @Test("A chain that ends in Never decodes its versions and not the unversioned document")
    func chainEndingInNever() throws {
        let draft = try JSONDecoder().decode(versioned: Draft.self, from: document(#"{"version": 1, "text": "Hi"}"#))
        #expect(draft == Draft(text: "Hi"))
        #expect(try jsonObject(JSONEncoder().encode(versioned: draft))["version"] as? Int == 1)

        #expect {
            try JSONDecoder().decode(versioned: Draft.self, from: document(#"{"text": "Hi"}"#))
        } throws: { error in
            isTypeMismatch(error, for: Never.self)
        }
        #expect(throws: VersionedDecodingError.unsupportedVersion(tried: Never.self)) {
            try JSONDecoder().decode(versioned: Draft.self, from: document(#"{"version": 0, "text": "Hi"}"#))
        }
    }
}
