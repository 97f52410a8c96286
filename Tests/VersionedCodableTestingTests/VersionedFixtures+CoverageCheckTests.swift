import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

/// Two versions of a type that both claim version 1: an invalid chain.
struct CoverageTestDuplicateV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var text: String
}

struct CoverageTestDuplicate: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = CoverageTestDuplicateV1
    var text: String
    init(from old: CoverageTestDuplicateV1) throws { text = old.text }
}

@Suite("Checking that every version has a fixture")
struct CoverageCheckTests {
    /// The recipe fixtures copied to a temporary folder without `excluded`, record mode off.
    static func recipeFixtures(
        leavingOut excluded: Set<String>,
        in directory: TemporaryDirectory
    ) throws -> VersionedFixtures<Recipe> {
        var fixtures = VersionedFixtures(
            Recipe.self,
            directory: try directory.copyingBundledFixtures(of: "Recipe", leavingOut: excluded)
        )
        fixtures.isRecording = false
        return fixtures
    }

    @Test("passes for the recipe fixtures, which cover every version")
    func bundledFixturesCoverEveryVersion() {
        var fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        fixtures.isRecording = false
        #expect(VersionChain(for: Recipe.self).versions == [3, 2, 1, nil])
        var missing: [Int?] = []
        #expect(
            issuesRecorded { missing = fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }.isEmpty
        )
        #expect(missing.isEmpty)
    }

    @Test("fails for a new version without a fixture, naming the version and the file to add")
    func newVersionWithoutFixtureFails() throws {
        let directory = try TemporaryDirectory()
        let fixtures = try Self.recipeFixtures(leavingOut: ["v3.json"], in: directory)

        var missing: [Int?] = []
        var line = 0
        let issues = issuesRecorded {
            line = #line + 1
            missing = fixtures.checkEveryVersionHasFixture(recordingFrom: .sample)
        }
        #expect(missing == [3])
        try #require(issues.count == 1)
        let text = message(of: issues[0])
        #expect(text.contains("Recipe (version 3) has no fixture."))
        #expect(text.contains("Add \(fixtures.folder.appendingPathComponent("v3.json").path)"))
        #expect(text.contains("run the tests with VERSIONED_CODABLE_RECORD=1"))
        #expect(issues[0].isFailure)
        #expect(issues[0].sourceLocation.line == line)
        #expect(
            !FileManager.default.fileExists(atPath: fixtures.folder.appendingPathComponent("v3.json").path)
        )
    }

    @Test("tells how to record the current version's fixture when no sample is given")
    func suggestsSample() throws {
        let directory = try TemporaryDirectory()
        let fixtures = try Self.recipeFixtures(leavingOut: ["v3.json"], in: directory)
        let texts = issuesRecorded { fixtures.checkEveryVersionHasFixture() }.map(message)
        #expect(texts.count == 1)
        #expect(texts.first?.contains("pass one as `recordingFrom:`") == true)
    }

    @Test("names each older version without a fixture, oldest first, with its file name")
    func olderVersionsWithoutFixtures() throws {
        let directory = try TemporaryDirectory()
        let fixtures = try Self.recipeFixtures(
            leavingOut: [
                "unversioned.json", "unversioned-porridge.plist", "v1.json", "v1-no-ingredients.json",
            ],
            in: directory
        )
        var missing: [Int?] = []
        let texts = issuesRecorded { missing = fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }
            .map(message)
        #expect(missing == [nil, 1])
        try #require(texts.count == 2)
        #expect(texts[0].contains("RecipeV0 (version nil) has no fixture"))
        #expect(texts[0].contains("unversioned.json"))
        #expect(texts[1].contains("RecipeV1 (version 1) has no fixture"))
        #expect(texts[1].contains("v1.json"))
        #expect(!texts[0].contains("VERSIONED_CODABLE_RECORD"))
    }

    @Test("counts a version covered by any of its fixtures, whatever the format or label")
    func anyFixtureCovers() throws {
        let directory = try TemporaryDirectory()
        let fixtures = try Self.recipeFixtures(
            leavingOut: ["v2.json", "v2.xml.plist", "unversioned.json"],
            in: directory
        )
        #expect(issuesRecorded { fixtures.checkEveryVersionHasFixture() }.isEmpty)
    }

    @Test("names every version when the type has no fixture folder")
    func noFolder() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        fixtures.isRecording = false
        var missing: [Int?] = []
        let issues = issuesRecorded { missing = fixtures.checkEveryVersionHasFixture() }
        #expect(issues.count == 4)
        #expect(missing == [nil, 1, 2, 3])
    }

    @Test(
        "points at the resources setting when the source folder has the fixture but the folder read does not"
    )
    func fixtureOnlyInSource() throws {
        let read = try TemporaryDirectory()
        let source = try TemporaryDirectory()
        var fixtures = try Self.recipeFixtures(leavingOut: ["v3.json"], in: read)
        fixtures.recordingFolder = try source.copyingBundledFixtures(of: "Recipe").appendingPathComponent(
            "Recipe"
        )
        let texts = issuesRecorded { fixtures.checkEveryVersionHasFixture() }.map(message)
        #expect(texts.count == 1)
        #expect(texts.first?.contains("The source folder \(fixtures.recordingFolder!.path) has one") == true)
    }

    @Test("reports an invalid version chain instead of listing its versions")
    func invalidChain() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(CoverageTestDuplicate.self, directory: directory.url)
        fixtures.isRecording = false
        let texts = issuesRecorded { fixtures.checkEveryVersionHasFixture() }.map(message)
        #expect(texts.count == 1)
        #expect(texts.first?.contains("The version chain of CoverageTestDuplicate is invalid") == true)
    }
}
