import Foundation
import VersionedCodable

/// Reads documents for a service and, when asked, writes those below a target version back at
/// the target, so that a store too large to rewrite at once is upgraded as it is read.
///
/// A read returns the current value at once, migrated through the chain as any versioned read
/// does. The write-back goes through the store's compare and swap
/// (``DocumentStore/commit(_:checkpoint:)``) with the revision the document was read at, so it
/// never replaces a write made meanwhile: that document is left as the other writer left it
/// and counted as a conflict. Documents this build cannot read throw, as a plain read would;
/// documents of a newer build, documents already at the target and documents that would not
/// read back unchanged at the target are never written.
///
/// Write-backs are limited to ``writesBackPerSecond``, over bursts of up to one second's worth;
/// a read beyond the limit returns its value and leaves the document for a later read or a
/// ``DocumentUpgrade``. The limit is a ``WriteBackLimit``: each reader has its own unless it is
/// made with one to share, so that the readers of every type in a process stay under one
/// limit. Make each reader once and share it between the tasks that read. Each write-back
/// commits a checkpoint named ``checkpointName`` with the document's key, as the store's only
/// way to write, which an upgrade run never reads.
///
/// The version number says nothing of a document's `Versioned` parts: a document at the target
/// may hold parts stored below the versions the coder's encoder writes them as (its
/// `VersionsToWrite` list, or their current versions). A reader made with `partsBelowTarget`
/// writes such a document back at the target too, through the same checks; the closure says
/// which values hold such parts, from the stored versions of their `Versioned` parts.
///
/// <!-- snippet: store-upgrade-on-read -->
/// ```swift
/// let reader = try UpgradeOnRead(Bookmark.self, coder: JSONDocumentCoder(), writesBackPerSecond: 50)
/// if let read = try await reader.read(at: 2, from: store, writeBack: true) {
///     print(read.value.title, read.writeBack)
/// }
/// print(reader.report)
/// ```
public final class UpgradeOnRead<Value: VersionedCodable & Equatable, Coder: DocumentCoder>: Sendable {
    /// How many documents at most are written back per second, by this reader and the readers
    /// it shares ``limit`` with.
    public var writesBackPerSecond: Double { limit.perSecond }

    /// The limit on write-backs this reader takes its turns from.
    public let limit: WriteBackLimit

    /// The name of the checkpoint each write-back commits: `upgrade-on-read@` and the target.
    public let checkpointName: String

    private let upgrade: DocumentUpgrade<Value, Coder>
    private let partsBelowTarget: (@Sendable (Value) -> Bool)?
    private let state: LockedState

    /// Prepares reads of documents of `type` that may write them back at `target`.
    ///
    /// - Parameters:
    ///   - type: The current version of the documents' type.
    ///   - target: The version to write back: ``UpgradeTarget/current``, or an older one of
    ///     the chain that every running build reads.
    ///   - coder: The documents' format.
    ///   - writesBackPerSecond: The most write-backs per second; more than 0 and finite.
    ///   - partsBelowTarget: Whether a value read from a document stored at the target holds
    ///     `Versioned` parts below the versions the coder writes them as, so that the document
    ///     is written back too; none by default.
    /// - Throws: ``StoreSettingError/outOfRange(setting:value:requirement:)`` for a rate that
    ///   is not more than 0 or not finite, ``UpgradeError/targetNotInChain(_:chain:)``, and
    ///   `VersionedDecodingError.invalidVersionChain` when the chain is not sound.
    public convenience init(
        _ type: Value.Type,
        to target: UpgradeTarget = .current,
        coder: Coder,
        writesBackPerSecond: Double,
        partsBelowTarget: (@Sendable (Value) -> Bool)? = nil
    ) throws {
        try self.init(
            type,
            to: target,
            coder: coder,
            sharing: WriteBackLimit(perSecond: writesBackPerSecond),
            partsBelowTarget: partsBelowTarget
        )
    }

    /// Prepares reads of documents of `type` that may write them back at `target`, within a
    /// limit shared with other readers.
    ///
    /// <!-- snippet: store-write-back-limit -->
    /// ```swift
    /// let limit = try WriteBackLimit(perSecond: 50)
    /// let bookmarks = try UpgradeOnRead(Bookmark.self, coder: JSONDocumentCoder(), sharing: limit)
    /// let notes = try UpgradeOnRead(StoreNote.self, coder: JSONDocumentCoder(), sharing: limit)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The current version of the documents' type.
    ///   - target: The version to write back: ``UpgradeTarget/current``, or an older one of
    ///     the chain that every running build reads.
    ///   - coder: The documents' format.
    ///   - limit: The limit this reader's write-backs count against, with those of every
    ///     other reader made with it.
    ///   - partsBelowTarget: Whether a value read from a document stored at the target holds
    ///     `Versioned` parts below the versions the coder writes them as, so that the document
    ///     is written back too; none by default.
    /// - Throws: ``UpgradeError/targetNotInChain(_:chain:)``, and
    ///   `VersionedDecodingError.invalidVersionChain` when the chain is not sound.
    public init(
        _ type: Value.Type,
        to target: UpgradeTarget = .current,
        coder: Coder,
        sharing limit: WriteBackLimit,
        partsBelowTarget: (@Sendable (Value) -> Bool)? = nil
    ) throws {
        upgrade = try DocumentUpgrade(type, to: target, coder: coder)
        self.limit = limit
        self.partsBelowTarget = partsBelowTarget
        checkpointName = "upgrade-on-read@\(describe(upgrade.targetVersion))"
        state = LockedState()
    }

