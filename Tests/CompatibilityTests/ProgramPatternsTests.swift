import Foundation
import Testing
import VersionedCodable

@Suite("Shapes of 1.2 programs: classes, Never below a nil version, errors in sets, the program's own error text")
struct ProgramPatternsTests {
    @Test("A class that is not final conforms, decodes and encodes")
    func nonFinalClass() throws {
        let notebook = try JSONDecoder().decode(
            versioned: Notebook.self,
            from: document(#"{"version": 1, "title": "Ideas"}"#)
        )
        #expect(notebook.title == "Ideas")
        #expect(try jsonObject(JSONEncoder().encode(versioned: notebook))["version"] as? Int == 1)
    }

    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    @Test("A nil-version type above Never reads unversioned documents, and its chain is valid")
    func nilVersionAboveNever() throws {
        try Memo.validateVersionChain()
        let old = try JSONDecoder().decode(versioned: Memo.self, from: document(#"{"text": "old"}"#))
        #expect(old == Memo(text: "old", pinned: false))
        let current = try JSONDecoder().decode(
            versioned: Memo.self,
            from: document(#"{"version": 1, "text": "new", "pinned": true}"#)
        )
        #expect(current == Memo(text: "new", pinned: true))
    }

    @Test("Encoding errors can be kept in a set, as 1.2's could")
    func encodingErrorsAreHashable() {
        let seen: Set<VersionedEncodingError> = [.typeHasClashingVersionField, .typeHasClashingVersionField]
        #expect(seen.count == 1)
        #expect(seen.contains(.typeHasClashingVersionField))
        #expect(
            VersionedEncodingError.typeHasClashingVersionField.hashValue
                == VersionedEncodingError.typeHasClashingVersionField.hashValue
        )
    }

    @Test("The program's own errorDescription is what localizedDescription says")
    func programsOwnErrorText() {
        do {
            _ = try JSONDecoder().decode(versioned: Poem.self, from: document(#"{"version": -1, "author": "x"}"#))
            Issue.record("decoded a version the chain does not have")
        } catch {
            #expect(
                error.localizedDescription == "This file was made by a version of the app that can no longer be read."
            )
        }
    }
}
