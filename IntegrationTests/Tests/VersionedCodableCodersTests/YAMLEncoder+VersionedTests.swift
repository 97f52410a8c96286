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

    // The version is written into `_metadata` while the type's encoder for it is still open,
    // so Yams keeps both (Yams replaces a mapping that is opened a second time).
    @Test("The version merges into an object the type writes, keeping the type's field")
    func mergeIntoTypesObject() throws {
        let note = CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))
        let yaml = try YAMLEncoder().encode(versioned: note)
        let metadata = try #require(try Yams.compose(yaml: yaml)?.mapping?["_metadata"]?.mapping)
        #expect(metadata["editor"]?.string == "Eve")
        #expect(metadata["version"]?.int == 4)
        #expect(try YAMLDecoder().decode(versioned: CoderEditedNote.self, from: Data(yaml.utf8)) == note)
    }

    @Test("The version merges into an object the type writes by hand through a nested container")
    func mergeIntoHandWrittenObject() throws {
        let note = CoderHandWrittenNote(title: "Draft", editor: "Eve")
        let yaml = try YAMLEncoder().encode(versioned: note)
        let metadata = try #require(try Yams.compose(yaml: yaml)?.mapping?["_metadata"]?.mapping)
        #expect(metadata["editor"]?.string == "Eve")
        #expect(metadata["version"]?.int == 4)
        #expect(try YAMLDecoder().decode(versioned: CoderHandWrittenNote.self, from: Data(yaml.utf8)) == note)
    }

    @Test("A dictionary the type keeps where the version goes is merged with it and reads back without it")
    func mergeIntoDictionary() throws {
        let note = CoderTaggedNote(title: "Draft", _metadata: ["editor": "Eve", "first_name": "E"])
        let yaml = try YAMLEncoder().encode(versioned: note)
        let metadata = try #require(try Yams.compose(yaml: yaml)?.mapping?["_metadata"]?.mapping)
        #expect(metadata["editor"]?.string == "Eve")
        #expect(metadata["first_name"]?.string == "E")
        #expect(metadata["version"]?.int == 4)
        #expect(try YAMLDecoder().decode(versioned: CoderTaggedNote.self, from: Data(yaml.utf8)) == note)
    }

    @Test("A type whose root is a dictionary reads back without the version as an entry")
    func rootDictionary() throws {
        let counts = CoderCounts(counts: ["apples": 3, "pears": 1])
        let yaml = try YAMLEncoder().encode(versioned: counts)
        let mapping = try #require(try Yams.compose(yaml: yaml)?.mapping)
        #expect(mapping["apples"]?.int == 3)
        #expect(mapping["version"]?.int == 2)
        #expect(try YAMLDecoder().decode(versioned: CoderCounts.self, from: Data(yaml.utf8)) == counts)
    }

    @Test("The version merges into an object the type writes through a super encoder")
    func mergeIntoSuperEncodedObject() throws {
        let note = CoderSuperEncodedNote(title: "Draft", metadata: .init(editor: "Eve"))
        let yaml = try YAMLEncoder().encode(versioned: note)
        let metadata = try #require(try Yams.compose(yaml: yaml)?.mapping?["_metadata"]?.mapping)
        #expect(metadata["editor"]?.string == "Eve")
        #expect(metadata["version"]?.int == 4)
        #expect(try YAMLDecoder().decode(versioned: CoderSuperEncodedNote.self, from: Data(yaml.utf8)) == note)
    }

    @Test("The version merges two levels deep into objects the type writes by hand")
    func mergeIntoDeepHandWrittenObjects() throws {
        let note = CoderDeepHandWrittenNote(author: "Ada", formatName: "memo")
        let yaml = try YAMLEncoder().encode(versioned: note)
        let header = try #require(try Yams.compose(yaml: yaml)?.mapping?["header"]?.mapping)
        #expect(header["author"]?.string == "Ada")
        #expect(header["format"]?.mapping?["name"]?.string == "memo")
        #expect(header["format"]?.mapping?["version"]?.int == 7)
        #expect(try YAMLDecoder().decode(versioned: CoderDeepHandWrittenNote.self, from: Data(yaml.utf8)) == note)
    }

    @Test("A type that writes its own version field gets the library's clash error, not a wrapped one")
    func clashIsReportedDirectly() {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try YAMLEncoder().encode(versioned: CoderClashingNote(version: "7", title: "Mine"))
        }
    }

    @Test("An integer property that mirrors the version is written as the version being written")
    func mirrorIsWrittenAsTheVersion() throws {
        let yaml = try YAMLEncoder().encode(versioned: CoderMirroringNote(version: 1, title: "Stale"))
        let mapping = try #require(try Yams.compose(yaml: yaml)?.mapping)
        #expect(mapping["version"]?.int == 3)
        #expect(yaml.components(separatedBy: "version:").count == 2)
        let read = try YAMLDecoder().decode(versioned: CoderMirroringNote.self, from: Data(yaml.utf8))
        #expect(read == CoderMirroringNote(version: 3, title: "Stale"))
    }

    @Test("A spec that writes more than the version is written whole and read back")
    func wholeSpecIsWritten() throws {
        let note = CoderHeaderedNote(title: "Headed")
        let yaml = try YAMLEncoder().encode(versioned: note)
        let mapping = try #require(try Yams.compose(yaml: yaml)?.mapping)
        #expect(mapping["format"]?.string == "note")
        #expect(mapping["formatVersion"]?.int == 5)
        #expect(try YAMLDecoder().decode(versioned: CoderHeaderedNote.self, from: Data(yaml.utf8)) == note)
    }

    @Test("A Versioned part whose version path is inside an object it writes keeps that object's fields")
    func versionedPartMerges() throws {
        // Plain YAMLEncoder, no extension: the merge happens inside Versioned's encode(to:).
        struct Shelf: Codable, Equatable {
            var note: Versioned<CoderEditedNote>
        }
        let shelf = Shelf(note: Versioned(CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))))
        let yaml = try YAMLEncoder().encode(shelf)
        #expect(yaml.contains("editor: Eve"))
        let read = try YAMLDecoder().decode(Shelf.self, from: yaml)
        #expect(read == shelf)
        #expect(read.note.storedVersion == 4)
    }
}
