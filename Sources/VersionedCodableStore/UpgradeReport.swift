/// What a ``DocumentUpgrade`` run did, or in a dry run would do.
///
/// Every examined document is in exactly one of ``upgraded``, ``alreadyAtTarget``,
/// ``unreadable``, ``newer``, ``notWritableAtTarget`` and ``gone``. Workers that share a store
/// under checkpoint names of their own each return a report; ``add(_:)`` adds them up.
public struct UpgradeReport<Key: Hashable & Sendable>: Sendable, CustomStringConvertible {
    /// The version documents were upgraded to; `nil` is the unversioned form.
    public let targetVersion: Int?

    /// Whether the run wrote nothing.
    public let isDryRun: Bool

    /// Whether the run started after the checkpoint of a run that had stopped.
    public var resumed = false

    /// Documents the run looked at.
    public var examined = 0

    /// Documents written at the target version (in a dry run, that would be).
    public var upgraded = 0

    /// How many of the upgraded documents were stored with each version before.
    public var upgradedFrom: [Int?: Int] = [:]

    /// Documents already at the target version or a later one of the chain, left as they are.
    public var alreadyAtTarget = 0

    /// Documents this build cannot read (a damaged one is counted here even when its version
    /// is at the target), left byte for byte.
    public var unreadable: ProblemSample<Key>

    /// Documents written by a newer build, left byte for byte.
    public var newer: ProblemSample<Key>

    /// Documents this build reads but cannot write at the target without losing something
    /// (a downgrade step refused the value, or it would not read back unchanged), left byte
    /// for byte.
    public var notWritableAtTarget: ProblemSample<Key>

    /// Documents the service deleted between the run's read and its write.
    public var gone = 0

    /// Writes that found the document changed by someone else since it was read: each was
    /// read again and migrated from what the other writer left.
    public var conflictsRetried = 0

    /// Pages committed (in a dry run, read).
    public var batches = 0

    /// Makes an empty report, to add the reports of several workers to.
    ///
    /// <!-- snippet: store-reports-add-up -->
    /// ```swift
    /// var total = try UpgradeReport<String>(targetVersion: 3, isDryRun: false, sampleLimit: 20)
    /// for report in reportsOfEachWorker {
    ///     try total.add(report)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - targetVersion: The version the runs wrote.
    ///   - isDryRun: Whether the runs were dry runs.
    ///   - sampleLimit: How many problem documents of each kind to keep; 0 or more.
    /// - Throws: ``StoreSettingError/outOfRange(setting:value:requirement:)`` when
    ///   `sampleLimit` is negative.
    public init(targetVersion: Int?, isDryRun: Bool, sampleLimit: Int) throws {
        try StoreSettingError.check(sampleLimit, atLeast: 0, "sampleLimit")
        self.init(targetVersion: targetVersion, isDryRun: isDryRun, checkedSampleLimit: sampleLimit)
    }

    init(targetVersion: Int?, isDryRun: Bool, checkedSampleLimit sampleLimit: Int) {
        self.targetVersion = targetVersion
        self.isDryRun = isDryRun
        unreadable = ProblemSample(checkedLimit: sampleLimit)
        newer = ProblemSample(checkedLimit: sampleLimit)
        notWritableAtTarget = ProblemSample(checkedLimit: sampleLimit)
    }

    /// Documents below the target that the run left there: the unreadable ones and those that
    /// cannot be written at the target. Zero when the store holds nothing below the target
    /// that this build could have moved.
    public var leftBehind: Int { unreadable.count + notWritableAtTarget.count }

    /// Adds the counts and samples of another run's report to this one, as for workers that
    /// upgrade parts of one store.
    ///
    /// - Parameter other: The report of a run to the same target, real or dry as this one.
    /// - Throws: ``StoreSettingError/reportsDiffer(_:)`` when the runs had different targets,
    ///   or one was a dry run and the other not.
    public mutating func add(_ other: UpgradeReport<Key>) throws {
        guard other.targetVersion == targetVersion else {
            throw StoreSettingError.reportsDiffer(
                "one upgraded to \(describe(targetVersion)), the other to \(describe(other.targetVersion))"
            )
        }
        guard other.isDryRun == isDryRun else {
            throw StoreSettingError.reportsDiffer("one is a dry run and the other is not")
        }
        resumed = resumed || other.resumed
        examined += other.examined
        upgraded += other.upgraded
        upgradedFrom.merge(other.upgradedFrom, uniquingKeysWith: +)
        alreadyAtTarget += other.alreadyAtTarget
        unreadable.add(contentsOf: other.unreadable)
        newer.add(contentsOf: other.newer)
        notWritableAtTarget.add(contentsOf: other.notWritableAtTarget)
        gone += other.gone
        conflictsRetried += other.conflictsRetried
        batches += other.batches
    }

    /// A summary line, then the samples of documents left as they were.
    public var description: String {
        let verb = isDryRun ? "would upgrade" : "upgraded"
        let from = upgradedFrom.keys.sorted { ($0 ?? Int.min) < ($1 ?? Int.min) }
            .map { "\(describe($0))×\(upgradedFrom[$0] ?? 0)" }.joined(separator: " ")
        var lines = [
            "examined \(examined), \(verb) \(upgraded) to \(describe(targetVersion))"
                + (from.isEmpty ? "" : " (from \(from))")
                + ", \(alreadyAtTarget) already there, \(unreadable.count) unreadable kept, "
                + "\(newer.count) newer kept, \(notWritableAtTarget.count) not writable at the target kept, "
                + "\(gone) gone, \(conflictsRetried) conflicts retried, \(batches) batches"
                + (resumed ? ", resumed from a checkpoint" : "")
        ]
        lines += unreadable.sample.map { "  unreadable \($0)" }
        lines += newer.sample.map { "  newer \($0)" }
        lines += notWritableAtTarget.sample.map { "  not writable \($0)" }
        return lines.joined(separator: "\n")
    }
}
