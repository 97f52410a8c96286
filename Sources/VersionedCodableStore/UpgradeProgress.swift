import Foundation

/// How far a running upgrade has come, reported after each page.
///
/// Its ``description`` is a progress bar with the counts, ready to print:
///
/// ```
/// [#########.....................]  30%  15000/50002  upgraded 11264  conflicts 0  20036 documents/s  2 s left
/// ```
public struct UpgradeProgress: Sendable, Hashable, CustomStringConvertible {
    /// Documents examined by this run so far.
    public var done: Int

    /// Documents after the run's position, as the store counted them when the run started,
    /// less those examined since; documents the service adds meanwhile are not foreseen.
    /// `nil` when the run was set not to count (``UpgradeSettings/countsRemainingDocuments``),
    /// until the last report, which has 0.
    public var remaining: Int?

    /// Whether the run is a dry run, which upgrades nothing but counts what it would.
    public var isDryRun: Bool

    /// Documents upgraded (or, in a dry run, that would be) by this run so far.
    public var upgraded: Int

    /// Writes retried because the service changed the document after it was read.
    public var conflictsRetried: Int

    /// Documents examined per second since the run started.
    public var documentsPerSecond: Double

    /// Seconds since the run started.
    public var elapsedSeconds: Double

    /// The fraction of the run done, from 0 to 1, or `nil` when the remaining documents were
    /// not counted.
    public var fractionDone: Double? {
        guard let remaining else { return nil }
        let total = done + remaining
        return total == 0 ? 1 : Double(done) / Double(total)
    }

    /// Seconds left at the rate so far, or `nil` before the rate is known or when the
    /// remaining documents were not counted.
    public var estimatedSecondsLeft: Double? {
        guard let remaining, documentsPerSecond > 0 else { return nil }
        return Double(remaining) / documentsPerSecond
    }

    /// Makes a progress report.
    ///
    /// - Parameters:
    ///   - done: Documents examined so far.
    ///   - remaining: Documents still to examine, or `nil` when not counted.
    ///   - upgraded: Documents upgraded so far.
    ///   - conflictsRetried: Writes retried after the service changed the document.
    ///   - documentsPerSecond: The rate so far.
    ///   - elapsedSeconds: Seconds since the run started.
    ///   - isDryRun: Whether the run is a dry run.
    public init(
        done: Int,
        remaining: Int?,
        upgraded: Int,
        conflictsRetried: Int,
        documentsPerSecond: Double,
        elapsedSeconds: Double,
        isDryRun: Bool = false
    ) {
        self.done = done
        self.remaining = remaining
        self.upgraded = upgraded
        self.conflictsRetried = conflictsRetried
        self.documentsPerSecond = documentsPerSecond
        self.elapsedSeconds = elapsedSeconds
        self.isDryRun = isDryRun
    }

    /// A bar of 30 characters, the percentage, the counts, the rate and the time left; without
    /// a count of the remaining documents, the counts and the rate alone.
    public var description: String {
        let verb = isDryRun ? "would upgrade" : "upgraded"
        let counts =
            "\(verb) \(upgraded)  conflicts \(conflictsRetried)  \(Int(documentsPerSecond.rounded())) documents/s"
        guard let remaining, let fractionDone else {
            return "\(done) examined  \(counts)"
        }
        let width = 30
        let filled = min(width, Int((fractionDone * Double(width)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = Int((fractionDone * 100).rounded(.down))
        let left = estimatedSecondsLeft.map { "\(Int($0.rounded(.up))) s left" } ?? "time left unknown"
        return "[\(bar)] \(String(repeating: " ", count: 3 - min(3, String(percent).count)))\(percent)%  "
            + "\(done)/\(done + remaining)  \(counts)  \(left)"
    }
}
