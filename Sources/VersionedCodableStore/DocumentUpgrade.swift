import Foundation
import VersionedCodable

/// Moves a store's documents below a target version to that version, in resumable batches,
/// while the service keeps using the store.
///
/// Each page is read in key order; each document below the target is decoded through its
/// chain, encoded at the target, decoded again to check that what will be written reads back
/// as the same value, and written only if the store still has it as it was read (compare and
/// swap). The page's writes and the position reached are committed together, so a run stopped
/// at any moment resumes from its checkpoint and writes every document at most once per
/// version change: a second run over an upgraded store writes nothing.
///
/// Documents already at the target (or at a later version of the chain), documents newer than
/// this build and documents it cannot read are left byte for byte and reported. When the
/// service changed a document between the read and the write, the page is not written; the
/// changed documents are read again, migrated from what the service left, and the page is
/// committed again.
///
/// The target may be older than the current version, for a store that builds still reading
/// only that version share: the documents are then written with `encode(versioned:asVersion:)`,
/// and a `VersionsToWrite` list in the coder's encoder sets the versions of nested parts.
/// Every step down to the target needs a `downgraded()`; a run checks this on the first
/// document it can read, before it commits anything, and throws
/// ``UpgradeError/targetUnreachable(_:type:reason:)`` naming the type that lacks it.
///
/// <!-- snippet: store-upgrade-progress -->
/// ```swift
/// let upgrade = try DocumentUpgrade(Bookmark.self, coder: JSONDocumentCoder())
/// let report = try await upgrade.run(on: store) { progress in
///     print("\(progress.done) examined, \(progress.upgraded) upgraded")
/// }
/// ```
public struct DocumentUpgrade<Value: VersionedCodable & Equatable, Coder: DocumentCoder>: Sendable {
    /// The format of the store's documents.
    public let coder: Coder

    /// The target as it was asked for.
    public let target: UpgradeTarget

    /// The version documents are moved to; `nil` is the unversioned form.
    public let targetVersion: Int?

    /// Batch size, pause, dry run and checkpoint name.
    public let settings: UpgradeSettings

    private let chain: ChainVersions
    private let targetRank: Int

    /// Prepares an upgrade of documents of `type` to `target`.
    ///
    /// - Parameters:
    ///   - type: The current version of the documents' type.
    ///   - target: The version to write: ``UpgradeTarget/current``, or an older one of the
    ///     chain that every running build reads.
    ///   - coder: The documents' format.
    ///   - settings: Batch size, pause, dry run and checkpoint name.
    /// - Throws: ``UpgradeError/targetNotInChain(_:chain:)`` when the chain has no such
    ///   version, ``StoreSettingError/outOfRange(setting:value:requirement:)`` when a setting
    ///   is out of its range, and `VersionedDecodingError.invalidVersionChain` when the chain
    ///   is not sound.
    public init(
        _ type: Value.Type,
        to target: UpgradeTarget = .current,
        coder: Coder,
        settings: UpgradeSettings = .defaults
    ) throws {
        try settings.validate()
        let chain = try ChainVersions(for: type)
        let targetVersion = target.version(of: type)
        guard let targetRank = chain.rank(of: targetVersion) else {
            throw UpgradeError.targetNotInChain(targetVersion, chain: chain.versions)
        }
        self.chain = chain
        self.targetRank = targetRank
        self.target = target
        self.targetVersion = targetVersion
        self.coder = coder
        self.settings = settings
    }

    /// The name the run's checkpoint is stored under: the settings' name, `@` and the target
    /// (`upgrade@v3`, `upgrade@unversioned`), so that a run to another version starts from the
    /// beginning.
    public var checkpointName: String {
        "\(settings.checkpointName)@\(describe(targetVersion))"
    }

