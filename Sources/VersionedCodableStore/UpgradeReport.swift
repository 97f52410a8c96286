/// What a ``DocumentUpgrade`` run did, or in a dry run would do.
public struct UpgradeReport<Key: Hashable & Sendable>: Sendable, CustomStringConvertible {
    /// The version documents were upgraded to.
    public let targetVersion: Int?

    /// Whether the run wrote nothing.
    public let isDryRun: Bool

    /// Whether the run started after the checkpoint of a run that had stopped.
    public internal(set) var resumed = false

    /// Documents the run looked at.
    public internal(set) var examined = 0

    /// Documents written at the target version (in a dry run, that would be).
    public internal(set) var upgraded = 0

    /// How many of the upgraded documents were stored with each version before.
    public internal(set) var upgradedFrom: [Int?: Int] = [:]

    /// Documents already at the target version or a later one of the chain, left as they are.
    public internal(set) var alreadyAtTarget = 0

    /// Documents this build cannot read (a damaged one is counted here even when its version
    /// is at the target), or that would not read back unchanged at the target, left byte for
    /// byte.
    public internal(set) var unreadable: ProblemSample<Key>

    /// Documents written by a newer build, left byte for byte.
    public internal(set) var newer: ProblemSample<Key>

    /// Writes that found the document changed by someone else since it was read: each was
    /// read again and migrated from what the other writer left.
    public internal(set) var conflictsRetried = 0

    /// Pages committed (in a dry run, read).
    public internal(set) var batches = 0

    init(targetVersion: Int?, isDryRun: Bool, sampleLimit: Int) {
        self.targetVersion = targetVersion
        self.isDryRun = isDryRun
        unreadable = ProblemSample(limit: sampleLimit)
        newer = ProblemSample(limit: sampleLimit)
    }

    /// A summary line, then the samples of documents left as they were.
    public var description: String {
        let verb = isDryRun ? "would upgrade" : "upgraded"
        let from = upgradedFrom.keys.sorted { ($0 ?? Int.min) < ($1 ?? Int.min) }
            .map { "\($0.map { "v\($0)" } ?? "unversioned")×\(upgradedFrom[$0] ?? 0)" }.joined(separator: " ")
        var lines = [
            "examined \(examined), \(verb) \(upgraded) to v\(describe(targetVersion))"
                + (from.isEmpty ? "" : " (from \(from))")
                + ", \(alreadyAtTarget) already there, \(unreadable.count) unreadable kept, "
                + "\(newer.count) newer kept, \(conflictsRetried) conflicts retried, \(batches) batches"
                + (resumed ? ", resumed from a checkpoint" : "")
        ]
        lines += unreadable.sample.map { "  unreadable \($0)" }
        lines += newer.sample.map { "  newer \($0)" }
        return lines.joined(separator: "\n")
    }
}
