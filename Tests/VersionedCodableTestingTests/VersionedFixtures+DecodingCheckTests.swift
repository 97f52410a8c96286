import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

@Suite("Checking that every fixture decodes")
struct DecodingCheckTests {
    /// A folder with one Recipe fixture holding `document`, named `name`.
    static func folder(
        holding document: String,
        named name: String
    ) throws -> (TemporaryDirectory, VersionedFixtures<Recipe>) {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        fixtures.isRecording = false
        try FileManager.default.createDirectory(at: fixtures.folder, withIntermediateDirectories: true)
        try Data(document.utf8).write(to: fixtures.folder.appendingPathComponent(name))
        return (directory, fixtures)
    }

    static let pancakesFromV1 = Recipe(
        title: "Pancakes",
        ingredients: ["flour", "milk", "eggs"].map { Recipe.Ingredient(name: $0, grams: nil) },
        servings: 2
    )

    @Test("passes for the recipe fixtures and tells what each decoded to")
    func bundledFixturesDecode() {
        let summary = VersionedFixtures(Recipe.self, bundle: .module).checkEveryFixtureDecodes()
        #expect(summary.passed)
        #expect(summary.issueCount == 0)
        #expect(summary.fixtures.map(\.fileName) == VersionedFixturesTests.bundledNames)
        #expect(summary.decoded.count == 8)
        #expect(summary.failures.isEmpty)
        #expect(summary.storedVersions == [nil, 1, 2, 3])
        #expect(summary["v1.json"] == Self.pancakesFromV1)
        #expect(summary["unversioned-porridge.plist"]?.ingredients.map(\.name) == ["oats", "water", "salt"])
        #expect(summary["v1-no-ingredients.json"]?.ingredients == [])
        #expect(summary["v3.json"] == Recipe.sample)
        #expect(summary["v9.json"] == nil)
    }

    @Test("records an issue naming the file, its stored version and the error, at the caller's line")
    func brokenFixtureIsReported() throws {
        let (directory, fixtures) = try Self.folder(
            holding: #"{"version": 2, "title": "Pancakes", "ingredients": [], "servings": "four"}"#,
            named: "v2.json"
        )
        var summary: FixtureDecodingSummary<Recipe>?
        var line = 0
        let issues = issuesRecorded {
            line = #line + 1
            summary = fixtures.checkEveryFixtureDecodes()
        }
        try #require(issues.count == 1)
        let text = message(of: issues[0])
        #expect(text.contains("Recipe fixture v2.json (stored version 2) no longer decodes"))
        #expect(text.contains("servings"))
        #expect(issues[0].sourceLocation.line == line)
        #expect(issues[0].sourceLocation.fileID == #fileID)
        #expect(summary?.issueCount == 1)
        #expect(summary?.passed == false)
        #expect(summary?.failures.keys.map(\.fileName) == ["v2.json"])
        #expect(summary?.decoded.isEmpty == true)
        _ = directory
    }

