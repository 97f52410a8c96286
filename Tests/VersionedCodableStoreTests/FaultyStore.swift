import Foundation
import VersionedCodableStore

/// A store that stops at a chosen point, as a process killed there would, and lets a test act
/// as the service between an upgrade's read and its write.
actor FaultyStore: DocumentStore {
    enum Step: CaseIterable, Sendable {
        /// Before a page is listed.
        case listing
        /// Before a page's transaction starts: nothing of it is written.
        case beforeCommit
        /// After a page's transaction committed, before the caller hears of it.
        case afterCommit
        /// Before a changed document is read again.
        case rereading
    }

    struct Stop: Error {}

    let base: InMemoryDocumentStore<Int>
    private var stopAt: (step: Step, occurrence: Int)?
    private var seen: [Step: Int] = [:]
    private var serviceWrites: [@Sendable (InMemoryDocumentStore<Int>) async -> Void] = []

    /// How many times each document was written by an upgrade.
    private(set) var writes: [Int: Int] = [:]

    /// How many times the documents were counted.
    private(set) var counts = 0

    init(base: InMemoryDocumentStore<Int>) {
        self.base = base
    }

    /// Stops at the `occurrence`th time (from 1) the run reaches `step`.
    func stop(at step: Step, occurrence: Int) {
        stopAt = (step, occurrence)
        seen = [:]
    }

    func runNormally() {
        stopAt = nil
    }

    /// Runs `write` against the store just before the next commits, one per commit, as the
    /// service would between the read and the write.
    func beforeCommits(_ writes: [@Sendable (InMemoryDocumentStore<Int>) async -> Void]) {
        serviceWrites = writes
    }

    private func reach(_ step: Step) throws {
        seen[step, default: 0] += 1
        if let stopAt, stopAt.step == step, stopAt.occurrence == seen[step] {
            throw Stop()
        }
    }

    func documents(after key: Int?, limit: Int) async throws -> [StoredDocument<Int, Int>] {
        try reach(.listing)
        return await base.documents(after: key, limit: limit)
    }

    func document(at key: Int) async throws -> StoredDocument<Int, Int>? {
        try reach(.rereading)
        return await base.document(at: key)
    }

    func countOfDocuments(after key: Int?) async -> Int {
        counts += 1
        return await base.countOfDocuments(after: key)
    }

    func checkpoint(named name: String) async -> UpgradeCheckpoint<Int>? {
        await base.checkpoint(named: name)
    }

    func commit(_ writes: [DocumentWrite<Int, Int>], checkpoint: UpgradeCheckpoint<Int>) async throws -> [Int] {
        if !serviceWrites.isEmpty {
            await serviceWrites.removeFirst()(base)
        }
        try reach(.beforeCommit)
        let changed = await base.commit(writes, checkpoint: checkpoint)
        if changed.isEmpty {
            for write in writes {
                self.writes[write.key, default: 0] += 1
            }
        }
        try reach(.afterCommit)
        return changed
    }
}
