import Foundation
import Testing
import VersionedCodable

extension VersionedFixtures {
    /// Decodes every fixture into the current type and records a test issue for each that
    /// fails.
    ///
    /// Each fixture is decoded with the versioned decode, so it is migrated from the version
    /// it stores. An issue, at the caller's source location, names the file, the version the
    /// document stores and the error. A fixture whose stored version differs from the version
    /// in its name is an issue too, because it would make
    /// ``checkEveryVersionHasFixture(recordingFrom:sourceLocation:)`` count the wrong version.
    ///
    /// <!-- snippet: decoding-check -->
    /// ```swift
    /// @Test("Every stored recipe decodes")
    /// func storedRecipesDecode() {
    ///     VersionedFixtures(Recipe.self, bundle: .module).checkEveryFixtureDecodes()
    /// }
    /// ```
    ///
    /// - Parameter sourceLocation: Where issues are reported; leave the default.
    /// - Returns: What decoded, for further assertions.
    @discardableResult
    public func checkEveryFixtureDecodes(
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> FixtureDecodingSummary<Value> {
        checkAll(at: sourceLocation) { _, _ in nil }
    }

    /// Checks that a single fixture decodes, for a parameterized test over ``all()``.
    ///
    /// <!-- snippet: check-decodes -->
    /// ```swift
    /// @Test("A stored recipe decodes", arguments: try fixtures.all())
    /// func storedRecipeDecodes(_ fixture: VersionedFixture) {
    ///     Self.fixtures.checkDecodes(fixture)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - fixture: The fixture to decode.
    ///   - sourceLocation: Where issues are reported; leave the default.
    /// - Returns: The migrated value and its stored version, or `nil` when it did not decode.
    @discardableResult
    public func checkDecodes(
        _ fixture: VersionedFixture,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Versioned<Value>? {
        var summary = FixtureDecodingSummary<Value>()
        check(fixture, into: &summary, at: sourceLocation) { _, _ in nil }
        return summary.decoded[fixture]
    }

    /// Decodes a fixture, records the issues of ``checkEveryFixtureDecodes(sourceLocation:)``
    /// and where it differs from the expected value, and returns what it read.
    func check(
        _ fixture: VersionedFixture,
        into summary: inout FixtureDecodingSummary<Value>,
        at sourceLocation: SourceLocation,
        mismatch: (VersionedFixture, Value) -> String?
    ) {
        summary.fixtures.append(fixture)
        let prefix = "\(Self.folderName) fixture \(fixture.fileName)"
        let read: Versioned<Value>
        do {
            read = try decode(fixture)
        } catch {
            summary.failures[fixture] = error
            record(
                "\(prefix) (\(describeStoredVersion(of: fixture))) no longer decodes: \(error)",
                in: &summary,
                at: sourceLocation
            )
            return
        }
        summary.decoded[fixture] = read
        if read.storedVersion != fixture.version {
            let rightName = VersionedFixture.fileName(
                forVersion: read.storedVersion,
                label: fixture.label,
                format: fixture.format
            )
            record(
                "\(prefix) is named for version \(describe(fixture.version)) but stores version "
                    + "\(describe(read.storedVersion)); rename it to \(rightName).",
                in: &summary,
                at: sourceLocation
            )
        }
        if let difference = mismatch(fixture, read.wrappedValue) {
            record(
                "\(prefix) (stored version \(describe(read.storedVersion))) \(difference)",
                in: &summary,
                at: sourceLocation
            )
        }
    }

    func checkAll(
        at sourceLocation: SourceLocation,
        mismatch: (VersionedFixture, Value) -> String?
    ) -> FixtureDecodingSummary<Value> {
        var summary = FixtureDecodingSummary<Value>()
        let fixtures: [VersionedFixture]
        do {
            fixtures = try Self.fixtures(in: folder)
        } catch {
            record("\(error)", in: &summary, at: sourceLocation)
            return summary
        }
        if fixtures.isEmpty {
            record(
                "\(Self.folderName) has no fixtures in \(folder.path); add one per version, such as "
                    + "\(VersionedFixture.fileName(forVersion: Value.version)).",
                in: &summary,
                at: sourceLocation
            )
        }
        for fixture in fixtures {
            check(fixture, into: &summary, at: sourceLocation, mismatch: mismatch)
        }
        return summary
    }

    private func record(
        _ message: String,
        in summary: inout FixtureDecodingSummary<Value>,
        at sourceLocation: SourceLocation
    ) {
        summary.issueCount += 1
        recordIssue(message, at: sourceLocation)
    }

    private func describeStoredVersion(of fixture: VersionedFixture) -> String {
        do {
            return "stored version \(describe(try storedVersion(of: fixture)))"
        } catch {
            return "stored version unreadable"
        }
    }
}

extension VersionedFixtures where Value: Equatable {
    /// Decodes every fixture, records an issue for each that fails, and compares each
    /// migrated value with the one expected.
    ///
    /// Return `nil` from `expected` for fixtures that only need to decode.
    ///
    /// <!-- snippet: expecting-by-closure -->
    /// ```swift
    /// fixtures.checkEveryFixtureDecodes { fixture in
    ///     fixture.label == "no-ingredients" ? Recipe(title: "Toast", ingredients: [], servings: 2) : nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sourceLocation: Where issues are reported; leave the default.
    ///   - expected: The value a fixture should migrate to, or `nil` to skip the comparison.
    /// - Returns: What decoded, for further assertions.
    @discardableResult
    public func checkEveryFixtureDecodes(
        sourceLocation: SourceLocation = #_sourceLocation,
        expecting expected: (VersionedFixture) -> Value?
    ) -> FixtureDecodingSummary<Value> {
        checkAll(at: sourceLocation) { fixture, value in
            Self.difference(between: value, and: expected(fixture))
        }
    }

    /// Decodes every fixture, records an issue for each that fails, and compares the
    /// migrated values with the ones expected, by file name.
    ///
    /// A file name in `expected` that is not a fixture is an issue too, so that a renamed
    /// fixture does not silently lose its comparison.
    ///
    /// <!-- snippet: expecting-by-name -->
    /// ```swift
    /// fixtures.checkEveryFixtureDecodes(expecting: [
    ///     "v1-no-ingredients.json": Recipe(title: "Toast", ingredients: [], servings: 2)
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The value each named fixture should migrate to. Fixtures not named here
    ///     only need to decode.
    ///   - sourceLocation: Where issues are reported; leave the default.
    /// - Returns: What decoded, for further assertions.
    @discardableResult
    public func checkEveryFixtureDecodes(
        expecting expected: [String: Value],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> FixtureDecodingSummary<Value> {
        var summary = checkAll(at: sourceLocation) { fixture, value in
            Self.difference(between: value, and: expected[fixture.fileName])
        }
        let checkedNames = Set(summary.fixtures.map(\.fileName))
        for name in expected.keys.sorted() where !checkedNames.contains(name) {
            summary.issueCount += 1
            recordIssue(
                "An expected value names \(name), which is not a fixture of \(Self.folderName) in \(folder.path).",
                at: sourceLocation
            )
        }
        return summary
    }

    /// Checks that a single fixture decodes to the expected value, for a parameterized test.
    ///
    /// - Parameters:
    ///   - fixture: The fixture to decode.
    ///   - expected: The value it should migrate to.
    ///   - sourceLocation: Where issues are reported; leave the default.
    /// - Returns: The migrated value and its stored version, or `nil` when it did not decode.
    @discardableResult
    public func checkDecodes(
        _ fixture: VersionedFixture,
        expecting expected: Value,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Versioned<Value>? {
        var summary = FixtureDecodingSummary<Value>()
        check(fixture, into: &summary, at: sourceLocation) { _, value in
            Self.difference(between: value, and: expected)
        }
        return summary.decoded[fixture]
    }

    private static func difference(between value: Value, and expected: Value?) -> String? {
        guard let expected, value != expected else { return nil }
        return "decoded to \(value), expected \(expected)."
    }
}