    @Test("says when a broken fixture's version cannot be read either")
    func unreadableVersionIsReported() throws {
        let (directory, fixtures) = try Self.folder(holding: "not JSON at all", named: "v2.json")
        let issues = issuesRecorded { fixtures.checkEveryFixtureDecodes() }
        #expect(issues.map(message).count == 1)
        #expect(
            issues.first.map(message)?.contains("v2.json (stored version unreadable) no longer decodes")
                == true
        )
        _ = directory
    }

    @Test("records an issue for a fixture whose stored version is not the one in its name")
    func misnamedVersionIsReported() throws {
        let (directory, fixtures) = try Self.folder(
            holding: #"{"version": 2, "title": "Toast", "ingredients": ["bread"], "servings": 1}"#,
            named: "v1-toast.json"
        )
        let issues = issuesRecorded { fixtures.checkEveryFixtureDecodes() }
        #expect(issues.count == 1)
        #expect(
            issues.first.map(message)?.contains(
                "v1-toast.json is named for version 1 but stores version 2; rename it to v2-toast.json"
            ) == true
        )
        _ = directory
    }

    @Test("records an issue when a fixture migrates to another value than the closure expects")
    func closureExpectations() throws {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        let matching = issuesRecorded {
            fixtures.checkEveryFixtureDecodes { $0.fileName == "v1.json" ? Self.pancakesFromV1 : nil }
        }
        #expect(matching.isEmpty)

        var wrong = Self.pancakesFromV1
        wrong.servings = 3
        let differing = issuesRecorded {
            let summary = fixtures.checkEveryFixtureDecodes {
                $0.version == 1 && $0.label == nil ? wrong : nil
            }
            #expect(summary.issueCount == 1)
        }
        try #require(differing.count == 1)
        #expect(message(of: differing[0]).contains("Recipe fixture v1.json (stored version 1) decoded to"))
        #expect(message(of: differing[0]).contains("servings: 3"))
    }

    @Test("compares with expected values by file name, and reports names that are not fixtures")
    func dictionaryExpectations() throws {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        #expect(
            issuesRecorded { fixtures.checkEveryFixtureDecodes(expecting: ["v1.json": Self.pancakesFromV1]) }
                .isEmpty
        )

        let issues = issuesRecorded {
            fixtures.checkEveryFixtureDecodes(expecting: [
                "v3.json": Self.pancakesFromV1, "v9.json": Recipe.sample,
            ])
        }
        let texts = issues.map(message)
        #expect(texts.count == 2)
        #expect(texts.contains { $0.contains("v3.json (stored version 3) decoded to") })
        #expect(
            texts.contains {
                $0.contains("An expected value names v9.json, which is not a fixture of Recipe")
            }
        )
    }

    @Test("records one issue when the folder is missing, empty or holds misnamed files")
    func folderProblems() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        fixtures.isRecording = false

        let missing = issuesRecorded { fixtures.checkEveryFixtureDecodes() }.map(message)
        #expect(missing.count == 1)
        #expect(missing.first?.contains("No fixture folder at \(fixtures.folder.path)") == true)

        try FileManager.default.createDirectory(at: fixtures.folder, withIntermediateDirectories: true)
        let empty = issuesRecorded { fixtures.checkEveryFixtureDecodes() }.map(message)
        #expect(empty.count == 1)
        #expect(empty.first?.contains("Recipe has no fixtures") == true)
        #expect(empty.first?.contains("v3.json") == true)

        try Data("{}".utf8).write(to: fixtures.folder.appendingPathComponent("recipe.json"))
        let misnamed = issuesRecorded { fixtures.checkEveryFixtureDecodes() }.map(message)
        #expect(misnamed.count == 1)
        #expect(misnamed.first?.contains("not named by version: recipe.json") == true)
    }

    @Test("checks one fixture at a time for parameterized tests")
    func singleFixture() throws {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        let v1 = try #require(try fixtures.all().first { $0.fileName == "v1.json" })
        var read: Versioned<Recipe>?
        #expect(issuesRecorded { read = fixtures.checkDecodes(v1) }.isEmpty)
        #expect(read?.wrappedValue == Self.pancakesFromV1)
        #expect(issuesRecorded { fixtures.checkDecodes(v1, expecting: Self.pancakesFromV1) }.isEmpty)

        let issues = issuesRecorded { read = fixtures.checkDecodes(v1, expecting: Recipe.sample) }
        #expect(read?.storedVersion == 1)
        #expect(issues.count == 1)
        #expect(issues.first.map(message)?.contains("v1.json (stored version 1) decoded to") == true)
    }

    @Test("reports a single broken fixture and returns nil for it")
    func singleBrokenFixture() throws {
        let (directory, fixtures) = try Self.folder(holding: #"{"version": 7}"#, named: "v7.json")
        let fixture = try #require(try fixtures.all().first)
        var result: Versioned<Recipe>?
        let issues = issuesRecorded { result = fixtures.checkDecodes(fixture) }
        #expect(result == nil)
        #expect(issues.count == 1)
        #expect(issues.first.map(message)?.contains("v7.json (stored version 7) no longer decodes") == true)
        _ = directory
    }
}
