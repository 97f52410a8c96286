import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

@Suite("Every JSON fixture matches the schema of its version")
struct SchemaCheckTests {
    @Test("The recipe's fixtures match their versions' schemas, and each JSON one is checked")
    func recipeFixturesMatch() throws {
        var checked = 0
        let issues = issuesRecorded {
            checked = VersionedFixtures(Recipe.self, bundle: .module).checkEveryFixtureMatchesItsSchema()
        }
        #expect(issues.map(message(of:)) == [])
        let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/Recipe")
        let jsonFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(checked == jsonFiles.count)
    }

    @Test("A fixture its version's schema refuses is named with the place it breaks the schema")
    func damagedFixtureIsNamed() throws {
        let directory = try TemporaryDirectory()
        let root = try directory.copyingBundledFixtures(of: "Recipe")
        // Version 3 as a version 3 build never wrote it: servings as a string.
        let damaged = #"{"version":3,"title":"Pancakes","servings":"four","ingredients":[]}"#
        try Data(damaged.utf8).write(to: root.appendingPathComponent("Recipe/v3-damaged.json"))
        let issues = issuesRecorded {
            VersionedFixtures(Recipe.self, directory: root).checkEveryFixtureMatchesItsSchema()
        }
        #expect(issues.count == 1)
        let text = try #require(issues.first.map(message(of:)))
        #expect(text.contains("v3-damaged.json does not match the schema of version 3"), "\(text)")
        #expect(text.contains("$.servings"), "\(text)")
    }

    @Test("A folder without JSON fixtures is reported, since nothing was checked")
    func nothingToCheck() throws {
        let directory = try TemporaryDirectory()
        let root = try directory.copyingBundledFixtures(
            of: "Recipe",
            leavingOut: ["unversioned.json", "v1-no-ingredients.json", "v1.json", "v2.json", "v3.json"]
        )
        var checked = -1
        let issues = issuesRecorded {
            checked = VersionedFixtures(Recipe.self, directory: root).checkEveryFixtureMatchesItsSchema()
        }
        #expect(checked == 0)
        #expect(issues.map(message(of:)).first?.contains("has no JSON fixture") == true)
    }
}
