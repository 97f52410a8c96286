/// Why an upgrade could not start or could not go on.
///
/// What was committed before the error stays committed; a new run resumes from the last
/// checkpoint.
public enum UpgradeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target version is not a version of the type's chain.
    case targetNotInChain(Int?, chain: [Int?])

    /// These documents changed between every read and write of a page, as many times as the
    /// settings allow; their keys are given as text.
    case documentsKeptChanging([String])

    /// A sentence naming the version or the documents.
    public var description: String {
        switch self {
        case .targetNotInChain(let target, let chain):
            return "Version \(describe(target)) is not in the chain, whose versions are "
                + chain.map(describe).joined(separator: ", ") + "."
        case .documentsKeptChanging(let keys):
            return "The documents \(keys.joined(separator: ", ")) changed every time they were about to be written; "
                + "run the upgrade again, when they are written less often."
        }
    }
}
