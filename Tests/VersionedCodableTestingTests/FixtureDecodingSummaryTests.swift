import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

@Suite("A decoding summary")
struct FixtureDecodingSummaryTests {
    @Test("finds values by file name and lists the stored versions of what decoded")
    func lookups() throws {
        let directory = try TemporaryDirectory()
        let root = try directory.copyingBundledFixtures(of: "Recipe", leavingOut: ["v2.json"])
        let folder = root.appendingPathComponent("Recipe")
        try Data("broken".utf8).write(to: folder.appendingPathComponent("v1-broken.json"))
        var fixtures = VersionedFixtures(Recipe.self, directory: root)
        fixtures.isRecording = false

        var summary: FixtureDecodingSummary<Recipe>?
        let issues = issuesRecorded { summary = fixtures.checkEveryFixtureDecodes() }
        let result = try #require(summary)
        #expect(issues.count == 1)
        #expect(result.fixtures.count == 8)
        #expect(result.decoded.count == 7)
        #expect(result.failures.keys.map(\.fileName) == ["v1-broken.json"])
        #expect(result["v1-broken.json"] == nil)
        #expect(result["v2.xml.plist"]?.title == "Omelette")
        #expect(result.storedVersions == [nil, 1, 2, 3])
        #expect(!result.passed)
    }

    @Test("answers the documentation's questions about the recipe fixtures")
    func documentedLookups() {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        // snippet: summary-lookups
        let summary = fixtures.checkEveryFixtureDecodes()
        #expect(summary["v1-no-ingredients.json"]?.servings == 2)
        #expect(summary.storedVersions == [nil, 1, 2, 3])
        // end snippet
    }

    @Test("can be sent to another task")
    func sendable() async {
        let summary = VersionedFixtures(Recipe.self, bundle: .module).checkEveryFixtureDecodes()
        let count = await Task.detached { summary.decoded.count }.value
        #expect(count == 8)
    }
}
