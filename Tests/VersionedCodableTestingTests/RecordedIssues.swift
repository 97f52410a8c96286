import Foundation
import Testing

/// Runs `body` and returns the issues it records instead of letting them fail the test, so a
/// test can assert that a check fails, how often, where and with which message.
///
/// The issues are caught as known issues; `isIntermittent` keeps a body that records none from
/// failing here, so that the caller's own expectations decide.
func issuesRecorded(by body: () throws -> Void) rethrows -> [Issue] {
    let collected = CollectedIssues()
    try withKnownIssue(isIntermittent: true) {
        try body()
    } matching: { issue in
        collected.append(issue)
        return true
    }
    return collected.issues
}

/// The text of an issue's comments, for matching on the message.
func message(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}

private final class CollectedIssues: @unchecked Sendable {
    // Guarded by `lock`: the matcher is `@Sendable` and may be called from any thread.
    private var stored: [Issue] = []
    private let lock = NSLock()

    func append(_ issue: Issue) {
        lock.withLock { stored.append(issue) }
    }

    var issues: [Issue] {
        lock.withLock { stored }
    }
}
