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

    // The version is written into `_metadata` while the type's encoder for it is still open,
    // so XMLCoder writes one element holding both.
    @Test("The version merges into an element the type writes, keeping the type's field")
    func mergeIntoTypesElement() throws {
        let note = CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))
        let xml = try XMLEncoder().encode(versioned: note, withRootKey: "note")
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.components(separatedBy: "<_metadata>").count == 2)
        #expect(text.contains("<editor>Eve</editor>"))
        #expect(try XMLDecoder().decode(versioned: CoderEditedNote.self, from: xml) == note)
    }

    @Test("The version merges into an element the type writes by hand through a nested container")
    func mergeIntoHandWrittenElement() throws {
        let note = CoderHandWrittenNote(title: "Draft", editor: "Eve")
        let xml = try XMLEncoder().encode(versioned: note, withRootKey: "note")
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.components(separatedBy: "<_metadata>").count == 2)
        #expect(text.contains("<editor>Eve</editor>"))
        #expect(text.contains("<version>4</version>"))
        #expect(try XMLDecoder().decode(versioned: CoderHandWrittenNote.self, from: xml) == note)
    }

    @Test("A dictionary the type keeps where the version goes is merged with it and reads back without it")
    func mergeIntoDictionary() throws {
        let note = CoderTaggedNote(title: "Draft", _metadata: ["editor": "Eve", "first_name": "E"])
        let xml = try XMLEncoder().encode(versioned: note, withRootKey: "note")
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.components(separatedBy: "<_metadata>").count == 2)
        #expect(text.contains("<editor>Eve</editor>"))
        #expect(text.contains("<first_name>E</first_name>"))
        #expect(text.contains("<version>4</version>"))
        #expect(try XMLDecoder().decode(versioned: CoderTaggedNote.self, from: xml) == note)
    }

    @Test("A type whose root is a dictionary reads back without the version as an entry")
    func rootDictionary() throws {
        let counts = CoderCounts(counts: ["apples": 3, "pears": 1])
        let xml = try XMLEncoder().encode(versioned: counts, withRootKey: "counts")
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<apples>3</apples>"))
        #expect(text.contains("<version>2</version>"))
        #expect(try XMLDecoder().decode(versioned: CoderCounts.self, from: xml) == counts)
    }

    @Test("The version merges into an element the type writes through a super encoder")
    func mergeIntoSuperEncodedElement() throws {
        let note = CoderSuperEncodedNote(title: "Draft", metadata: .init(editor: "Eve"))
        let xml = try XMLEncoder().encode(versioned: note, withRootKey: "note")
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.components(separatedBy: "<_metadata>").count == 2)
        #expect(text.contains("<version>4</version>"))
        #expect(try XMLDecoder().decode(versioned: CoderSuperEncodedNote.self, from: xml) == note)
    }

    @Test("The version merges two levels deep into elements the type writes by hand")
    func mergeIntoDeepHandWrittenElements() throws {
        let note = CoderDeepHandWrittenNote(author: "Ada", formatName: "memo")
        let xml = try XMLEncoder().encode(versioned: note, withRootKey: "note")
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.components(separatedBy: "<header>").count == 2)
        #expect(text.components(separatedBy: "<format>").count == 2)
        #expect(text.contains("<version>7</version>"))
        #expect(try XMLDecoder().decode(versioned: CoderDeepHandWrittenNote.self, from: xml) == note)
    }

    @Test("With renamed keys a nested version path is renamed too and reads back")
    func renamedKeys() throws {
        let encoder = XMLEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let note = CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))
        let xml = try encoder.encode(versioned: note, withRootKey: "note")
        let decoder = XMLDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(versioned: CoderEditedNote.self, from: xml) == note)
        #expect(throws: Never.self) { try encoder.encode(versioned: poem) }
    }

    @Test("A type that writes its own version field gets the library's clash error")
    func clashIsReported() {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try XMLEncoder().encode(versioned: CoderClashingNote(version: "7", title: "Mine"))
        }
    }

    @Test("An integer property that mirrors the version is written as the version being written")
    func mirrorIsWrittenAsTheVersion() throws {
        let xml = try XMLEncoder().encode(
            versioned: CoderMirroringNote(version: 1, title: "Stale"),
            withRootKey: "note"
        )
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<version>3</version>"))
        #expect(text.components(separatedBy: "<version>").count == 2)
        let read = try XMLDecoder().decode(versioned: CoderMirroringNote.self, from: xml)
        #expect(read == CoderMirroringNote(version: 3, title: "Stale"))
    }

    @Test("A spec that writes more than the version is written whole and read back")
    func wholeSpecIsWritten() throws {
        let note = CoderHeaderedNote(title: "Headed")
        let xml = try XMLEncoder().encode(versioned: note, withRootKey: "note")
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<format>note</format>"))
        #expect(text.contains("<formatVersion>5</formatVersion>"))
        #expect(try XMLDecoder().decode(versioned: CoderHeaderedNote.self, from: xml) == note)
    }

    @Test("A Versioned part whose version path is inside an element it writes reads back")
    func versionedPartMerges() throws {
        // Plain XMLEncoder, no extension: the merge happens inside Versioned's encode(to:).
        struct Shelf: Codable, Equatable {
            var note: Versioned<CoderEditedNote>
        }
        let shelf = Shelf(note: Versioned(CoderEditedNote(title: "Draft", _metadata: .init(editor: "Eve"))))
        let xml = String(decoding: try XMLEncoder().encode(shelf, withRootKey: "shelf"), as: UTF8.self)
        #expect(xml.components(separatedBy: "<_metadata>").count == 2)
        let read = try XMLDecoder().decode(Shelf.self, from: Data(xml.utf8))
        #expect(read == shelf)
        #expect(read.note.storedVersion == 4)
    }

    struct ReleaseV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var name: String
    }

    /// Keeps the version at `_metadata.version`, with a string of its own at the root's `version`.
    struct ReleaseV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = ReleaseV1
        typealias VersionSpec = MetadataSpec
        struct MetadataSpec: VersionPathSpec {
            struct Metadata: Codable { var version: Int? }
            static let keyPathToVersion: KeyPath<Self, Int?> = \Self._metadata.version
            var _metadata: Metadata
            init(withVersion version: Int?) { _metadata = Metadata(version: version) }
        }
        var name: String
        var version: String
        init(name: String, version: String) {
            self.name = name
            self.version = version
        }
        init(from old: ReleaseV1) { self.init(name: old.name, version: "") }
    }

    /// Keeps the version at the root again, where version 2 has its own string.
    struct Release: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = ReleaseV2
        var name: String
        var release: String
        init(name: String, release: String) {
            self.name = name
            self.release = release
        }
        init(from old: ReleaseV2) { self.init(name: old.name, release: old.version) }
        func downgraded() throws -> ReleaseV2 { ReleaseV2(name: name, version: release) }
    }

    @Test("An older version for newer builds may not write text that XMLDecoder reads as another version")
    func olderVersionsNumericText() throws {
        let encoder = XMLEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(Release.self, asVersion: 2)
        // XMLCoder writes a string as its bare text, and reads `<version>1</version>` as the
        // number 1: the newest build would read the document as version 1, with `release` lost.
        for release in ["1", " 1", "01", "+1"] {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try encoder.encode(versioned: Release(name: "a", release: release), withRootKey: "release")
            }
        }
        for release in ["2", "x", "1.5"] {
            let xml = try encoder.encode(versioned: Release(name: "a", release: release), withRootKey: "release")
            let read = try XMLDecoder().decodeWithStoredVersion(Release.self, from: xml)
            #expect(read.storedVersion == 2)
            #expect(read.wrappedValue == Release(name: "a", release: release))
        }
    }
}
