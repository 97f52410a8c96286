import Foundation
import VersionedCodable

// The 1.2 `VersionPathSpec` documentation's example: the version lives in a nested
// `_metadata` object, which the type also uses for a field of its own, and the type encodes a
// raw shape through a single-value container.

/// The version at `_metadata.version`, with a stored key path written against `Self`.
struct RecipeVersionPath: VersionPathSpec {
    static let keyPathToVersion: KeyPath<RecipeVersionPath, Int?> = \Self._metadata.version

    let _metadata: Metadata

    struct Metadata: Codable {
        var version: Int?
    }

    init(withVersion version: Int?) {
        _metadata = Metadata(version: version)
    }
}

/// The first recipe: `{"title": "...", "_metadata": {"version": 1}}`.
struct RecipeV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = RecipeVersionPath

    var title: String
}

/// The current recipe, which records who changed it last in `_metadata`.
struct Recipe: Equatable {
    var recipeTitle: String
    var lastModifiedBy: String

    /// The shape of the document, which the type reads and writes through a single value.
    struct RawRecipe: Codable {
        var recipeTitle: String
        var _metadata: Metadata

        struct Metadata: Codable {
            var lastModifiedBy: String
        }
    }
}

extension Recipe: Codable {
    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(RawRecipe.self)
        recipeTitle = raw.recipeTitle
        lastModifiedBy = raw._metadata.lastModifiedBy
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(
            RawRecipe(recipeTitle: recipeTitle, _metadata: .init(lastModifiedBy: lastModifiedBy))
        )
    }
}

extension Recipe: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = RecipeV1
    typealias VersionSpec = RecipeVersionPath

    init(from old: RecipeV1) throws {
        recipeTitle = old.title
        lastModifiedBy = "unknown"
    }
}