    /// The version documents are written back at; `nil` is the unversioned form.
    public var targetVersion: Int? { upgrade.targetVersion }

    /// What the reads so far did.
    public var report: UpgradeOnReadReport { state.withLock { $0 } }

    /// Reads the document at `key` and, when `writeBack` is set and it is below the target (or
    /// at it with parts below, as `partsBelowTarget` says), writes it back at the target.
    ///
    /// - Parameters:
    ///   - key: The document's key.
    ///   - store: The store to read from and write to.
    ///   - writeBack: Whether to write a document below the target back at the target.
    /// - Returns: The value and what happened to the document, or `nil` when there is none.
    /// - Throws: The store's errors from the read, and the coder's errors for a document this
    ///   build cannot read. Errors of the write-back are not thrown: the value was read, and
    ///   the error is in ``UpgradeOnReadResult/writeBack``.
    public func read<Store: DocumentStore>(
        at key: Store.Key,
        from store: Store,
        writeBack: Bool
    ) async throws -> UpgradeOnReadResult<Value>? {
        guard let document = try await store.document(at: key) else { return nil }
        return try await read(document, from: store, writeBack: writeBack)
    }

    /// Decodes a document the service already read from `store` and, when `writeBack` is set
    /// and it is below the target (or at it with parts below, as `partsBelowTarget` says),
    /// writes it back at the target if it is unchanged since.
    ///
    /// - Parameters:
    ///   - document: The document as the store gave it, with its revision.
    ///   - store: The store it came from.
    ///   - writeBack: Whether to write a document below the target back at the target.
    /// - Returns: The value and what happened to the document.
    /// - Throws: The coder's errors for a document this build cannot read.
    public func read<Store: DocumentStore>(
        _ document: StoredDocument<Store.Key, Store.Revision>,
        from store: Store,
        writeBack: Bool
    ) async throws -> UpgradeOnReadResult<Value> {
        let read: Versioned<Value>
        do {
            read = try upgrade.coder.decode(Value.self, from: document.data)
        } catch {
            state.withLock { $0.unreadable += 1 }
            throw error
        }
        let outcome = try await writeBackIfBelow(read, document: document, to: store, asked: writeBack)
        state.withLock { report in
            report.reads += 1
            report.count(outcome)
        }
        return UpgradeOnReadResult(value: read.wrappedValue, storedVersion: read.storedVersion, writeBack: outcome)
    }

    private func writeBackIfBelow<Store: DocumentStore>(
        _ read: Versioned<Value>,
        document: StoredDocument<Store.Key, Store.Revision>,
        to store: Store,
        asked: Bool
    ) async throws -> WriteBackOutcome {
        guard let below = upgrade.isBelowTarget(read.storedVersion) else { return .newer }
        // Parts are looked at only at the target itself: a document above it is never written
        // down to it.
        guard below || (read.storedVersion == upgrade.targetVersion && partsBelowTarget?(read.wrappedValue) == true)
        else {
            return .notNeeded
        }
        guard asked else { return .notAsked }
        let data: Data
        switch try upgrade.encodeAtTarget(read.wrappedValue, stored: read.storedVersion) {
        case .written(let written): data = written
        case .refused(let reason): return .notWritable(reason)
        }
        guard limit.take() else {
            return .skippedForRate
        }
        let write = DocumentWrite(
            key: document.key,
            readRevision: document.revision,
            data: data,
            version: upgrade.targetVersion
        )
        let checkpoint = UpgradeCheckpoint(name: checkpointName, position: document.key, isFinished: true)
        do {
            let changed = try await store.commit([write], checkpoint: checkpoint)
            return changed.isEmpty ? .written : .conflict
        } catch {
            return .failed(error)
        }
    }
}

/// The counts of an ``UpgradeOnRead`` since it was made.
public struct UpgradeOnReadReport: Sendable, Hashable, CustomStringConvertible {
    /// Documents read and decoded.
    public var reads = 0

    /// Documents that did not decode; their reads threw.
    public var unreadable = 0

    /// Documents read below the target and written back at it.
    public var writtenBack = 0

    /// Documents below the target that the reader was not asked to write back.
    public var notAsked = 0

    /// Write-backs not made because the service changed or deleted the document after the
    /// read; the other writer's document was kept.
    public var conflicts = 0

