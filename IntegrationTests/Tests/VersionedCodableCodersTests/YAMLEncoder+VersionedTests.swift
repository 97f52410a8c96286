import Foundation
import Testing
import VersionedCodable
import VersionedCodableCoders
import Yams

@Suite("YAMLEncoder versioned encoding")
struct YAMLEncoderVersionedTests {
    @Test("The version is written at the root beside the type's keys")
    func versionAtRoot() throws {
        let poem = CoderPoem(author: .init(name: "Di"), lines: ["x"], rating: .love)
        let yaml = try YAMLEncoder().encode(versioned: poem)
        let mapping = try #require(try Yams.compose(yaml: yaml)?.mapping)
        #expect(mapping["version"]?.int == 3)
        #expect(mapping["author"]?.mapping?["name"]?.string == "Di")
        #expect(mapping["lines"]?.sequence?.count == 1)
    }

    @Test("A version path inside an object the type does not write is created there")
    func nestedVersionPathAlone() throws {
        let note = CoderFiledNote(title: "Filed")
        let yaml = try YAMLEncoder().encode(versioned: note)
        let mapping = try #require(try Yams.compose(yaml: yaml)?.mapping)
        #expect(mapping["_metadata"]?.mapping?["version"]?.int == 2)
        let read = try YAMLDecoder().decodeWithStoredVersion(CoderFiledNote.self, from: Data(yaml.utf8))
        #expect(read.wrappedValue == note)
        #expect(read.storedVersion == 2)
    }

    // Yams replaces a mapping that is opened a second time, so `_metadata.editor` would be
    // lost when the version is merged into it. The extension notices and throws.
    @Test("Merging the version into an object the type writes throws instead of dropping the type's field")
    func mergeIntoTypesObjectThrows() {
        let note = CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))
        #expect(throws: CoderMergeError.coderDroppedFields(coder: "YAMLEncoder", paths: ["_metadata.editor"]))
        {
            try YAMLEncoder().encode(versioned: note)
        }
    }

    @Test("A type that writes its own version field gets the library's clash error, not a wrapped one")
    func clashIsReportedDirectly() {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try YAMLEncoder().encode(versioned: CoderClashingNote(version: 7, title: "Mine"))
        }
    }

    @Test("A Versioned part whose version path is inside an object it writes loses that object's fields")
    func versionedPartMergeLoss() throws {
        // Without the extension there is nowhere to check: plain YAMLEncoder writes the part
        // and Yams replaces `_metadata`. Reading it back fails rather than returning a wrong
        // value, because `editor` is required.
        struct Shelf: Codable, Equatable {
            var note: Versioned<CoderEditedNote>
        }
        let shelf = Shelf(note: Versioned(CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))))
        let yaml = try YAMLEncoder().encode(shelf)
        withKnownIssue("Yams replaces a mapping opened twice, so _metadata.editor is not written") {
            #expect(yaml.contains("editor: Eve"))
            let read = try YAMLDecoder().decode(Shelf.self, from: yaml)
            #expect(read == shelf)
        }
    }
}
