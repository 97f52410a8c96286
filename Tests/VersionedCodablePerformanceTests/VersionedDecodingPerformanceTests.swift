import Foundation
import VersionedCodable
import XCTest

/// How long decoding a batch of stored documents takes, old ones through a three-step chain
/// and current ones straight through.
///
/// These are `measure {}` blocks for spotting regressions in Xcode or `swift test` output,
/// not pass/fail timings: the ratios against plain `Codable` live in the Benchmarks package.
/// Every block checks what it decoded, so a fast wrong answer fails.
final class VersionedDecodingPerformanceTests: XCTestCase {
    static let batchSize = 300

    static let oldDocuments: [Data] = (0..<batchSize).map { index in
        let recipe = PerformanceRecipeV1(
            name: "Recipe \(index)",
            ingredients: "flour, water, salt, yeast \(index)",
            minutes: index % 90 + 5
        )
        return try! JSONEncoder().encode(versioned: recipe)
    }

    static let currentDocuments: [Data] = (0..<batchSize).map { index in
        let recipe = PerformanceRecipe(
            name: "Recipe \(index)",
            ingredients: ["flour", "water", "salt", "yeast \(index)"],
            servings: index % 6 + 3,
            duration: PerformanceRecipe.Duration(minutes: index % 90 + 5)
        )
        return try! JSONEncoder().encode(versioned: recipe)
    }

    func testDecodingOldDocumentsThroughThreeMigrations() throws {
        let decoder = JSONDecoder()
        let documents = Self.oldDocuments
        var decoded: [PerformanceRecipe] = []
        measure {
            decoded = documents.compactMap {
                try? decoder.decode(versioned: PerformanceRecipe.self, from: $0)
            }
        }
        XCTAssertEqual(decoded.count, Self.batchSize)
        XCTAssertEqual(decoded[7].ingredients, ["flour", "water", "salt", "yeast 7"])
        XCTAssertEqual(decoded[7].servings, 2, "the V2 → V3 step's default")
        XCTAssertEqual(decoded[7].duration.minutes, 12)
    }

    func testDecodingCurrentDocuments() throws {
        let decoder = JSONDecoder()
        let documents = Self.currentDocuments
        var decoded: [PerformanceRecipe] = []
        measure {
            decoded = documents.compactMap {
                try? decoder.decode(versioned: PerformanceRecipe.self, from: $0)
            }
        }
        XCTAssertEqual(decoded.count, Self.batchSize)
        XCTAssertEqual(decoded[7].ingredients, ["flour", "water", "salt", "yeast 7"])
        XCTAssertEqual(decoded[7].servings, 4)
        XCTAssertEqual(decoded[7].duration.minutes, 12)
    }

    func testDecodingCurrentDocumentsWithPlainCodable() throws {
        // The floor the versioned decode above is compared with by eye.
        let decoder = JSONDecoder()
        let documents = Self.currentDocuments
        var decoded: [PerformanceRecipe] = []
        measure {
            decoded = documents.compactMap { try? decoder.decode(PerformanceRecipe.self, from: $0) }
        }
        XCTAssertEqual(decoded.count, Self.batchSize)
        XCTAssertEqual(decoded[7].duration.minutes, 12)
    }
}

/// The first stored recipe: ingredients in one comma-separated string.
struct PerformanceRecipeV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var name: String
    var ingredients: String
    var minutes: Int
}

/// Version 2 splits the ingredients into a list.
struct PerformanceRecipeV2: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = PerformanceRecipeV1
    var name: String
    var ingredients: [String]
    var minutes: Int

    init(from old: PerformanceRecipeV1) {
        name = old.name
        ingredients = old.ingredients.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        minutes = old.minutes
    }
}

/// Version 3 adds servings, two unless said otherwise.
struct PerformanceRecipeV3: VersionedCodable {
    static let version: Int? = 3
    typealias PreviousVersion = PerformanceRecipeV2
    var name: String
    var ingredients: [String]
    var minutes: Int
    var servings: Int

    init(from old: PerformanceRecipeV2) {
        name = old.name
        ingredients = old.ingredients
        minutes = old.minutes
        servings = 2
    }
}

/// The current recipe: the time becomes a nested duration.
struct PerformanceRecipe: VersionedCodable {
    static let version: Int? = 4
    typealias PreviousVersion = PerformanceRecipeV3

    struct Duration: Codable {
        var minutes: Int
    }

    var name: String
    var ingredients: [String]
    var servings: Int
    var duration: Duration

    init(name: String, ingredients: [String], servings: Int, duration: Duration) {
        self.name = name
        self.ingredients = ingredients
        self.servings = servings
        self.duration = duration
    }

    init(from old: PerformanceRecipeV3) {
        self.init(
            name: old.name,
            ingredients: old.ingredients,
            servings: old.servings,
            duration: Duration(minutes: old.minutes)
        )
    }
}
