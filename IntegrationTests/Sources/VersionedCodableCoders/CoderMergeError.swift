/// A coder wrote a versioned document in which the version was not merged beside the type's
/// own fields.
///
/// VersionedCodable writes the version after the type's fields by opening the containers on
/// the version's path a second time. Foundation's coders merge the two; Yams replaces a
/// mapping that is opened again, and XMLCoder writes a second element. The encoding
/// extensions in this module check their output when the version's path is nested and throw
/// this error rather than return a document that has lost data or cannot be read back.
///
/// Keep such types on a version at the root of the document (the default), or leave the
/// object on the version's path to the version alone.
public enum CoderMergeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fields the type wrote are missing from the output. `paths` lists them, dot-separated.
    case coderDroppedFields(coder: String, paths: [String])

    /// The version read back from the output is not the version that was written.
    case versionNotReadable(coder: String, expected: Int?, found: Int?)

    /// The encoder renames keys, so the output could not be read back to check the version.
    case cannotCheckRenamedKeys(coder: String)

    /// A sentence that names the coder and what went wrong.
    public var description: String {
        switch self {
        case .coderDroppedFields(let coder, let paths):
            return "\(coder) dropped \(paths.joined(separator: ", ")) when the version was merged into the "
                + "object the type writes; keep the version at the root or leave that object to the version."
        case .versionNotReadable(let coder, let expected, let found):
            return "\(coder) wrote version \(expected.map(String.init) ?? "nil") where it reads back as "
                + "\(found.map(String.init) ?? "nil"); it cannot merge the version into an object the type writes."
        case .cannotCheckRenamedKeys(let coder):
            return
                "\(coder) renames keys, so a version nested inside an object cannot be checked after writing; "
                + "use the default key strategy or keep the version at the root."
        }
    }
}
