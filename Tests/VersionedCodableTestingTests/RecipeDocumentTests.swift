import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

/// The tests the article "Testing old documents" shows, run against the recipe fixtures that
/// ship with this target.
@Suite("Recipe documents")
struct RecipeDocumentTests {
    @Test("Every recipe document that ever shipped still decodes")
    func everyRecipeDocumentDecodes() {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        fixtures.checkEveryFixtureDecodes()
        fixtures.checkEveryVersionHasFixture(recordingFrom: .sample)
    }

    @Test("Stored recipes migrate to the values they held")
    func storedRecipesMigrate() {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        let flourMilkEggs = ["flour", "milk", "eggs"].map { Recipe.Ingredient(name: $0, grams: nil) }
        let summary = fixtures.checkEveryFixtureDecodes(expecting: [
            "unversioned.json": Recipe(title: "Pancakes", ingredients: flourMilkEggs, servings: 2),
            "v2.json": Recipe(title: "Pancakes", ingredients: flourMilkEggs, servings: 4),
        ])
        #expect(summary.storedVersions == [nil, 1, 2, 3])
    }

    static let recipeFixtures = VersionedFixtures(Recipe.self, bundle: .module)

    @Test("A stored recipe decodes", arguments: try recipeFixtures.all())
    func storedRecipeDecodes(_ fixture: VersionedFixture) {
        Self.recipeFixtures.checkDecodes(fixture)
    }
}

/// The samples in the documentation comments of the checks, run against the same fixtures:
/// Scripts/sync-snippets.py copies each region into its comment.
@Suite("Recipe documents, checked as the checks' documentation shows")
struct RecipeCheckSampleTests {
    // snippet: fixtures-as-arguments
    static let fixtures = VersionedFixtures(Recipe.self, bundle: .module)

    // snippet: check-decodes
    @Test("A stored recipe decodes", arguments: try fixtures.all())
    func storedRecipeDecodes(_ fixture: VersionedFixture) {
        Self.fixtures.checkDecodes(fixture)
    }
    // end snippet
    // end snippet

    // snippet: coverage-check
    @Test("Every version of a recipe has a fixture")
    func everyRecipeVersionHasFixture() {
        VersionedFixtures(Recipe.self, bundle: .module)
            .checkEveryVersionHasFixture(recordingFrom: .sample)
    }
    // end snippet

    // snippet: decoding-check
    @Test("Every stored recipe decodes")
    func storedRecipesDecode() {
        VersionedFixtures(Recipe.self, bundle: .module).checkEveryFixtureDecodes()
    }
    // end snippet

    // snippet: recipe-plain-encoding-check
    @Test("A recipe written without its version is never read as an old one")
    func plainEncodingIsNotMistaken() {
        VersionedFixtures(Recipe.self, bundle: .module).checkPlainEncodingIsNotMistaken(.sample)
    }
    // end snippet

    @Test("Stored recipes decode to the values expected by a closure and by file name")
    func expectedValues() {
        let fixtures = Self.fixtures
        // snippet: expecting-by-closure
        fixtures.checkEveryFixtureDecodes { fixture in
            fixture.label == "no-ingredients" ? Recipe(title: "Toast", ingredients: [], servings: 2) : nil
        }
        // end snippet
        // snippet: expecting-by-name
        fixtures.checkEveryFixtureDecodes(expecting: [
            "v1-no-ingredients.json": Recipe(title: "Toast", ingredients: [], servings: 2)
        ])
        // end snippet
    }

    @Test("Fixtures can be read from a folder on disk")
    func fixturesInADirectory() {
        // snippet: fixtures-in-directory
        let fixtures = VersionedFixtures(Recipe.self, directory: URL(fileURLWithPath: "Fixtures"))
        // end snippet
        #expect(fixtures.folder.lastPathComponent == "Recipe")
        #expect(fixtures.recordingFolder == fixtures.folder)
    }
}
