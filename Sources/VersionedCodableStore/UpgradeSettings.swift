/// How a ``DocumentUpgrade`` paces and records its run.
public struct UpgradeSettings: Sendable, Hashable {
    /// How many documents each page reads, and so at most how many each transaction writes.
    public var batchSize: Int

    /// Seconds to wait between two pages, to leave the store's capacity to the service.
    public var pauseBetweenBatches: Double

    /// Whether to write nothing, documents or checkpoint, and only report what a run would do.
    public var isDryRun: Bool

    /// The name the run's checkpoint is kept under, followed by the target version: runs that
    /// share the store side by side (one per worker or key range) need names of their own.
    public var checkpointName: String

    /// How many problem documents of each kind the report keeps.
    public var sampleLimit: Int

    /// How many times a page is committed again after documents in it changed, before the run
    /// stops with ``UpgradeError/documentsKeptChanging(_:)``.
    public var maximumAttempts: Int

    /// Makes settings; the defaults suit a store that serves traffic at the same time.
    ///
    /// - Parameters:
    ///   - batchSize: Documents per page and transaction; at least 1.
    ///   - pauseBetweenBatches: Seconds to wait between pages.
    ///   - isDryRun: Whether to write nothing.
    ///   - checkpointName: The name of the run's checkpoint.
    ///   - sampleLimit: Problem documents of each kind kept in the report.
    ///   - maximumAttempts: Commits of one page before giving up on documents that keep changing.
    public init(
        batchSize: Int = 500,
        pauseBetweenBatches: Double = 0,
        isDryRun: Bool = false,
        checkpointName: String = "upgrade",
        sampleLimit: Int = 20,
        maximumAttempts: Int = 20
    ) {
        self.batchSize = max(1, batchSize)
        self.pauseBetweenBatches = max(0, pauseBetweenBatches)
        self.isDryRun = isDryRun
        self.checkpointName = checkpointName
        self.sampleLimit = max(0, sampleLimit)
        self.maximumAttempts = max(1, maximumAttempts)
    }
}
