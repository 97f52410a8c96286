import Foundation
import VersionedCodable

// The versions of a recipe document, the example type of these tests and of the article
// "Testing old documents". Each version that shipped has fixtures in Fixtures/Recipe.

/// A recipe as saved before the document had a version: its ingredients in one string.
struct RecipeV0: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier

    var title: String
    var ingredients: String
}

/// Version 1 split the ingredients into a list.
struct RecipeV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = RecipeV0

    var title: String
    var ingredients: [String]

    init(title: String, ingredients: [String]) {
        self.title = title
        self.ingredients = ingredients
    }

    init(from old: RecipeV0) throws {
        title = old.title
        ingredients = old.ingredients.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

/// Version 2 added the number of servings. It was `Recipe` until version 3 shipped.
struct RecipeV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = RecipeV1

    var title: String
    var ingredients: [String]
    var servings: Int

    init(title: String, ingredients: [String], servings: Int) {
        self.title = title
        self.ingredients = ingredients
        self.servings = servings
    }

    init(from old: RecipeV1) throws {
        title = old.title
        ingredients = old.ingredients
        servings = 2
    }
}

/// Today's recipe: version 3 gave each ingredient an optional weight.
struct Recipe: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = RecipeV2

    struct Ingredient: Codable, Equatable {
        var name: String
        var grams: Int?
    }

    var title: String
    var ingredients: [Ingredient]
    var servings: Int

    init(title: String, ingredients: [Ingredient], servings: Int) {
        self.title = title
        self.ingredients = ingredients
        self.servings = servings
    }

    init(from old: RecipeV2) throws {
        title = old.title
        ingredients = old.ingredients.map { Ingredient(name: $0, grams: nil) }
        servings = old.servings
    }

    static let sample = Recipe(
        title: "Pancakes",
        ingredients: [Ingredient(name: "flour", grams: 200), Ingredient(name: "milk", grams: 300)],
        servings: 4
    )
}
