import VersionedCodable

/// What a fixture check decoded, for assertions beyond the issues it records.
///
/// <!-- snippet: summary-lookups -->
/// ```swift
/// let summary = fixtures.checkEveryFixtureDecodes()
/// #expect(summary["v1-no-ingredients.json"]?.servings == 2)
/// #expect(summary.storedVersions == [nil, 1, 2, 3])
/// ```
public struct FixtureDecodingSummary<Value: VersionedCodable> {
    /// Every fixture the check looked at, oldest version first.
    public internal(set) var fixtures: [VersionedFixture] = []

    /// The fixtures that decoded, with the migrated value and the version each stores.
    public internal(set) var decoded: [VersionedFixture: Versioned<Value>] = [:]

    /// The fixtures that could not be read or decoded, with the error.
    public internal(set) var failures: [VersionedFixture: any Error] = [:]

    /// How many test issues the check recorded: failures, fixtures whose stored version
    /// differs from their name, values that differ from the expected ones, and problems with
    /// the folder.
    public internal(set) var issueCount = 0

    /// Whether the check recorded no issue.
    public var passed: Bool { issueCount == 0 }

    /// The versions stored in the fixtures that decoded; `nil` stands for unversioned ones.
    public var storedVersions: Set<Int?> { Set(decoded.values.map(\.storedVersion)) }

    /// The migrated value of the fixture with this file name, or `nil` when there is no such
    /// fixture or it did not decode.
    ///
    /// - Parameter fileName: The fixture's file name, such as `v1.json`.
    public subscript(fileName: String) -> Value? {
        decoded.first { $0.key.fileName == fileName }?.value.wrappedValue
    }
}

extension FixtureDecodingSummary: Sendable where Value: Sendable {}
