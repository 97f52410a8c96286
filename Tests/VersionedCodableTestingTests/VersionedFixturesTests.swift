import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

/// A note whose fields only decode with a configured decoder: snake-case keys and ISO 8601
/// dates.
struct FixturesTestStampedNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var text: String
    var createdAt: Date
}

@Suite("A type's fixtures")
struct VersionedFixturesTests {
    static let bundledNames = [
        "unversioned.json", "unversioned-porridge.plist", "v1.json", "v1-no-ingredients.json",
        "v2.binary.plist",
        "v2.json", "v2.xml.plist", "v3.json",
    ]

    @Test("are in a folder named after the type")
    func folderName() {
        #expect(VersionedFixtures<Recipe>.folderName == "Recipe")
        #expect(VersionedFixtures<FixturesTestStampedNote>.folderName == "FixturesTestStampedNote")
    }

    @Test(
        "in a bundle are read from its resources and recorded into the source folder beside the calling file"
    )
    func bundleLocations() {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        let resources = Bundle.module.resourceURL!.appendingPathComponent(
            "Fixtures/Recipe",
            isDirectory: true
        )
        #expect(fixtures.folder.standardizedFileURL == resources.standardizedFileURL)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Recipe", isDirectory: true)
        #expect(fixtures.recordingFolder?.standardizedFileURL == source.standardizedFileURL)
    }

    @Test("in a bundle record into the source folder given, when there is one")
    func explicitSourceDirectory() throws {
        let directory = try TemporaryDirectory()
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module, sourceDirectory: directory.url)
        #expect(fixtures.recordingFolder == directory.url.appendingPathComponent("Recipe", isDirectory: true))
    }

    @Test("in a bundle have no source folder when none is found above the calling file")
    func noSourceFolderFound() throws {
        let fixtures = VersionedFixtures(
            Recipe.self,
            bundle: .module,
            subdirectory: "Fixtures",
            filePath: "/no-such-package-for-versioned-codable/Tests/Some/File.swift"
        )
        #expect(fixtures.recordingFolder == nil)
    }

    @Test("in a directory are read from and recorded into the type's folder there")
    func directoryLocations() throws {
        let directory = try TemporaryDirectory()
        let fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        let expected = directory.url.appendingPathComponent("Recipe", isDirectory: true)
        #expect(fixtures.folder == expected)
        #expect(fixtures.recordingFolder == expected)
    }

    @Test("are listed oldest version first")
    func listsBundledFixtures() throws {
        let fixtures = try VersionedFixtures(Recipe.self, bundle: .module).all()
        #expect(fixtures.map(\.fileName) == Self.bundledNames)
        #expect(fixtures.map(\.version) == [nil, nil, 1, 1, 2, 2, 2, 3])
    }

    @Test("in a folder that does not exist cannot be listed")
    func missingFolderThrows() throws {
        let directory = try TemporaryDirectory()
        let fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        #expect(throws: FixtureFolderError.folderMissing(expected: fixtures.folder)) {
            try fixtures.all()
        }
    }

    @Test(
        "cannot be listed beside files that are not named by version, but hidden files and notes are left alone"
    )
    func misnamedFilesThrow() throws {
        let directory = try TemporaryDirectory()
        let fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        try FileManager.default.createDirectory(at: fixtures.folder, withIntermediateDirectories: true)
        for name in ["v1.json", ".DS_Store", "README.md", "notes.txt"] {
            try Data("{}".utf8).write(to: fixtures.folder.appendingPathComponent(name))
        }
        #expect(try fixtures.all().map(\.fileName) == ["v1.json"])

        for name in ["V2.json", "recipe-v3.json"] {
            try Data("{}".utf8).write(to: fixtures.folder.appendingPathComponent(name))
        }
        #expect(
            throws: FixtureFolderError.unrecognizedFileNames(
                ["V2.json", "recipe-v3.json"],
                folder: fixtures.folder
            )
        ) {
            try fixtures.all()
        }
    }

    @Test("decode into the current type, migrated from the version each stores")
    func decodesWithMigration() throws {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        let all = try fixtures.all()
        let unversioned = try #require(all.first { $0.fileName == "unversioned.json" })
        let read = try fixtures.decode(unversioned)
        #expect(read.storedVersion == nil)
        #expect(
            read.wrappedValue
                == Recipe(
                    title: "Pancakes",
                    ingredients: ["flour", "milk", "eggs"].map { Recipe.Ingredient(name: $0, grams: nil) },
                    servings: 2
                )
        )

        let binary = try #require(all.first { $0.fileName == "v2.binary.plist" })
        #expect(binary.format == .binaryPropertyList)
        let omelette = try fixtures.decode(binary)
        #expect(omelette.storedVersion == 2)
        #expect(omelette.wrappedValue.title == "Omelette")
        #expect(omelette.wrappedValue.servings == 1)
    }

    @Test("decode with the decoders they are given")
    func usesGivenDecoders() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("FixturesTestStampedNote", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"version": 1, "text": "hello", "created_at": "2024-01-02T03:04:05Z"}"#.utf8)
            .write(to: folder.appendingPathComponent("v1.json"))

        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let configured = VersionedFixtures(
            FixturesTestStampedNote.self,
            directory: directory.url,
            jsonDecoder: decoder
        )
        let fixture = try #require(try configured.all().first)
        #expect(
            try configured.decode(fixture).wrappedValue.createdAt
                == Date(timeIntervalSince1970: 1_704_164_645)
        )

        let plain = VersionedFixtures(FixturesTestStampedNote.self, directory: directory.url)
        #expect(throws: DecodingError.self) {
            try plain.decode(fixture)
        }
    }

    @Test("can be shared between tasks")
    func sendable() async throws {
        let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
        let names = try await Task.detached {
            try fixtures.all().map(\.fileName)
        }.value
        #expect(names == Self.bundledNames)
    }
}