    /// Runs the upgrade over `store`, from its checkpoint when a run stopped before the end.
    ///
    /// The store's ``DocumentStore/countOfDocuments(after:)`` is called once, and only when
    /// `progress` is given and ``UpgradeSettings/countsRemainingDocuments`` is on. `progress`
    /// is called after each page, and once more at the end unless the last call already said
    /// nothing remains, so every run, even over an empty store, ends with a report of 100%.
    ///
    /// - Parameters:
    ///   - store: The store to upgrade.
    ///   - progress: Called after each page with the counts so far.
    /// - Returns: What the run did.
    /// - Throws: The store's errors, `CancellationError` when the task is cancelled between
    ///   pages, ``UpgradeError/targetUnreachable(_:type:reason:)`` before the first commit,
    ///   and ``UpgradeError/documentsKeptChanging(_:)``. Pages committed before the error stay
    ///   committed, and the next run resumes after the last of them.
    @discardableResult
    public func run<Store: DocumentStore>(
        on store: Store,
        progress: (@Sendable (UpgradeProgress) -> Void)? = nil
    ) async throws -> UpgradeReport<Store.Key> {
        var report = UpgradeReport<Store.Key>(
            targetVersion: targetVersion,
            isDryRun: settings.isDryRun,
            checkedSampleLimit: settings.sampleLimit
        )
        var position: Store.Key?
        if let checkpoint = try await store.checkpoint(named: checkpointName), !checkpoint.isFinished {
            position = checkpoint.position
            report.resumed = position != nil
        }
        try await checkTargetIsReachable(in: store, after: position)
        let started = ProcessInfo.processInfo.systemUptime
        let expected: Int? =
            progress != nil && settings.countsRemainingDocuments
            ? try await store.countOfDocuments(after: position) : nil
        var lastRemaining: Int?
        func send(_ progress: (UpgradeProgress) -> Void, remaining: Int?, of report: UpgradeReport<Store.Key>) {
            let elapsed = ProcessInfo.processInfo.systemUptime - started
            progress(
                UpgradeProgress(
                    done: report.examined,
                    remaining: remaining,
                    upgraded: report.upgraded,
                    conflictsRetried: report.conflictsRetried,
                    documentsPerSecond: elapsed > 0 ? Double(report.examined) / elapsed : 0,
                    elapsedSeconds: elapsed,
                    isDryRun: settings.isDryRun
                )
            )
            lastRemaining = remaining
        }
        while true {
            try Task.checkCancellation()
            let page = try await store.documents(after: position, limit: settings.batchSize)
            guard let last = page.last else {
                if !settings.isDryRun {
                    let end = UpgradeCheckpoint(name: checkpointName, position: position, isFinished: true)
                    _ = try await store.commit([], checkpoint: end)
                }
                if let progress, lastRemaining != 0 {
                    send(progress, remaining: 0, of: report)
                }
                return report
            }
            let outcomes = try await commit(page, through: last.key, in: store, report: &report)
            for (document, outcome) in zip(page, outcomes) {
                tally(outcome, of: document.key, into: &report)
            }
            report.batches += 1
            position = last.key
            if let progress {
                send(progress, remaining: expected.map { max(0, $0 - report.examined) }, of: report)
            }
            if settings.pauseBetweenBatches > 0 {
                try await Task.sleep(nanoseconds: UInt64(settings.pauseBetweenBatches * 1_000_000_000))
            }
        }
    }

    /// Throws when the chain has no way down to an older target, found by writing the first
    /// readable document at the target; the steps down are the type's, not the value's, so one
    /// document answers for all. A `downgraded()` that refuses one value is that document's
    /// problem, reported with it.
    private func checkTargetIsReachable<Store: DocumentStore>(in store: Store, after start: Store.Key?) async throws {
        guard targetRank < chain.versions.count - 1 else { return }
        var position = start
        while true {
            let page = try await store.documents(after: position, limit: settings.batchSize)
            guard let last = page.last else { return }
            for document in page {
                guard let read = try? coder.decode(Value.self, from: document.data) else { continue }
                do {
                    _ = try coder.encode(read.wrappedValue, asVersion: targetVersion)
                } catch {
                    try throwIfUnreachable(error)
                }
                return
            }
            position = last.key
        }
    }

    /// Throws ``UpgradeError/targetUnreachable(_:type:reason:)`` when `error` says a type of
    /// the chain has no step down.
    private func throwIfUnreachable(_ error: any Error) throws {
        if case VersionedEncodingError.noDowngrade(let type) = error {
            throw UpgradeError.targetUnreachable(targetVersion, type: String(describing: type), reason: "\(error)")
        }
    }

    /// Works out each document's outcome and commits the page's writes with the checkpoint,
    /// reading again and migrating again the documents the service changed meanwhile.
    private func commit<Store: DocumentStore>(
        _ page: [StoredDocument<Store.Key, Store.Revision>],
        through last: Store.Key,
        in store: Store,
        report: inout UpgradeReport<Store.Key>
    ) async throws -> [Outcome<Store.Revision>] {
        var outcomes = try page.map { try examine($0.data, revision: $0.revision) }
        if settings.isDryRun {
            return outcomes
        }
        let checkpoint = UpgradeCheckpoint(name: checkpointName, position: last, isFinished: false)
        var attempts = 0
        while true {
            var writes: [DocumentWrite<Store.Key, Store.Revision>] = []
            for (document, outcome) in zip(page, outcomes) {
                if case .write(let data, _, let revision) = outcome {
                    writes.append(
                        DocumentWrite(key: document.key, readRevision: revision, data: data, version: targetVersion)
                    )
                }
            }
            let changed = try await store.commit(writes, checkpoint: checkpoint)
            if changed.isEmpty {
                return outcomes
            }
            report.conflictsRetried += changed.count
            attempts += 1
            guard attempts < settings.maximumAttempts else {
                throw UpgradeError.documentsKeptChanging(changed.map { "\($0)" })
            }
            // Each entry of the page is read again by its own key. Keys that `Key`'s `==` holds
            // equal may be distinct documents in the store (a database comparing strings byte
            // for byte), so a changed key is never mapped back to one entry of the page:
            // every entry equal to it is read again, each from where it is.
            let changedKeys = Set(changed)
            for index in page.indices where changedKeys.contains(page[index].key) {
                if let now = try await store.document(at: page[index].key) {
                    outcomes[index] = try examine(now.data, revision: now.revision)
                } else {
                    outcomes[index] = .gone
                }
            }
        }
    }

