/// Why an upgrade could not start or could not go on.
///
/// What was committed before the error stays committed; a new run resumes from the last
/// checkpoint.
public enum UpgradeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target version is not a version of the type's chain.
    case targetNotInChain(Int?, chain: [Int?])

    /// The chain cannot write any document at the target: the named type has no
    /// `downgraded()` step to the version below it. Found before the first page is committed.
    case targetUnreachable(Int?, type: String, reason: String)

    /// These documents changed between every read and write of a page, as many times as the
    /// settings allow; their keys are given as text.
    case documentsKeptChanging([String])

    /// A sentence naming the version or the documents.
    public var description: String {
        switch self {
        case .targetNotInChain(let target, let chain):
            return "\(named(target).capitalizingFirst) is not in the chain, whose versions are "
                + chain.map(describe).joined(separator: ", ") + "."
        case .targetUnreachable(let target, let type, let reason):
            return "No document can be written as \(named(target)): \(type) has no downgraded() step towards it "
                + "(\(reason)). Add the step, or upgrade to a version the chain can write."
        case .documentsKeptChanging(let keys):
            return "The documents \(keys.joined(separator: ", ")) changed every time they were about to be written; "
                + "run the upgrade again, when they are written less often."
        }
    }
}

extension String {
    fileprivate var capitalizingFirst: String { prefix(1).uppercased() + dropFirst() }
}
