import Testing

/// An issue that a check reported while ``IssueCollection/collect`` was set.
package struct CollectedIssue: Sendable {
    /// What the check said.
    package let message: String

    /// `.error` for a failure, `.warning` for news that does not fail the test.
    package let severity: FixtureIssueSeverity

    /// The caller's line, where the issue would have been recorded.
    package let sourceLocation: SourceLocation

    /// Whether the issue would have failed the test.
    package var isFailure: Bool { severity == .error }
}

/// Lets this package's own tests take the issues the checks report, instead of recording them
/// with Swift Testing.
///
/// The tests of the checks make them fail on purpose. Catching the recorded issues with
/// `withKnownIssue` would print a "known issue" line for each one on every passing run, which
/// reads like a failure; collecting them keeps the run quiet while the tests still assert
/// each issue's message, severity and location. The collector is task-local, so tests that
/// run in parallel never see each other's issues, and a check called outside a collector
/// records its issues as usual.
package enum IssueCollection {
    /// Receives the issues of checks called in its scope, in place of `Issue.record`.
    @TaskLocal package static var collect: (@Sendable (CollectedIssue) -> Void)?
}

/// Whether a check's issue fails the test. Swift Testing's own `Issue.Severity` is new in
/// Swift 6.3; this one lets the checks say the same thing on Swift 6.2, the package's floor.
package enum FixtureIssueSeverity: Sendable {
    /// A failure: the test fails.
    case error
    /// News that does not fail the test, such as a fixture that record mode wrote.
    case warning
}
