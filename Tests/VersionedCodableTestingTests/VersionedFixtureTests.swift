import Foundation
import Testing
import VersionedCodableTesting

@Suite("A fixture's file name")
struct VersionedFixtureTests {
    static let folder = URL(fileURLWithPath: "/fixtures/Recipe", isDirectory: true)

    @Test(
        "says the version, label and format",
        arguments: [
            ("v1.json", 1, nil, VersionedFixture.Format.json),
            ("v12-empty-poem.json", 12, "empty-poem", .json),
            ("unversioned.json", nil, nil, .json),
            ("unversioned-from-2019.json", nil, "from-2019", .json),
            ("v3.xml.plist", 3, nil, .xmlPropertyList),
            ("v3-long.binary.plist", 3, "long", .binaryPropertyList),
            ("v0.json", 0, nil, .json),
        ] as [(String, Int?, String?, VersionedFixture.Format)]
    )
    func parsesName(name: String, version: Int?, label: String?, format: VersionedFixture.Format) throws {
        let fixture = try #require(VersionedFixture(url: Self.folder.appendingPathComponent(name)))
        #expect(fixture.version == version)
        #expect(fixture.label == label)
        #expect(fixture.format == format)
        #expect(fixture.fileName == name)
        #expect(fixture.description == name)
        #expect(fixture.testDescription == name)
    }

    @Test("reads the documentation's example names")
    func documentedNames() throws {
        let folder = Self.folder
        // snippet: fixture-from-url
        let fixture = VersionedFixture(url: folder.appending(path: "v2-no-rating.json"))
        // fixture?.version == 2, fixture?.label == "no-rating", fixture?.format == .json
        // end snippet
        #expect(fixture?.version == 2)
        #expect(fixture?.label == "no-rating")
        #expect(fixture?.format == .json)

        // snippet: fixture-file-names
        let name = VersionedFixture.fileName(forVersion: 3)  // "v3.json"
        let draft = VersionedFixture.fileName(forVersion: nil, label: "draft")  // "unversioned-draft.json"
        // end snippet
        #expect(name == "v3.json")
        #expect(draft == "unversioned-draft.json")
    }

    @Test(
        "that breaks the convention is not read as a fixture",
        arguments: [
            "V1.json", "v1.txt", "v1.yaml", "version1.json", "v.json", "v1-.json", "v+1.json",
            "v1_empty.json",
            "unversioned1.json", "v1-a.b.json", "1.json", "v1", "v١.json", ".json", "v1.JSON",
        ]
    )
    func rejectsName(name: String) {
        #expect(VersionedFixture(url: Self.folder.appendingPathComponent(name)) == nil)
    }

    @Test(
        "made by fileName(forVersion:label:format:) reads back as the same version, label and format",
        arguments: [1, 7, nil] as [Int?],
        [nil, "no-rating"] as [String?]
    )
    func fileNameRoundTrips(version: Int?, label: String?) throws {
        for format in VersionedFixture.Format.allCases {
            let name = VersionedFixture.fileName(forVersion: version, label: label, format: format)
            let fixture = try #require(VersionedFixture(url: Self.folder.appendingPathComponent(name)))
            #expect(fixture.version == version)
            #expect(fixture.label == label)
            #expect(fixture.format == format)
        }
    }

    @Test("made for a version follows the documented convention")
    func fileNamesFollowConvention() {
        #expect(VersionedFixture.fileName(forVersion: 3) == "v3.json")
        #expect(VersionedFixture.fileName(forVersion: 1, format: .xmlPropertyList) == "v1.xml.plist")
        #expect(VersionedFixture.fileName(forVersion: 1, format: .binaryPropertyList) == "v1.binary.plist")
        #expect(VersionedFixture.fileName(forVersion: 1, label: "empty-poem") == "v1-empty-poem.json")
        #expect(VersionedFixture.fileName(forVersion: nil) == "unversioned.json")
        #expect(
            VersionedFixture.fileName(forVersion: nil, label: "something", format: .xmlPropertyList)
                == "unversioned-something.xml.plist"
        )
    }

    @Test("ending in .plist alone is read in whichever property list format the file holds")
    func plainPlistFormatComesFromContents() throws {
        let directory = try TemporaryDirectory()
        let document = ["title": "Porridge"]
        let binary = directory.url.appendingPathComponent("unversioned-binary.plist")
        let xml = directory.url.appendingPathComponent("unversioned-xml.plist")
        let binaryEncoder = PropertyListEncoder()
        binaryEncoder.outputFormat = .binary
        try binaryEncoder.encode(document).write(to: binary)
        let xmlEncoder = PropertyListEncoder()
        xmlEncoder.outputFormat = .xml
        try xmlEncoder.encode(document).write(to: xml)

        #expect(VersionedFixture(url: binary)?.format == .binaryPropertyList)
        #expect(VersionedFixture(url: xml)?.format == .xmlPropertyList)
    }

    @Test("orders fixtures oldest version first, then by label and format")
    func ordersByVersion() {
        let names = [
            "v10.json", "v2-b.json", "v2.json", "unversioned-x.plist", "v2-a.json", "unversioned.json",
            "v2.binary.plist",
        ]
        let sorted = names.compactMap { VersionedFixture(url: Self.folder.appendingPathComponent($0)) }
            .sorted()
        #expect(
            sorted.map(\.fileName) == [
                "unversioned.json", "unversioned-x.plist", "v2.binary.plist", "v2.json", "v2-a.json",
                "v2-b.json",
                "v10.json",
            ]
        )
    }

    @Test("reads its document from disk")
    func readsData() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("v1.json")
        try Data("{\"version\":1}".utf8).write(to: url)
        let fixture = try #require(VersionedFixture(url: url))
        #expect(try fixture.data() == Data("{\"version\":1}".utf8))
    }
}
