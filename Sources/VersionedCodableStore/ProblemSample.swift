/// How many documents had one kind of problem, and the first few of them.
///
/// A store may hold millions of damaged documents; a report keeps every count but only a
/// bounded sample, so that its size depends on the settings and not on the store.
public struct ProblemSample<Key: Hashable & Sendable>: Sendable {
    /// How many documents had the problem.
    public private(set) var count = 0

    /// The first ``limit`` of them, in the order they were found.
    public private(set) var sample: [DocumentProblem<Key>] = []

    /// The most problems kept in ``sample``.
    public let limit: Int

    /// Makes an empty sample.
    ///
    /// - Parameter limit: The most problems to keep; 0 keeps only the count.
    /// - Throws: ``StoreSettingError/outOfRange(setting:value:requirement:)`` when `limit` is
    ///   negative.
    public init(limit: Int) throws {
        try StoreSettingError.check(limit, atLeast: 0, "sampleLimit")
        self.limit = limit
    }

    /// Made from a limit already checked.
    init(checkedLimit limit: Int) {
        self.limit = limit
    }

    /// Counts a problem, and keeps it while the sample has room.
    ///
    /// - Parameter problem: The problem found.
    public mutating func add(_ problem: DocumentProblem<Key>) {
        count += 1
        if sample.count < limit {
            sample.append(problem)
        }
    }

    /// Counts the problems of another sample, as when the reports of several workers are
    /// added up, and keeps those of its sample that still fit in this one.
    ///
    /// - Parameter other: The other sample.
    public mutating func add(contentsOf other: ProblemSample<Key>) {
        count += other.count
        sample += other.sample.prefix(max(0, limit - sample.count))
    }

    /// Whether no document had the problem.
    public var isEmpty: Bool { count == 0 }
}
