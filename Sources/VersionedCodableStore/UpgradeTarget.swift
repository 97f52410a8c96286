import VersionedCodable

/// The version an upgrade writes: the type's current version, a numbered version of its
/// chain, or the unversioned form written before versioning was adopted.
///
/// Each case says what it means, so that "the current version" is never confused with
/// "no version":
///
/// <!-- snippet: store-targets -->
/// ```swift
/// let current = try DocumentUpgrade(Bookmark.self, to: .current, coder: JSONDocumentCoder())
/// let second = try DocumentUpgrade(Bookmark.self, to: .version(2), coder: JSONDocumentCoder())
/// ```
public enum UpgradeTarget: Sendable, Hashable, CustomStringConvertible {
    /// The version of the type the upgrade is made with.
    case current

    /// A numbered version of the type's chain.
    case version(Int)

    /// Documents without a version, as written before versioning was adopted; only a chain
    /// whose oldest type has no version has it.
    case unversioned

    /// The version number this target stands for in the chain of `Value`.
    func version<Value: VersionedCodable>(of type: Value.Type) -> Int? {
        switch self {
        case .current: return Value.version
        case .version(let number): return number
        case .unversioned: return nil
        }
    }

    /// `current`, `v2` or `unversioned`.
    public var description: String {
        switch self {
        case .current: return "current"
        case .version(let number): return "v\(number)"
        case .unversioned: return "unversioned"
        }
    }
}
