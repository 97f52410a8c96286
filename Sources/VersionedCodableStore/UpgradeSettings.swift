/// How a ``DocumentUpgrade`` paces and records its run.
///
/// Every setting is checked, when the settings are made and again when an upgrade is made
/// with them: a value outside its range is refused with ``StoreSettingError``, never rounded
/// to the nearest one that works.
public struct UpgradeSettings: Sendable, Hashable {
    /// How many documents each page reads, and so at most how many each transaction writes;
    /// at least 1.
    public var batchSize: Int

    /// Seconds to wait between two pages, to leave the store's capacity to the service; a
    /// finite number, 0 or more.
    public var pauseBetweenBatches: Double

    /// Whether to write nothing, documents or checkpoint, and only report what a run would do.
    public var isDryRun: Bool

    /// The name the run's checkpoint is kept under, followed by the target version: runs that
    /// share the store side by side (one per worker or key range) need names of their own.
    public var checkpointName: String

    /// How many problem documents of each kind the report keeps; 0 keeps only the counts.
    public var sampleLimit: Int

    /// How many times a page is committed again after documents in it changed, before the run
    /// stops with ``UpgradeError/documentsKeptChanging(_:)``; at least 1.
    public var maximumAttempts: Int

    /// Whether a run with a progress callback first counts the documents it will examine, so
    /// that its progress reports say how many remain. Counting is a full pass over the keys on
    /// many databases: turn it off for a large store, and the reports leave
    /// ``UpgradeProgress/remaining`` unknown until the last one. A run without a progress
    /// callback never counts.
    public var countsRemainingDocuments: Bool

    /// Makes settings; the defaults suit a store that serves traffic at the same time.
    ///
    /// - Parameters:
    ///   - batchSize: Documents per page and transaction; at least 1.
    ///   - pauseBetweenBatches: Seconds to wait between pages; finite, 0 or more.
    ///   - isDryRun: Whether to write nothing.
    ///   - checkpointName: The name of the run's checkpoint.
    ///   - sampleLimit: Problem documents of each kind kept in the report; 0 or more.
    ///   - maximumAttempts: Commits of one page before giving up on documents that keep
    ///     changing; at least 1.
    ///   - countsRemainingDocuments: Whether progress reports say how many documents remain.
    /// - Throws: ``StoreSettingError/outOfRange(setting:value:requirement:)`` naming the first
    ///   setting out of its range.
    public init(
        batchSize: Int = 500,
        pauseBetweenBatches: Double = 0,
        isDryRun: Bool = false,
        checkpointName: String = "upgrade",
        sampleLimit: Int = 20,
        maximumAttempts: Int = 20,
        countsRemainingDocuments: Bool = true
    ) throws {
        self.init(
            checkedLater: batchSize,
            pauseBetweenBatches,
            isDryRun,
            checkpointName,
            sampleLimit,
            maximumAttempts,
            countsRemainingDocuments
        )
        try validate()
    }

    /// The defaults: pages of 500, no pause, a real run under the name `upgrade`.
    public static let defaults = UpgradeSettings(checkedLater: 500, 0, false, "upgrade", 20, 20, true)

    private init(
        checkedLater batchSize: Int,
        _ pauseBetweenBatches: Double,
        _ isDryRun: Bool,
        _ checkpointName: String,
        _ sampleLimit: Int,
        _ maximumAttempts: Int,
        _ countsRemainingDocuments: Bool
    ) {
        self.batchSize = batchSize
        self.pauseBetweenBatches = pauseBetweenBatches
        self.isDryRun = isDryRun
        self.checkpointName = checkpointName
        self.sampleLimit = sampleLimit
        self.maximumAttempts = maximumAttempts
        self.countsRemainingDocuments = countsRemainingDocuments
    }

    /// Refuses settings out of their range; the settings' properties can be changed after
    /// they are made, so an upgrade checks them again.
    func validate() throws {
        try StoreSettingError.check(batchSize, atLeast: 1, "batchSize")
        try StoreSettingError.check(seconds: pauseBetweenBatches, "pauseBetweenBatches")
        try StoreSettingError.check(sampleLimit, atLeast: 0, "sampleLimit")
        try StoreSettingError.check(maximumAttempts, atLeast: 1, "maximumAttempts")
    }
}
