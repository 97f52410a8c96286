import Foundation
import VersionedCodable

/// The stored documents of a versioned type, one or more for every version that shipped, and
/// the checks that today's type still reads them.
///
/// Keep a fixture file for each version of a type, in a folder named after the type inside
/// the test target's `Fixtures` folder, and check them from one test:
///
/// ```swift
/// @Test("Every recipe document that ever shipped still decodes")
/// func everyRecipeDocumentDecodes() {
///     let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
///     fixtures.checkEveryFixtureDecodes()
///     fixtures.checkEveryVersionHasFixture(recordingFrom: .sample)
/// }
/// ```
///
/// The test target copies the folder as a resource, `resources: [.copy("Fixtures")]`, and
/// the checks record a test issue for each document that no longer decodes and each version
/// that has no fixture. See ``VersionedFixture`` for the file names, and
/// ``checkEveryVersionHasFixture(recordingFrom:sourceLocation:)`` for record mode, which
/// writes the fixture of a new version.
public struct VersionedFixtures<Value: VersionedCodable>: Sendable {
    /// The folder the fixtures are read from: the type's folder in the bundle's resources, or
    /// in the directory given.
    public let folder: URL

    /// The type's folder in the source tree, where record mode writes a new fixture; `nil`
    /// when it could not be found.
    public var recordingFolder: URL?

    /// The decoder for `.json` fixtures.
    public var jsonDecoder: JSONDecoder

    /// The decoder for `.plist` fixtures, of either property list format.
    public var propertyListDecoder: PropertyListDecoder

    /// The encoder record mode writes JSON fixtures with. It sorts keys and indents, so that
    /// fixtures read well in a diff.
    public var jsonEncoder: JSONEncoder

    /// The encoder record mode writes property list fixtures with; its `outputFormat` is set
    /// from each format in ``recordedFormats``.
    public var propertyListEncoder: PropertyListEncoder

    /// The formats record mode writes the current version's fixture in. JSON only by default.
    public var recordedFormats: [VersionedFixture.Format]

    /// Whether checks write the current version's missing fixture from a sample value.
    ///
    /// It is `true` when the environment variable `VERSIONED_CODABLE_RECORD` is `1`; see
    /// ``FixtureRecordMode``. Set it to decide in code instead.
    public var isRecording: Bool

    /// The name of the type's folder: `String(describing: Value.self)`.
    public static var folderName: String { String(describing: Value.self) }

    /// Reads the fixtures of a type from a bundle's resources, usually a test target's
    /// `Bundle.module`.
    ///
    /// The fixtures are in `subdirectory/TypeName/` in the bundle. Record mode needs the same
    /// folder in the source tree, since a bundle is a read-only copy: it is found by going up
    /// from the folder of the file that calls this initializer until a folder that contains
    /// `subdirectory`. Pass `sourceDirectory` when the fixtures are elsewhere.
    ///
    /// ```swift
    /// let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The current version of the type.
    ///   - bundle: The bundle whose resources hold the fixtures.
    ///   - subdirectory: The folder of the bundle's resources that holds one folder per type.
    ///   - jsonDecoder: The decoder for `.json` fixtures, configured as the app configures it.
    ///   - propertyListDecoder: The decoder for `.plist` fixtures.
    ///   - sourceDirectory: The source folder that holds one folder per type, for record mode;
    ///     `nil` to find it from `filePath`.
    ///   - filePath: The file that calls this initializer; leave the default.
    public init(
        _ type: Value.Type,
        bundle: Bundle,
        subdirectory: String = "Fixtures",
        jsonDecoder: JSONDecoder = JSONDecoder(),
        propertyListDecoder: PropertyListDecoder = PropertyListDecoder(),
        sourceDirectory: URL? = nil,
        filePath: StaticString = #filePath
    ) {
        let resources = bundle.resourceURL ?? bundle.bundleURL
        let sourceRoot =
            sourceDirectory
            ?? Self.nearestFolder(named: subdirectory, above: URL(fileURLWithPath: "\(filePath)"))
        self.init(
            folder: resources.appendingPathComponent(subdirectory, isDirectory: true)
                .appendingPathComponent(Self.folderName, isDirectory: true),
            recordingFolder: sourceRoot?.appendingPathComponent(Self.folderName, isDirectory: true),
            jsonDecoder: jsonDecoder,
            propertyListDecoder: propertyListDecoder
        )
    }

    /// Reads the fixtures of a type from a folder on disk, which record mode also writes to.
    ///
    /// The fixtures are in `directory/TypeName/`.
    ///
    /// <!-- snippet: fixtures-in-directory -->
    /// ```swift
    /// let fixtures = VersionedFixtures(Recipe.self, directory: URL(fileURLWithPath: "Fixtures"))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The current version of the type.
    ///   - directory: The folder that holds one folder per type.
    ///   - jsonDecoder: The decoder for `.json` fixtures, configured as the app configures it.
    ///   - propertyListDecoder: The decoder for `.plist` fixtures.
    public init(
        _ type: Value.Type,
        directory: URL,
        jsonDecoder: JSONDecoder = JSONDecoder(),
        propertyListDecoder: PropertyListDecoder = PropertyListDecoder()
    ) {
        let folder = directory.appendingPathComponent(Self.folderName, isDirectory: true)
        self.init(
            folder: folder,
            recordingFolder: folder,
            jsonDecoder: jsonDecoder,
            propertyListDecoder: propertyListDecoder
        )
    }

