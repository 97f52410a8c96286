import Testing

/// A version as messages show it: a number, or `nil` for a document without one.
func describe(_ version: Int?) -> String {
    version.map(String.init) ?? "nil"
}

/// Records a test issue whose message is built at run time; `Issue.record` takes a `Comment`,
/// which only string literals become on their own.
func recordIssue(_ message: String, severity: Issue.Severity = .error, at sourceLocation: SourceLocation) {
    Issue.record(Comment(rawValue: message), severity: severity, sourceLocation: sourceLocation)
}
