import Foundation

/// Committed schema files that hold shipped versions to the shape they shipped with.
///
/// The folder holds one subfolder per type and one file per version, named as
/// ``VersionSchema/fileName`` names it:
///
/// ```
/// Schemas/
///   Poem/
///     unversioned.schema.json
///     v1.schema.json
///     ...
/// ```
///
/// ``check(_:recording:)`` compares every version's derived schema with its file and throws a
/// ``SchemaLockFailure`` naming the type, the version and each field that changed. With
/// recording on (`VERSIONED_CODABLE_RECORD=1`, as for fixtures), it writes the files of versions
/// that have none, and only those: a shipped version's file is never rewritten. To change one
/// on purpose, delete it, record again, and say why in the commit.
///
/// <!-- snippet: schema-lock -->
/// ```swift
/// try SchemaLock(folder: SourceFolders.schemas).check(VersionSchemas(for: Poem.self))
/// ```
public struct SchemaLock: Sendable {
    /// The folder that holds a subfolder of schema files per type.
    public let folder: URL

    /// The environment variable that turns recording on when it is `1`.
    public static let recordingVariable = "VERSIONED_CODABLE_RECORD"

    /// Whether the environment asks for missing schema files to be written.
    public static var isRecording: Bool {
        ProcessInfo.processInfo.environment[recordingVariable] == "1"
    }

    /// Creates a lock on the schema files in a folder.
    ///
    /// - Parameter folder: The folder that holds a subfolder of schema files per type. It must
    ///   exist: a lock on a folder that is not there checks nothing, and fails.
    public init(folder: URL) {
        self.folder = folder
    }

    /// Compares each version's schema with its committed file.
    ///
    /// - Parameters:
    ///   - schemas: The schemas derived now.
    ///   - recording: Whether to write the files of versions that have none; by default, when
    ///     `VERSIONED_CODABLE_RECORD` is `1`.
    /// - Returns: The files compared and the files written.
    /// - Throws: ``SchemaLockFailure`` when the folder is missing, a file is not a schema, a
    ///   version has no file and recording is off, a version's schema differs from its file,
    ///   or a file names a version the chain no longer has.
    @discardableResult
    public func check(_ schemas: VersionSchemas, recording: Bool = SchemaLock.isRecording) throws -> SchemaLockReport {
        let manager = FileManager.default
        let typeFolder = folder.appendingPathComponent(schemas.typeName, isDirectory: true)
        var problems: [SchemaLockFailure.Problem] = []
        var checked: [String] = []
        var recorded: [String] = []
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw SchemaLockFailure(typeName: schemas.typeName, problems: [.folderMissing(path: folder.path)])
        }
        if !manager.fileExists(atPath: typeFolder.path) {
            guard recording else {
                throw SchemaLockFailure(typeName: schemas.typeName, problems: [.folderMissing(path: typeFolder.path)])
            }
            try manager.createDirectory(at: typeFolder, withIntermediateDirectories: true)
        }
        for version in schemas.schemas {
            let file = typeFolder.appendingPathComponent(version.fileName)
            guard let data = manager.contents(atPath: file.path) else {
                if recording {
                    // Whole or not at all: a write cut short (a full disk) must not leave a
                    // partial file, which a later recording would not replace.
                    try version.schema.jsonData().write(to: file, options: .atomic)
                    recorded.append(version.fileName)
                } else {
                    problems.append(.missing(version: version.version, file: file.path))
                }
                continue
            }
            checked.append(version.fileName)
            let committed: JSONSchema
            do {
                committed = try JSONDecoder().decode(JSONSchema.self, from: data)
            } catch {
                problems.append(.notASchema(file: file.path, reason: Self.describe(error)))
                continue
            }
            let changes = version.schema.changes(since: committed)
            if !changes.isEmpty {
                problems.append(.changed(version: version.version, file: file.path, changes: changes))
            }
        }
        let known = Set(schemas.schemas.map(\.fileName))
        let present = (try? manager.contentsOfDirectory(atPath: typeFolder.path)) ?? []
        for name in present.sorted() where name.hasSuffix(".schema.json") && !known.contains(name) {
            problems.append(.notInChain(file: typeFolder.appendingPathComponent(name).path))
        }
        guard problems.isEmpty else {
            throw SchemaLockFailure(typeName: schemas.typeName, problems: problems)
        }
        return SchemaLockReport(typeName: schemas.typeName, checked: checked, recorded: recorded)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.valueNotFound(_, let context):
            let underlying = (context.underlyingError as? NSError)?.localizedDescription
            return [context.debugDescription, underlying].compactMap { $0 }.joined(separator: ": ")
        default:
            return "\(error)"
        }
    }
}

/// What a lock compared and wrote.
public struct SchemaLockReport: Hashable, Sendable {
    /// The chain's name.
    public let typeName: String
    /// The files compared with their versions' schemas.
    public let checked: [String]
    /// The files written, for versions that had none.
    public let recorded: [String]
}

/// Why a lock failed: every problem found, each naming the type, the version or file, and the
/// fields that changed.
public struct SchemaLockFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// One problem with a type's schema files.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// The folder of schema files is not there, so nothing could be checked.
        case folderMissing(path: String)
        /// A file is not a JSON schema.
        case notASchema(file: String, reason: String)
        /// A version has no file, and recording is off.
        case missing(version: Int?, file: String)
        /// A version's schema differs from its file.
        case changed(version: Int?, file: String, changes: [SchemaChange])
        /// A file names a version the chain does not have.
        case notInChain(file: String)

        /// The problem in a sentence, with the file and each change on a line of its own.
        public var description: String {
            switch self {
            case .folderMissing(let path):
                return "no schema folder at \(path): nothing was checked"
            case .notASchema(let file, let reason):
                return "\(file) is not a JSON schema: \(reason)"
            case .missing(let version, let file):
                return "\(Self.name(version)) has no schema file at \(file); "
                    + "run the tests with \(SchemaLock.recordingVariable)=1 to record it"
            case .changed(let version, let file, let changes):
                return "\(Self.name(version)) no longer matches \(file):\n"
                    + changes.map { "  - \($0)" }.joined(separator: "\n")
            case .notInChain(let file):
                return "\(file) is for a version the chain no longer has"
            }
        }

        private static func name(_ version: Int?) -> String {
            version.map { "version \($0)" } ?? "the version before versioning"
        }
    }

    /// The chain whose files failed.
    public let typeName: String
    /// Every problem found.
    public let problems: [Problem]

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - typeName: The chain whose files failed.
    ///   - problems: Every problem found.
    public init(typeName: String, problems: [Problem]) {
        self.typeName = typeName
        self.problems = problems
    }

    /// The type and each problem on a line of its own.
    public var description: String {
        "The schemas of \(typeName) do not match their files:\n"
            + problems.map { "- " + $0.description }.joined(separator: "\n")
    }
}
