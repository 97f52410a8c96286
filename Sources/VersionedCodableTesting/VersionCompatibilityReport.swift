/// What a compatibility check found, beyond the issues it records: which versions it wrote,
/// and what writing a sample as a version that may lose data did lose.
///
/// <!-- snippet: compatibility-report -->
/// ```swift
/// let report = VersionedFixtures(EstimatedTicket.self, bundle: .module)
///     .checkCompatibility(.fullTransitive, samples: [.sample])
/// #expect(report.checkedVersions == [2, 1])
/// #expect(report.losses.map { $0.differences } == [["estimate: 3 → absent"], ["estimate: 3 → absent"]])
/// ```
public struct VersionCompatibilityReport: Sendable, CustomStringConvertible {
    /// What a sample lost on its way through an older version that is not declared lossless.
    public struct Loss: Sendable, Hashable, CustomStringConvertible {
        /// The older version the sample was written as.
        public let version: Int?

        /// The sample's position in the list the check was given.
        public let sampleIndex: Int

        /// Each field that came back different, as `path: before → after` with JSON values.
        public let differences: [String]

        /// `version 1, sample 0: tags: ["a"] → []`.
        public var description: String {
            "version \(describe(version)), sample \(sampleIndex): " + differences.joined(separator: "; ")
        }
    }

    /// The older versions the check wrote the samples as, newest first.
    public internal(set) var checkedVersions: [Int?] = []

    /// What the samples lost through versions that are not declared lossless; empty when they
    /// came back equal.
    public internal(set) var losses: [Loss] = []

    /// How many test issues the check recorded.
    public internal(set) var issueCount = 0

    /// Whether the check recorded no issue.
    public var passed: Bool { issueCount == 0 }

    /// One line per loss, or that nothing was lost.
    public var description: String {
        let versions = checkedVersions.map(describe).joined(separator: ", ")
        guard !losses.isEmpty else {
            return "Checked versions \(versions): nothing lost."
        }
        return "Checked versions \(versions); lost:\n" + losses.map(\.description).joined(separator: "\n")
    }
}
