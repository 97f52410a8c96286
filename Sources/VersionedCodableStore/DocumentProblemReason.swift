/// Why a document was left as it is.
public enum DocumentProblemReason: Sendable, CustomStringConvertible {
    /// The version itself could not be read: the document is damaged or not of this type.
    case versionUnreadable(any Error)

    /// The document's version is older than the oldest type of the chain: the versions
    /// below `oldestReadable` were retired. `stored` is `nil` for a document written before
    /// versioning was adopted.
    case retiredVersion(stored: Int?, oldestReadable: Int?, oldestType: String)

    /// The document's version lies within the chain's range but no type of the chain has
    /// it.
    case unsupportedVersion(stored: Int?, supported: [Int?])

    /// The document has a version of the chain but does not decode: a field is damaged or
    /// a migration step refused it.
    case undecodable(stored: Int?, any Error)

    /// The document was written by a newer build than this one; it is never rewritten.
    case newer(stored: Int, newest: Int?)

    /// Encoded at the target version, the document would not read back as the same value,
    /// or could not be encoded at all: writing it would lose something.
    case wouldNotReadBack(stored: Int?, target: Int?, detail: String)

    /// A sentence that says what is wrong and what this build reads.
    public var description: String {
        switch self {
        case .versionUnreadable(let error):
            return "the version cannot be read: \(error)"
        case .retiredVersion(let stored, let oldest, let oldestType):
            return (stored == nil ? "unversioned documents were" : "\(named(stored)) was")
                + " retired: the oldest this build reads is \(named(oldest)) (\(oldestType))"
        case .unsupportedVersion(let stored, let supported):
            return "\(named(stored)) is not in the chain; this build reads "
                + supported.map(named).joined(separator: ", ")
        case .undecodable(let stored, let error):
            return "stored as \(named(stored)) but does not decode: \(error)"
        case .newer(let stored, let newest):
            return "version \(stored) is newer than this build, whose newest is \(named(newest))"
        case .wouldNotReadBack(let stored, let target, let detail):
            return "stored as \(named(stored)), cannot be written as \(named(target)) without losing something: "
                + detail
        }
    }

    /// Whether the document was written by a newer build.
    var isNewer: Bool {
        if case .newer = self { return true }
        return false
    }

    /// The version the document stores, when it could be read: `.some(nil)` for a
    /// document without a version, `nil` when the version is unknown.
    var storedVersion: Int?? {
        switch self {
        case .versionUnreadable: return nil
        case .retiredVersion(let stored, _, _), .unsupportedVersion(let stored, _),
            .undecodable(let stored, _), .wouldNotReadBack(let stored, _, _):
            return .some(stored)
        case .newer(let stored, _): return .some(stored)
        }
    }
}

/// A version as the reports and checkpoint names print it: `v3`, or `unversioned` for a
/// document written before versioning.
func describe(_ version: Int?) -> String {
    version.map { "v\($0)" } ?? "unversioned"
}

/// A version as a sentence names it: `version 3`, or `unversioned`.
func named(_ version: Int?) -> String {
    version.map { "version \($0)" } ?? "unversioned"
}
