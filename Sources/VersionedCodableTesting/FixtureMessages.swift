import Testing

/// A version as messages show it: a number, or `nil` for a document without one.
func describe(_ version: Int?) -> String {
    version.map(String.init) ?? "nil"
}

/// Records a test issue whose message is built at run time; `Issue.record` takes a `Comment`,
/// which only string literals become on their own. Inside an ``IssueCollection`` the issue
/// goes to the collector instead.
func recordIssue(_ message: String, severity: Issue.Severity = .error, at sourceLocation: SourceLocation) {
    if let collect = IssueCollection.collect {
        collect(CollectedIssue(message: message, severity: severity, sourceLocation: sourceLocation))
        return
    }
    Issue.record(Comment(rawValue: message), severity: severity, sourceLocation: sourceLocation)
}
