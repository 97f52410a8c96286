import Foundation
import Testing
import VersionedCodable
import VersionedCodableCoders
import XMLCoder
import Yams

@Suite("The same fixtures in YAML, XML, JSON and property lists")
struct AllFormatsTests {
    @Test(
        "Every stored version decodes to the same poem in all four formats",
        arguments: CoderPoemFixture.all
    )
    func fixturesDecodeEquallyEverywhere(fixture: CoderPoemFixture) throws {
        let yaml = try YAMLDecoder().decodeWithStoredVersion(CoderPoem.self, from: fixture.data("yaml"))
        let xml = try XMLDecoder().decodeWithStoredVersion(CoderPoem.self, from: fixture.data("xml"))
        let json = try JSONDecoder().decodeWithStoredVersion(CoderPoem.self, from: fixture.data("json"))
        let plist = try PropertyListDecoder().decodeWithStoredVersion(
            CoderPoem.self,
            from: fixture.data("plist")
        )
        for (format, read) in [("YAML", yaml), ("XML", xml), ("JSON", json), ("plist", plist)] {
            #expect(read.wrappedValue == fixture.expected, "\(format)")
            #expect(read.storedVersion == fixture.storedVersion, "\(format)")
            #expect(read.wasMigrated == (fixture.storedVersion != CoderPoem.version), "\(format)")
        }
    }

    @Test(
        "A poem written in each format reads back equal, at the current version",
        arguments: CoderPoemFixture.all
    )
    func roundTripInEveryFormat(fixture: CoderPoemFixture) throws {
        let poem = fixture.expected
        let yaml = try YAMLDecoder().decodeWithStoredVersion(
            CoderPoem.self,
            from: Data(YAMLEncoder().encode(versioned: poem).utf8)
        )
        let xml = try XMLDecoder().decodeWithStoredVersion(
            CoderPoem.self,
            from: XMLEncoder().encode(versioned: poem, withRootKey: "poem")
        )
        let json = try JSONDecoder().decodeWithStoredVersion(
            CoderPoem.self,
            from: JSONEncoder().encode(versioned: poem)
        )
        let plist = try PropertyListDecoder().decodeWithStoredVersion(
            CoderPoem.self,
            from: PropertyListEncoder().encode(versioned: poem)
        )
        for (format, read) in [("YAML", yaml), ("XML", xml), ("JSON", json), ("plist", plist)] {
            #expect(read.wrappedValue == poem, "\(format)")
            #expect(read.storedVersion == CoderPoem.version, "\(format)")
        }
    }

    @Test("A Versioned part of a plain document needs no extra code with Yams or XMLCoder")
    func versionedPartsOfPlainDocuments() throws {
        let old = CoderPoemFixture.all[0].expected
        let anthology = CoderAnthology(
            title: "Collected",
            featured: CoderPoemFixture.all[3].expected,
            poems: CoderPoemFixture.all.map { Versioned($0.expected) }
        )
        let yaml = try YAMLEncoder().encode(anthology)
        #expect(try YAMLDecoder().decode(CoderAnthology.self, from: yaml) == anthology)
        let xml = try XMLEncoder().encode(anthology, withRootKey: "anthology")
        #expect(try XMLDecoder().decode(CoderAnthology.self, from: xml) == anthology)

        // Parts stored at older versions migrate on their own, in both coders.
        let oldYAML = """
            title: Old
            featured: {author: Ann, text: "a\\nb"}
            poems:
              - {version: 2, author: Cy, lines: [c], rating: hate}
              - {version: 3, author: {name: Di}, lines: [d], rating: love}
            """
        let fromYAML = try YAMLDecoder().decode(CoderAnthology.self, from: oldYAML)
        let oldXML = """
            <anthology><title>Old</title><featured><author>Ann</author><text>a
            b</text></featured><poems><version>2</version><author>Cy</author><lines>c</lines>\
            <rating>hate</rating></poems><poems><version>3</version><author><name>Di</name></author>\
            <lines>d</lines><rating>love</rating></poems></anthology>
            """
        let fromXML = try XMLDecoder().decode(CoderAnthology.self, from: Data(oldXML.utf8))
        for read in [fromYAML, fromXML] {
            #expect(read.featured == CoderPoem(author: old.author, lines: ["a", "b"], rating: .meh))
            #expect(read.$featured.storedVersion == nil)
            #expect(read.poems.map(\.storedVersion) == [2, 3])
            #expect(read.poems.map(\.wrappedValue.rating) == [.hate, .love])
        }
    }
}