    /// Write-backs not made because the rate limit was reached.
    public var skippedForRate = 0

    /// Documents below the target that would not read back unchanged at the target.
    public var notWritable = 0

    /// Documents of a newer build, never written.
    public var newer = 0

    /// Write-backs whose commit threw.
    public var failed = 0

    /// Makes a report with the given counts, all 0 by default.
    public init() {}

    mutating func count(_ outcome: WriteBackOutcome) {
        switch outcome {
        case .notNeeded: break
        case .notAsked: notAsked += 1
        case .written: writtenBack += 1
        case .conflict: conflicts += 1
        case .skippedForRate: skippedForRate += 1
        case .notWritable: notWritable += 1
        case .newer: newer += 1
        case .failed: failed += 1
        }
    }

    /// The counts on one line.
    public var description: String {
        "read \(reads), written back \(writtenBack), not asked \(notAsked), conflicts \(conflicts), "
            + "skipped for the rate \(skippedForRate), not writable \(notWritable), newer \(newer), "
            + "failed \(failed), unreadable \(unreadable)"
    }
}

/// A value read by ``UpgradeOnRead``, and what happened to its document.
public struct UpgradeOnReadResult<Value: VersionedCodable & Sendable>: Sendable {
    /// The value, migrated to the current version.
    public let value: Value

    /// The version the document was stored with when it was read.
    public let storedVersion: Int?

    /// Whether the document was written back at the target, and if not, why.
    public let writeBack: WriteBackOutcome
}

/// What an ``UpgradeOnRead`` did with a document it read.
public enum WriteBackOutcome: Sendable, CustomStringConvertible {
    /// The document is at the target or a later version of the chain.
    case notNeeded
    /// The document is below the target, and the read did not ask for a write-back.
    case notAsked
    /// The document was written at the target.
    case written
    /// The document changed or was deleted after the read; the other writer's version stays.
    case conflict
    /// The rate limit was reached; the document stays below the target.
    case skippedForRate
    /// Written at the target, the document would lose something; it stays as it is.
    case notWritable(DocumentProblemReason)
    /// The document was written by a newer build; it is never written.
    case newer
    /// The store's commit threw.
    case failed(any Error)

    /// A few words naming the outcome.
    public var description: String {
        switch self {
        case .notNeeded: return "not needed"
        case .notAsked: return "not asked"
        case .written: return "written back"
        case .conflict: return "changed meanwhile, kept"
        case .skippedForRate: return "skipped for the rate limit"
        case .notWritable(let reason): return "not writable: \(reason)"
        case .newer: return "newer, kept"
        case .failed(let error): return "write-back failed: \(error)"
        }
    }
}

/// A limit on write-backs per second, shared by the ``UpgradeOnRead`` readers made with it:
/// one per process keeps the readers of every type under one rate, over bursts of up to one
/// second's worth.
public final class WriteBackLimit: Sendable {
    /// How many write-backs at most are taken per second.
    public let perSecond: Double

    private let tokens: LockedTokens

    /// Makes a limit of `perSecond` write-backs per second.
    ///
    /// - Parameter perSecond: The most write-backs per second; more than 0 and finite.
    /// - Throws: ``StoreSettingError/outOfRange(setting:value:requirement:)`` for a rate that
    ///   is not more than 0 or not finite.
    public init(perSecond: Double) throws {
        guard perSecond.isFinite, perSecond > 0 else {
            throw StoreSettingError.outOfRange(
                setting: "writesBackPerSecond",
                value: "\(perSecond)",
                requirement: "a finite number above 0"
            )
        }
        self.perSecond = perSecond
        tokens = LockedTokens(capacity: max(1, perSecond))
    }

    /// Takes one write-back's turn, or answers `false` when the limit is reached.
    func take() -> Bool {
        tokens.take(at: ProcessInfo.processInfo.systemUptime, rate: perSecond)
    }
}

// `@unchecked` because the lock guards the only mutable properties; NSLock rather than
// `Mutex`, which needs macOS 15 where the package declares no minimum.
/// A bucket that refills at a rate per second up to a second's worth.
private final class LockedTokens: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Double
    private var tokens: Double
    private var refilledAt: Double?

    init(capacity: Double) {
        self.capacity = capacity
        tokens = capacity
    }

    func take(at now: Double, rate: Double) -> Bool {
        lock.withLock {
            if let refilledAt {
                tokens = min(capacity, tokens + (now - refilledAt) * rate)
            }
            refilledAt = now
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }
}

// `@unchecked` because the lock guards the only mutable property; NSLock rather than `Mutex`,
// which needs macOS 15 where the package declares no minimum.
/// The counts, behind a lock.
private final class LockedState: @unchecked Sendable {
    private let lock = NSLock()
    private var report = UpgradeOnReadReport()

    func withLock<Result>(_ body: (inout UpgradeOnReadReport) -> Result) -> Result {
        lock.withLock { body(&report) }
    }
}
