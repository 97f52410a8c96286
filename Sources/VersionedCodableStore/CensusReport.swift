/// What a ``DocumentCensus`` found: how many documents each version has, and which documents
/// this build cannot read or are newer than it.
public struct CensusReport<Key: Hashable & Sendable>: Sendable, CustomStringConvertible {
    /// Every document the census saw.
    public internal(set) var total = 0

    /// How many readable documents store each version of the chain; `nil` is documents
    /// written before versioning was adopted.
    public internal(set) var countsByVersion: [Int?: Int] = [:]

    /// Documents this build cannot read: a damaged version, a retired or unknown version, and,
    /// when the census decodes documents, any that does not decode.
    public internal(set) var unreadable: ProblemSample<Key>

    /// Documents written by a newer build than this one.
    public internal(set) var newer: ProblemSample<Key>

    /// The versions of this build's chain, oldest first.
    public let chainVersions: [Int?]

    /// How many documents whose stored version is known were counted with each version,
    /// readable or not, so that retiring a version also considers unreadable documents.
    var knownVersions: [Int?: Int] = [:]

    /// Makes an empty report, to add the censuses of parts of a store to.
    ///
    /// - Parameters:
    ///   - chainVersions: The versions of the chain the censuses were taken with, oldest first.
    ///   - sampleLimit: How many problem documents of each kind to keep; 0 or more.
    /// - Throws: ``StoreSettingError/outOfRange(setting:value:requirement:)`` when
    ///   `sampleLimit` is negative.
    public init(chainVersions: [Int?], sampleLimit: Int) throws {
        try StoreSettingError.check(sampleLimit, atLeast: 0, "sampleLimit")
        self.init(chainVersions: chainVersions, checkedSampleLimit: sampleLimit)
    }

    init(chainVersions: [Int?], checkedSampleLimit sampleLimit: Int) {
        self.chainVersions = chainVersions
        unreadable = ProblemSample(checkedLimit: sampleLimit)
        newer = ProblemSample(checkedLimit: sampleLimit)
    }

    /// Adds the counts and samples of another census, as when workers each count a part of a
    /// store.
    ///
    /// - Parameter other: A census taken with the same chain.
    /// - Throws: ``StoreSettingError/reportsDiffer(_:)`` when the censuses were taken with
    ///   chains of different versions.
    public mutating func add(_ other: CensusReport<Key>) throws {
        guard other.chainVersions == chainVersions else {
            throw StoreSettingError.reportsDiffer(
                "one census knows versions \(chainVersions.map(describe).joined(separator: ", ")), the other "
                    + other.chainVersions.map(describe).joined(separator: ", ")
            )
        }
        total += other.total
        countsByVersion.merge(other.countsByVersion, uniquingKeysWith: +)
        knownVersions.merge(other.knownVersions, uniquingKeysWith: +)
        unreadable.add(contentsOf: other.unreadable)
        newer.add(contentsOf: other.newer)
    }

    /// How many documents store a version older than `version`, whether this build reads them
    /// or not. Documents without a version count as older than any numbered version.
    ///
    /// - Parameter version: A version number.
    /// - Returns: The number of documents stored with `nil` or a version below `version`.
    public func documentsStored(below version: Int) -> Int {
        knownVersions.reduce(0) { sum, entry in
            entry.key.map { $0 < version } ?? true ? sum + entry.value : sum
        }
    }

    /// Whether the types of the versions below `version` may be deleted from the chain: no
    /// document the census saw is stored with such a version.
    ///
    /// Documents whose version could not be read at all do not count: no type of the chain
    /// reads them, so retiring types does not change what happens to them. They are in
    /// ``unreadable`` for a person to look at.
    ///
    /// <!-- snippet: store-census-retire -->
    /// ```swift
    /// let census = try await DocumentCensus(Bookmark.self, coder: JSONDocumentCoder()).take(of: store)
    /// if census.mayRetireVersions(below: 3) {
    ///     print("No bookmark is older than version 3: BookmarkV1 and BookmarkV2 can go.")
    /// }
    /// ```
    ///
    /// A census of an empty store answers `true`: nothing is stored below any version. Check
    /// ``total`` before acting on the answer where an empty store is more likely the wrong
    /// store than an empty one, as both example tools do.
    ///
    /// - Parameter version: The oldest version to keep.
    /// - Returns: `true` when no document is stored below `version`.
    public func mayRetireVersions(below version: Int) -> Bool {
        documentsStored(below: version) == 0
    }

    /// One line per version, oldest first, then the unreadable and newer documents with their
    /// samples.
    public var description: String {
        var lines: [String] = []
        let versions = Set(countsByVersion.keys).union(chainVersions)
        for version in versions.sorted(by: { ($0 ?? Int.min) < ($1 ?? Int.min) }) {
            let name = describe(version)
            lines.append(
                "  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(countsByVersion[version] ?? 0)"
            )
        }
        lines.append("  unreadable   \(unreadable.count)")
        lines.append("  newer        \(newer.count)")
        lines.append("  total        \(total)")
        for problem in unreadable.sample {
            lines.append("  unreadable \(problem)")
        }
        for problem in newer.sample {
            lines.append("  newer \(problem)")
        }
        return lines.joined(separator: "\n")
    }
}