    private init(
        folder: URL,
        recordingFolder: URL?,
        jsonDecoder: JSONDecoder,
        propertyListDecoder: PropertyListDecoder
    ) {
        self.folder = folder
        self.recordingFolder = recordingFolder
        self.jsonDecoder = jsonDecoder
        self.propertyListDecoder = propertyListDecoder
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        self.jsonEncoder = encoder
        self.propertyListEncoder = PropertyListEncoder()
        self.recordedFormats = [.json]
        self.isRecording = FixtureRecordMode.isOn()
    }

    /// Lists the type's fixtures, oldest version first.
    ///
    /// Use it as the arguments of a parameterized test, so that each fixture is a test case of
    /// its own:
    ///
    /// <!-- snippet: fixtures-as-arguments -->
    /// ```swift
    /// static let fixtures = VersionedFixtures(Recipe.self, bundle: .module)
    ///
    /// @Test("A stored recipe decodes", arguments: try fixtures.all())
    /// func storedRecipeDecodes(_ fixture: VersionedFixture) {
    ///     Self.fixtures.checkDecodes(fixture)
    /// }
    /// ```
    ///
    /// - Returns: The fixtures in ``folder``, ordered by version, label and format.
    /// - Throws: ``FixtureFolderError`` when the folder is missing, holds files that are not
    ///   named by version, or holds no fixture: a test over an empty list would pass without
    ///   checking anything.
    public func all() throws -> [VersionedFixture] {
        let fixtures = try Self.fixtures(in: folder)
        guard !fixtures.isEmpty else {
            throw FixtureFolderError.noFixtures(folder: folder)
        }
        return fixtures
    }

    /// Decodes a fixture into the current type, migrating it from the version it was stored as.
    ///
    /// - Parameter fixture: A fixture of this type.
    /// - Returns: The migrated value and the version the document stores.
    /// - Throws: Any error reading the file or decoding it throws.
    public func decode(_ fixture: VersionedFixture) throws -> Versioned<Value> {
        let data = try fixture.data()
        switch fixture.format {
        case .json:
            return try jsonDecoder.decodeWithStoredVersion(Value.self, from: data)
        case .xmlPropertyList, .binaryPropertyList:
            return try propertyListDecoder.decodeWithStoredVersion(Value.self, from: data)
        }
    }

    /// The version a fixture stores, read on its own so that it can be reported when the
    /// document does not decode; `nil` inside the result when the version is missing.
    func storedVersion(of fixture: VersionedFixture) throws -> Int? {
        let data = try fixture.data()
        switch fixture.format {
        case .json:
            return try jsonDecoder.storedVersion(of: Value.self, from: data)
        case .xmlPropertyList, .binaryPropertyList:
            return try propertyListDecoder.storedVersion(of: Value.self, from: data)
        }
    }

    /// Where a fixture should be, for messages: in the source tree when it is known, since
    /// that is where a new file is added.
    func suggestedLocation(of fileName: String) -> String {
        (recordingFolder ?? folder).appendingPathComponent(fileName).path
    }

    static func fixtures(in folder: URL) throws -> [VersionedFixture] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw FixtureFolderError.folderMissing(expected: folder)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        var fixtures: [VersionedFixture] = []
        var unrecognized: [String] = []
        for name in names where !Self.isNote(name) {
            if let fixture = VersionedFixture(url: folder.appendingPathComponent(name)) {
                fixtures.append(fixture)
            } else {
                unrecognized.append(name)
            }
        }
        guard unrecognized.isEmpty else {
            throw FixtureFolderError.unrecognizedFileNames(unrecognized.sorted(), folder: folder)
        }
        return fixtures.sorted()
    }

    /// Hidden files and notes may sit beside fixtures without being read as documents.
    private static func isNote(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix(".md") || name.hasSuffix(".txt")
    }

    /// Goes up from `file` to the first folder that contains a folder called `name`, stopping
    /// at the package root so that a folder of the same name elsewhere on disk is not used.
    static func nearestFolder(named name: String, above file: URL) -> URL? {
        let fileManager = FileManager.default
        var current = file.deletingLastPathComponent()
        while true {
            let candidate = current.appendingPathComponent(name, isDirectory: true)
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                return candidate
            }
            let isPackageRoot = fileManager.fileExists(
                atPath: current.appendingPathComponent("Package.swift").path
            )
            let parent = current.deletingLastPathComponent()
            if isPackageRoot || parent.path == current.path {
                return nil
            }
            current = parent
        }
    }
}
