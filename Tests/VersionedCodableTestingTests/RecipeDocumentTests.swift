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