    private enum Outcome<Revision> {
        case write(Data, from: Int?, revision: Revision)
        case atTarget
        case newer(DocumentProblemReason)
        case unreadable(DocumentProblemReason)
        /// Read, but not writable at the target without losing something.
        case notWritable(DocumentProblemReason)
        /// Deleted by the service between the read and the write.
        case gone
    }

    private func examine<Revision>(_ data: Data, revision: Revision) throws -> Outcome<Revision> {
        // Decoding first costs one parse for the documents that need writing, the run's
        // purpose; only a document that does not decode has its version read on its own, to
        // tell a newer or retired one from a damaged one.
        let read: Versioned<Value>
        do {
            read = try coder.decode(Value.self, from: data)
        } catch {
            return classifyUndecodable(data, error: error)
        }
        let stored = read.storedVersion
        guard let rank = chain.rank(of: stored) else {
            // Decoded, yet not a version of the chain: a newer document that a coder let
            // through. It is never rewritten.
            let reason = chain.problem(for: stored) ?? .unsupportedVersion(stored: stored, supported: chain.versions)
            return reason.isNewer ? .newer(reason) : .unreadable(reason)
        }
        if rank >= targetRank {
            return .atTarget
        }
        switch try encodeAtTarget(read.wrappedValue, stored: stored) {
        case .written(let data):
            return .write(data, from: stored, revision: revision)
        case .refused(let reason):
            return .notWritable(reason)
        }
    }

    /// What writing a value at the target gives: the bytes, or why they would lose something.
    enum TargetEncoding {
        case written(Data)
        case refused(DocumentProblemReason)
    }

    /// Encodes `value` at the target and checks that it reads back as the same value at the
    /// target; throws only when no value of the type can be written there.
    func encodeAtTarget(_ value: Value, stored: Int?) throws -> TargetEncoding {
        let written: Data
        do {
            written = try coder.encode(value, asVersion: targetVersion)
        } catch {
            try throwIfUnreachable(error)
            return .refused(
                .wouldNotReadBack(stored: stored, target: targetVersion, detail: "encoding failed: \(error)")
            )
        }
        // What is written must be what the next reader gets: read it back through the whole
        // chain, as a reader of either build would, before it replaces the document.
        do {
            let readBack = try coder.decode(Value.self, from: written)
            guard readBack.storedVersion == targetVersion else {
                return .refused(
                    .wouldNotReadBack(
                        stored: stored,
                        target: targetVersion,
                        detail: "it reads back as \(named(readBack.storedVersion))"
                    )
                )
            }
            guard readBack.wrappedValue == value else {
                return .refused(
                    .wouldNotReadBack(stored: stored, target: targetVersion, detail: "it reads back as another value")
                )
            }
        } catch {
            return .refused(.wouldNotReadBack(stored: stored, target: targetVersion, detail: "\(error)"))
        }
        return .written(written)
    }

    /// Whether a stored version is below the target, so that a write moves it up; `nil` when
    /// the version is not in the chain (a newer document a coder let through).
    func isBelowTarget(_ stored: Int?) -> Bool? {
        chain.rank(of: stored).map { $0 < targetRank }
    }

    private func classifyUndecodable<Revision>(_ data: Data, error: any Error) -> Outcome<Revision> {
        let stored: Int?
        do {
            stored = try coder.storedVersion(of: Value.self, from: data)
        } catch {
            return .unreadable(.versionUnreadable(error))
        }
        switch chain.problem(for: stored) {
        case let reason? where reason.isNewer:
            return .newer(reason)
        case let reason?:
            return .unreadable(reason)
        case nil:
            return .unreadable(.undecodable(stored: stored, error))
        }
    }

    private func tally<Key, Revision>(_ outcome: Outcome<Revision>, of key: Key, into report: inout UpgradeReport<Key>)
    {
        report.examined += 1
        switch outcome {
        case .write(_, let from, _):
            report.upgraded += 1
            report.upgradedFrom[from, default: 0] += 1
        case .atTarget:
            report.alreadyAtTarget += 1
        case .gone:
            report.gone += 1
        case .newer(let reason):
            report.newer.add(DocumentProblem(key: key, reason: reason))
        case .unreadable(let reason):
            report.unreadable.add(DocumentProblem(key: key, reason: reason))
        case .notWritable(let reason):
            report.notWritableAtTarget.add(DocumentProblem(key: key, reason: reason))
        }
    }
}
