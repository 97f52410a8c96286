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
///
/// <!-- snippet: store-upgrade-progress -->
/// ```swift
/// let upgrade = try DocumentUpgrade(Bookmark.self, coder: JSONDocumentCoder())
/// let report = try await upgrade.run(on: store) { progress in
///     print("\(progress.done) done, \(progress.remaining) to go")
/// }
/// ```
public struct DocumentUpgrade<Value: VersionedCodable & Equatable, Coder: DocumentCoder>: Sendable {
    /// The format of the store's documents.
    public let coder: Coder

    /// The version documents are moved to.
    public let targetVersion: Int?

    /// Batch size, pause, dry run and checkpoint name.
    public let settings: UpgradeSettings

    private let chain: ChainVersions
    private let targetRank: Int

    /// Prepares an upgrade of documents of `type` to `targetVersion`.
    ///
    /// - Parameters:
    ///   - type: The current version of the documents' type.
    ///   - targetVersion: The version to write: the current one, or an older one of the chain
    ///     that every running build reads.
    ///   - coder: The documents' format.
    ///   - settings: Batch size, pause, dry run and checkpoint name.
    /// - Throws: ``UpgradeError/targetNotInChain(_:chain:)`` when the chain has no
    ///   `targetVersion`, and `VersionedDecodingError.invalidVersionChain` when the chain is
    ///   not sound.
    public init(
        _ type: Value.Type,
        to targetVersion: Int? = Value.version,
        coder: Coder,
        settings: UpgradeSettings = UpgradeSettings()
    ) throws {
        let chain = try ChainVersions(for: type)
        guard let targetRank = chain.rank(of: targetVersion) else {
            throw UpgradeError.targetNotInChain(targetVersion, chain: chain.versions)
        }
        self.chain = chain
        self.targetRank = targetRank
        self.targetVersion = targetVersion
        self.coder = coder
        self.settings = settings
    }

    /// The name the run's checkpoint is stored under: the settings' name and the target, so
    /// that a run to another version starts from the beginning.
    public var checkpointName: String {
        "\(settings.checkpointName)@v\(describe(targetVersion))"
    }

    /// Runs the upgrade over `store`, from its checkpoint when a run stopped before the end.
    ///
    /// - Parameters:
    ///   - store: The store to upgrade.
    ///   - progress: Called after each page with the counts so far.
    /// - Returns: What the run did.
    /// - Throws: The store's errors, `CancellationError` when the task is cancelled between
    ///   pages, and ``UpgradeError/documentsKeptChanging(_:)``. Pages committed before the
    ///   error stay committed, and the next run resumes after the last of them.
    @discardableResult
    public func run<Store: DocumentStore>(
        on store: Store,
        progress: (@Sendable (UpgradeProgress) -> Void)? = nil
    ) async throws -> UpgradeReport<Store.Key> {
        var report = UpgradeReport<Store.Key>(
            targetVersion: targetVersion,
            isDryRun: settings.isDryRun,
            sampleLimit: settings.sampleLimit
        )
        var position: Store.Key?
        if let checkpoint = try await store.checkpoint(named: checkpointName), !checkpoint.isFinished {
            position = checkpoint.position
            report.resumed = position != nil
        }
        let started = ProcessInfo.processInfo.systemUptime
        let expected = try await store.countOfDocuments(after: position)
        while true {
            try Task.checkCancellation()
            let page = try await store.documents(after: position, limit: settings.batchSize)
            guard let last = page.last else {
                if !settings.isDryRun {
                    let end = UpgradeCheckpoint(name: checkpointName, position: position, isFinished: true)
                    _ = try await store.commit([], checkpoint: end)
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
                let elapsed = ProcessInfo.processInfo.systemUptime - started
                progress(
                    UpgradeProgress(
                        done: report.examined,
                        remaining: max(0, expected - report.examined),
                        upgraded: report.upgraded,
                        conflictsRetried: report.conflictsRetried,
                        documentsPerSecond: elapsed > 0 ? Double(report.examined) / elapsed : 0,
                        elapsedSeconds: elapsed
                    )
                )
            }
            if settings.pauseBetweenBatches > 0 {
                try await Task.sleep(nanoseconds: UInt64(settings.pauseBetweenBatches * 1_000_000_000))
            }
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
        var outcomes = page.map { examine($0.data, revision: $0.revision) }
        if settings.isDryRun {
            return outcomes
        }
        let checkpoint = UpgradeCheckpoint(name: checkpointName, position: last, isFinished: false)
        let indexes = Dictionary(page.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
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
            for key in changed {
                guard let index = indexes[key] else { continue }
                if let now = try await store.document(at: key) {
                    outcomes[index] = examine(now.data, revision: now.revision)
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
        /// Deleted by the service between the read and the write.
        case gone
    }

    private func examine<Revision>(_ data: Data, revision: Revision) -> Outcome<Revision> {
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
        let value = read.wrappedValue
        let written: Data
        do {
            written = try coder.encode(value, asVersion: targetVersion)
        } catch {
            return .unreadable(
                .wouldNotReadBack(stored: stored, target: targetVersion, detail: "encoding failed: \(error)")
            )
        }
        // What is written must be what the next reader gets: read it back through the whole
        // chain, as a reader of either build would, before it replaces the document.
        do {
            let readBack = try coder.decode(Value.self, from: written)
            guard readBack.storedVersion == targetVersion else {
                return .unreadable(
                    .wouldNotReadBack(
                        stored: stored,
                        target: targetVersion,
                        detail: "it reads back as version \(describe(readBack.storedVersion))"
                    )
                )
            }
            guard readBack.wrappedValue == value else {
                return .unreadable(
                    .wouldNotReadBack(stored: stored, target: targetVersion, detail: "it reads back as another value")
                )
            }
        } catch {
            return .unreadable(.wouldNotReadBack(stored: stored, target: targetVersion, detail: "\(error)"))
        }
        return .write(written, from: stored, revision: revision)
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
            break
        case .newer(let reason):
            report.newer.add(DocumentProblem(key: key, reason: reason))
        case .unreadable(let reason):
            report.unreadable.add(DocumentProblem(key: key, reason: reason))
        }
    }
}
