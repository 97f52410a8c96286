import Foundation

/// Why the fixtures of a type could not be listed.
public enum FixtureFolderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no folder for the type where its fixtures are looked for.
    ///
    /// `expected` is the folder that was looked for, named after the type.
    case folderMissing(expected: URL)

    /// Files in the type's folder do not follow the fixture naming convention, so it is not
    /// known which version wrote them.
    ///
    /// Rename them to `v1.json`, `v1-what-it-shows.json`, `unversioned.plist` and so on.
    /// Files whose names start with a dot, and `.md` and `.txt` notes, are left alone.
    case unrecognizedFileNames([String], folder: URL)

    /// The type's folder holds no fixture, so a test over its fixtures would check nothing.
    ///
    /// Add one per version, or record the current version's (see ``FixtureRecordMode``).
    case noFixtures(folder: URL)

    /// A sentence that says what is wrong and where.
    public var description: String {
        switch self {
        case .folderMissing(let expected):
            return "No fixture folder at \(expected.path). It is named after the type; "
                + "check that the test target copies its fixtures with `resources: [.copy(\"Fixtures\")]`."
        case .unrecognizedFileNames(let names, let folder):
            return
                "Fixture files in \(folder.path) are not named by version: \(names.joined(separator: ", ")). "
                + "Name them v1.json, v1.xml.plist, v1.binary.plist, v1-what-it-shows.json or unversioned.json; "
                + "a label after the dash has no dots."
        case .noFixtures(let folder):
            return "No fixtures in \(folder.path), so there is nothing to check. Add one per version, "
                + "such as v1.json, or record the current version's."
        }
    }
}
