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

    static let recipeFixtures = VersionedFixtures(Recipe.self, bundle: .module)

    @Test("A stored recipe decodes", arguments: try recipeFixtures.all())
    func storedRecipeDecodes(_ fixture: VersionedFixture) {
        Self.recipeFixtures.checkDecodes(fixture)
    }
}
