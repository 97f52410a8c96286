/// A document that a census or an upgrade left as it is, and why.
public struct DocumentProblem<Key: Hashable & Sendable>: Sendable, CustomStringConvertible {
    /// The document's key.
    public let key: Key

    /// Why the document was left as it is.
    public let reason: DocumentProblemReason

    /// Makes a problem report.
    ///
    /// - Parameters:
    ///   - key: The document's key.
    ///   - reason: Why the document was left as it is.
    public init(key: Key, reason: DocumentProblemReason) {
        self.key = key
        self.reason = reason
    }

    /// The key and the reason, on one line.
    public var description: String { "\(key): \(reason)" }
}
