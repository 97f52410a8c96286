/// How far a run has come, recorded by the store with each page's writes.
///
/// A run that stops, by a crash or on purpose, starts again after ``position``. A run that
/// reached the end records ``isFinished``, so that the next run under the same name starts a
/// new pass from the first document.
public struct UpgradeCheckpoint<Key: Hashable & Sendable>: Sendable, Hashable {
    /// The run's name: runs under different names keep different checkpoints, for example one
    /// per worker or per key range.
    public var name: String

    /// The last key whose page was committed, or `nil` before the first page.
    public var position: Key?

    /// Whether the run went through every document.
    public var isFinished: Bool

    /// Makes a checkpoint.
    ///
    /// - Parameters:
    ///   - name: The run's name.
    ///   - position: The last key whose page was committed.
    ///   - isFinished: Whether the run went through every document.
    public init(name: String, position: Key?, isFinished: Bool) {
        self.name = name
        self.position = position
        self.isFinished = isFinished
    }
}
