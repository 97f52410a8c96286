import Foundation
import Testing
import VersionedCodableTesting

/// Runs `body` and returns the issues its checks report instead of letting them fail the test,
/// so a test can assert that a check fails, how often, where and with which message.
///
/// The issues go to a task-local collector rather than to Swift Testing, so a passing run
/// prints no "known issue" lines. The caller's expectations decide: a check that stops
/// reporting a problem returns no issue here, and the test's `#expect` fails. An issue
/// recorded in `body` in any other way still fails the test.
func issuesRecorded(by body: () throws -> Void) rethrows -> [CollectedIssue] {
    let collected = CollectedIssues()
    try IssueCollection.$collect.withValue({ collected.append($0) }) {
        try body()
    }
    return collected.issues
}

/// The text of an issue, for matching on the message.
func message(of issue: CollectedIssue) -> String {
    issue.message
}

private final class CollectedIssues: @unchecked Sendable {
    // Guarded by `lock`: the collector is `@Sendable` and may be called from any thread.
    private var stored: [CollectedIssue] = []
    private let lock = NSLock()

    func append(_ issue: CollectedIssue) {
        lock.withLock { stored.append(issue) }
    }

    var issues: [CollectedIssue] {
        lock.withLock { stored }
    }
}
