/// A place where a document breaks its schema.
public struct SchemaViolation: Hashable, Sendable, CustomStringConvertible {
    /// Where in the document: `$` for the root, then `.key` and `[index]`, as in
    /// `$.author.name` or `$.stanzas[1][0]`.
    public let path: String
    /// What is wrong there.
    public let message: String

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - path: Where in the document, starting with `$`.
    ///   - message: What is wrong there.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// The path and the message: `$.stars: expected integer, found string "five"`.
    public var description: String { "\(path): \(message)" }
}
