import Foundation
import Testing

/// A version as messages show it: a number, or `nil` for a document without one.
func describe(_ version: Int?) -> String {
    version.map(String.init) ?? "nil"
}

/// Records a test issue whose message is built at run time; `Issue.record` takes a `Comment`,
/// which only string literals become on their own. Inside an ``IssueCollection`` the issue
/// goes to the collector instead.
///
/// A warning is a Swift Testing issue of severity `.warning` from Swift 6.3 on. Swift 6.2's
/// Swift Testing has no severity, and any issue it records fails the test, so there a
/// warning is printed to standard error with its location and the test goes on passing.
func recordIssue(
    _ message: String,
    severity: FixtureIssueSeverity = .error,
    at sourceLocation: SourceLocation
) {
    if let collect = IssueCollection.collect {
        collect(CollectedIssue(message: message, severity: severity, sourceLocation: sourceLocation))
        return
    }
    #if compiler(>=6.3)
        let testingSeverity: Issue.Severity = severity == .error ? .error : .warning
        Issue.record(Comment(rawValue: message), severity: testingSeverity, sourceLocation: sourceLocation)
    #else
        switch severity {
        case .error:
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        case .warning:
            let line = "\(sourceLocation.fileID):\(sourceLocation.line): warning: \(message)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    #endif
}
