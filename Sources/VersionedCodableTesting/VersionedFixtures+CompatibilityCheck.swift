import Foundation
import Testing
import VersionedCodable

extension VersionedFixtures {
    /// Records a test issue for every sample that older versions cannot take, or that older
    /// builds cannot read or write back as the versions declare: the check a schema registry
    /// makes before a new schema ships, for a chain of Swift types.
    ///
    /// A rolling deploy runs old and new builds side by side on the same documents: new
    /// builds write the previous version for the old ones with
    /// `encode(versioned:asVersion:)`, and both read what the other wrote. For each sample and
    /// each older version that `mode` covers, the check writes the sample as that version with
    /// ``jsonEncoder`` and reads it back with ``jsonDecoder``:
    ///
    /// - backward: the document decodes through the chain into the current type, and its
    ///   stored version is the one written;
    /// - forward: the document decodes with the older version as the newest type, as the
    ///   older build decodes it, and what that build writes back decodes into the current
    ///   type again, to the same value.
    ///
    /// Where the version is listed in `lossless`, the value read back must equal the sample
    /// (by `==` for an `Equatable` type, by its JSON otherwise), or the check records an issue
    /// that names each field that changed. Where it is not, the changes are not a failure:
    /// they are what writing for old readers costs, and the report lists them in
    /// ``VersionCompatibilityReport/losses``.
    ///
    /// <!-- snippet: compatibility-check -->
    /// ```swift
    /// @Test("Old and new builds read each other's tickets")
    /// func ticketsStayCompatible() {
    ///     VersionedFixtures(Ticket.self, bundle: .module).checkCompatibility(
    ///         .fullTransitive,
    ///         samples: [.sample],
    ///         lossless: [2, 1]
    ///     )
    /// }
    /// ```
    ///
    /// A sample that an older version cannot represent, where `downgraded()`
    /// throws, and a step with no `downgraded()` at all, fail the check: a new build could
    /// not write that value for an old one. Choose samples that an older build could have
    /// written; a value that only the current version can hold belongs in a test of its own.
    ///
    /// Whatever the mode, the check also holds each version of the chain to its own
    /// `compatibility` declaration, the `ForwardCompatibility` that says what builds of older
    /// versions may do with its documents. For each version that declares `.compatible` or
    /// `.readOnlyCompatible`, each sample is written as that version (as itself for the current
    /// version, with `encode(versioned:asVersion:)` for an older one), in JSON and then in a
    /// property list, and every older build the declarations name reads it through `Versioned`,
    /// with that build's newest type:
    ///
    /// - a build that may write the document writes it back unedited, and the newer version
    ///   must read that as the same value, and as the same version, that it reads from the
    ///   document itself: nothing lost or changed;
    /// - a build that may only read the document must read it, and writing it back must throw
    ///   `VersionedEncodingError.cannotWriteNewerDocument`.
    ///
    /// A declared `.compatible` change that adds a field inside a nested struct fails: older
    /// builds keep the fields they do not know only at the root of the document and of each
    /// `Versioned` part, and in the objects where the spec keeps the version, so they drop it. So does a change that adds a case to an enum field, unless
    /// the older build declares the field as `OpenEnum`: the issue names the field and the value
    /// that build cannot read. The report's
    /// ``VersionCompatibilityReport/declarations`` say what each version promises.
    ///
    /// <!-- snippet: compatible-declaration-check -->
    /// ```swift
    /// @Test("Builds of version 1 read and write back every shelf, losing nothing")
    /// func shelvesStayCompatible() {
    ///     VersionedFixtures(Shelf.self, bundle: .module).checkCompatibility(.full, samples: [.sample])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - mode: Backward, forward or full, with the previous version or every older one.
    ///   - samples: Typical values of the current version, every field set.
    ///   - lossless: The older versions whose documents must give the sample back unchanged;
    ///     `nil` stands for the version of documents written before versioning.
    ///   - sourceLocation: Where issues are reported; leave the default.
    /// - Returns: The versions checked, what the samples lost through the versions not
    ///   declared lossless, and what each version's declaration promises older builds.
    @discardableResult
    public func checkCompatibility(
        _ mode: VersionCompatibility,
        samples: [Value],
        lossless: [Int?] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> VersionCompatibilityReport {
        var report = VersionCompatibilityReport()
        let chain = VersionChain(for: Value.self)
        if let problem = chain.problem {
            recordIssue("The version chain of \(Self.folderName) is invalid: \(problem)", at: sourceLocation)
            report.issueCount += 1
            return report
        }
        let older = Array(chain.types.dropFirst().prefix(mode.isTransitive ? chain.types.count : 1))
        report.checkedVersions = older.map { $0.version }
        let losslessVersions = Set(lossless)
        for version in losslessVersions where !report.checkedVersions.contains(version) {
            recordIssue(
                "\(Self.folderName): version \(describe(version)) is declared lossless but \(mode) does not "
                    + "check it; the chain's older versions are \(chain.versions.dropFirst().map(describe)).",
                at: sourceLocation
            )
            report.issueCount += 1
        }
        if samples.isEmpty {
            recordIssue(
                "\(Self.folderName): checkCompatibility was given no samples, so nothing was written as an "
                    + "older version and nothing was checked. Pass typical values with every field set.",
                at: sourceLocation
            )
            report.issueCount += 1
        }
        for (index, sample) in samples.enumerated() {
            for type in older {
                let failures = checkSample(
                    sample,
                    index: index,
                    writtenAs: type,
                    mode: mode,
                    mustBeLossless: losslessVersions.contains(type.version),
                    report: &report
                )
                for failure in failures {
                    recordIssue(failure, at: sourceLocation)
                    report.issueCount += 1
                }
            }
        }
        // Whatever the mode, a version's own declaration is a promise written into each of its
        // documents, so it is checked for every version of the chain.
        report.declarations = declarations(in: chain)
        let declarationFailures = declarationFailures(
            in: chain,
            samples: samples,
            versionsAlreadyWritten: report.checkedVersions
        )
        for failure in declarationFailures {
            recordIssue(failure, at: sourceLocation)
            report.issueCount += 1
        }
        return report
    }

    /// Checks one sample through one older version; returns the issues' messages.
    private func checkSample(
        _ sample: Value,
        index: Int,
        writtenAs olderType: any VersionedCodable.Type,
        mode: VersionCompatibility,
        mustBeLossless: Bool,
        report: inout VersionCompatibilityReport
    ) -> [String] {
        let version = olderType.version
        let prefix =
            "\(Self.folderName) (version \(describe(Value.version))) sample \(index) written as version "
            + "\(describe(version)) (\(olderType))"
        let document: Data
        do {
            document = try jsonEncoder.encode(versioned: sample, asVersion: version)
        } catch {
            return [
                prefix + " could not be written, so a new build cannot write it for an old one: \(error)"
            ]
        }

        var failures: [String] = []
        var readBack: Value?
        if mode.readsOlderVersions {
            do {
                let read = try jsonDecoder.decodeWithStoredVersion(Value.self, from: document)
                if read.storedVersion != version {
                    failures.append(
                        prefix + " is read back as version \(describe(read.storedVersion)). The document is:\n"
                            + String(decoding: document, as: UTF8.self)
                    )
                } else {
                    readBack = read.wrappedValue
                }
            } catch {
                failures.append(
                    prefix + " does not decode into \(Value.self), so the new build cannot read what the old "
                        + "one writes: \(error)"
                )
            }
        }
        if mode.olderVersionsRead {
            do {
                let rewritten = try rewrite(document, as: olderType)
                let read = try jsonDecoder.decode(versioned: Value.self, from: rewritten)
                if let readBack, differs(read, from: readBack) {
                    let differences = self.differences(between: readBack, and: read)
                    failures.append(
                        prefix + " and saved again by the old build reads back as \(read), not as "
                            + "\(readBack), which the document itself reads as"
                            + (differences.isEmpty ? "." : ": " + differences.joined(separator: "; "))
                    )
                }
                readBack = readBack ?? read
            } catch {
                failures.append(
                    prefix + " cannot be read and saved again by a build whose newest version is "
                        + "\(describe(version)): \(error)"
                )
            }
        }

        guard let readBack, differs(readBack, from: sample) else {
            return failures
        }
        let differences = self.differences(between: sample, and: readBack)
        if mustBeLossless {
            let changed =
                differences.isEmpty
                ? " differs from it, although their JSON is the same: \(readBack)"
                : ": " + differences.joined(separator: "; ")
            failures.append(
                prefix + " is declared lossless, but the value read back" + changed
                    + ". Remove the version from `lossless:` if the loss is intended, or make the "
                    + "downgrade keep it."
            )
        } else {
            report.losses.append(.init(version: version, sampleIndex: index, differences: differences))
        }
        return failures
    }

    /// Decodes a document as a build whose newest type is `olderType` decodes it, and writes
    /// the value back as that build writes it.
    private func rewrite<Older: VersionedCodable>(_ document: Data, as olderType: Older.Type) throws -> Data {
        let value = try jsonDecoder.decode(versioned: olderType, from: document)
        return try jsonEncoder.encode(versioned: value)
    }

    /// Whether two values differ: by `==` for an `Equatable` type, by their JSON otherwise.
    func differs<T: VersionedCodable>(_ value: T, from other: T) -> Bool {
        if let value = value as? any Equatable {
            return !value.isSameValue(as: other)
        }
        return !differences(between: value, and: other).isEmpty
    }

    /// The fields whose JSON differs, as `path: before → after`, written with ``jsonEncoder``
    /// (compared once parsed, so its formatting does not count). Values that cannot be written are
    /// a difference, so that a check never passes on a comparison it could not make.
    func differences<T: VersionedCodable>(between before: T, and after: T) -> [String] {
        let old: Any
        let new: Any
        do {
            old = try JSONSerialization.jsonObject(
                with: jsonEncoder.encode(versioned: before),
                options: [.fragmentsAllowed]
            )
            new = try JSONSerialization.jsonObject(
                with: jsonEncoder.encode(versioned: after),
                options: [.fragmentsAllowed]
            )
        } catch {
            return ["the values could not be compared, since writing them as JSON failed: \(error)"]
        }
        var found: [String] = []
        collectDifferences(old, new, path: "", into: &found)
        return found
    }

    private func collectDifferences(_ old: Any?, _ new: Any?, path: String, into found: inout [String]) {
        if let old = old as? [String: Any], let new = new as? [String: Any] {
            for key in Set(old.keys).union(new.keys).sorted() {
                collectDifferences(old[key], new[key], path: path.isEmpty ? key : path + "." + key, into: &found)
            }
            return
        }
        if let old = old as? [Any], let new = new as? [Any], old.count == new.count {
            for (offset, pair) in zip(old, new).enumerated() {
                collectDifferences(pair.0, pair.1, path: path + "[\(offset)]", into: &found)
            }
            return
        }
        let before = jsonText(old)
        let after = jsonText(new)
        if before != after {
            found.append("\(path.isEmpty ? "(root)" : path): \(before) → \(after)")
        }
    }

    /// A JSON value as text, `absent` for a missing key.
    private func jsonText(_ value: Any?) -> String {
        guard let value else { return "absent" }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value,
                options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]
            )
        else {
            return "\(value)"
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension Equatable {
    fileprivate func isSameValue(as other: Any) -> Bool {
        (other as? Self) == self
    }
}
