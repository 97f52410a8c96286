import Foundation
import Testing
import VersionedCodable
import VersionedCodableCoders
import XMLCoder

@Suite("XMLEncoder versioned encoding")
struct XMLEncoderVersionedTests {
    let poem = CoderPoem(author: .init(name: "Di", born: 1950), lines: ["x", "y"], rating: .hate)

    @Test("The root element is named after the value's type unless a root key is given")
    func rootElementName() throws {
        let unnamed = String(decoding: try XMLEncoder().encode(versioned: poem), as: UTF8.self)
        #expect(unnamed.hasPrefix("<CoderPoem>"))
        let named = String(
            decoding: try XMLEncoder().encode(versioned: poem, withRootKey: "poem"),
            as: UTF8.self
        )
        #expect(named.hasPrefix("<poem>"))
        #expect(named.hasSuffix("<version>3</version></poem>"))
    }

    @Test("A version path inside an element the type does not write is created there")
    func nestedVersionPathAlone() throws {
        let note = CoderFiledNote(title: "Filed")
        let xml = try XMLEncoder().encode(versioned: note, withRootKey: "note")
        #expect(String(decoding: xml, as: UTF8.self).contains("<_metadata><version>2</version></_metadata>"))
        let read = try XMLDecoder().decodeWithStoredVersion(CoderFiledNote.self, from: xml)
        #expect(read.wrappedValue == note)
        #expect(read.storedVersion == 2)
    }

    // XMLCoder writes a second `_metadata` element for the version; reading takes the first,
    // which has no version. The extension reads the version back and throws.
    @Test(
        "Merging the version into an element the type writes throws instead of writing an unreadable version"
    )
    func mergeIntoTypesElementThrows() {
        let note = CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))
        #expect(throws: CoderMergeError.versionNotReadable(coder: "XMLEncoder", expected: 4, found: nil)) {
            try XMLEncoder().encode(versioned: note, withRootKey: "note")
        }
    }

    @Test("With renamed keys a nested version path cannot be checked, and says so")
    func renamedKeysCannotBeChecked() {
        let encoder = XMLEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(throws: CoderMergeError.cannotCheckRenamedKeys(coder: "XMLEncoder")) {
            try encoder.encode(versioned: CoderFiledNote(title: "Filed"))
        }
        // A version at the root needs no check, whatever the key strategy.
        #expect(throws: Never.self) { try encoder.encode(versioned: poem) }
    }

    @Test("A type that writes its own version field gets the library's clash error")
    func clashIsReported() {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try XMLEncoder().encode(versioned: CoderClashingNote(version: 7, title: "Mine"))
        }
    }

    @Test("A Versioned part whose version path is inside an element it writes does not read back")
    func versionedPartMergeDuplicatesElement() throws {
        struct Shelf: Codable, Equatable {
            var note: Versioned<CoderEditedNote>
        }
        let shelf = Shelf(note: Versioned(CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))))
        let xml = String(decoding: try XMLEncoder().encode(shelf, withRootKey: "shelf"), as: UTF8.self)
        withKnownIssue("XMLCoder writes _metadata twice, and the version is read from the first one") {
            #expect(xml.components(separatedBy: "<_metadata>").count == 2)
            let read = try XMLDecoder().decode(Shelf.self, from: Data(xml.utf8))
            #expect(read == shelf)
        }
    }
}
