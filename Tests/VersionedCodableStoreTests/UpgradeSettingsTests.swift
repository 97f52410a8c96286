import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("An upgrade's settings: batches, pauses, dry runs and progress")
struct UpgradeSettingsTests {
    @Test("A dry run writes nothing and reports what a run would do")
    func dryRun() async throws {
        let mixed = try MixedStore(count: 50)
        let store = FaultyStore(base: mixed.makeStore())
        let dry = try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder(), settings: .init(isDryRun: true))
            .run(on: store)
        #expect(await store.base.allDocuments == mixed.documents)
        #expect(await store.base.checkpoint(named: "upgrade@v3") == nil)
        #expect(dry.isDryRun)
        let real = try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: store)
        #expect(dry.upgraded == real.upgraded)
        #expect(dry.upgradedFrom == real.upgradedFrom)
        #expect(dry.alreadyAtTarget == real.alreadyAtTarget)
        #expect(dry.unreadable.count == real.unreadable.count)
        #expect(dry.newer.count == real.newer.count)
        #expect("\(dry)".hasPrefix("examined 56, would upgrade \(real.upgraded) to v3"))
    }

    @Test("Each transaction writes at most a batch")
    func batchSize() async throws {
        let store = FaultyStore(base: try MixedStore(count: 40).makeStore())
        let report = try await DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(batchSize: 3)
        )
        .run(on: store)
        #expect(report.batches == 46 / 3 + 1)
    }

    @Test("Progress reports each batch, ending with nothing remaining")
    func progress() async throws {
        let store = try MixedStore(count: 40).makeStore()
        let seen = ProgressLog()
        try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder(), settings: .init(batchSize: 10))
            .run(on: store) { seen.append($0) }
        let reports = seen.reports
        #expect(reports.map(\.done) == [10, 20, 30, 40, 46])
        #expect(reports.map(\.remaining) == [36, 26, 16, 6, 0])
        #expect(reports.last?.fractionDone == 1)
        #expect(reports.allSatisfy { $0.documentsPerSecond > 0 })
        #expect(reports.last?.estimatedSecondsLeft == 0)
        #expect(reports.map(\.upgraded) == reports.map(\.upgraded).sorted())
    }

    @Test("Progress prints as a bar with the counts")
    func progressBar() {
        let progress = UpgradeProgress(
            done: 300,
            remaining: 700,
            upgraded: 200,
            conflictsRetried: 2,
            documentsPerSecond: 150,
            elapsedSeconds: 2
        )
        #expect(
            progress.description
                == "[#########.....................]  30%  300/1000  upgraded 200  conflicts 2  150 documents/s  5 s left"
        )
    }

    @Test("The pause between batches slows the run down")
    func pause() async throws {
        let store = try MixedStore(count: 10).makeStore()
        let started = ProcessInfo.processInfo.systemUptime
        let report = try await DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(batchSize: 4, pauseBetweenBatches: 0.05)
        ).run(on: store)
        #expect(report.batches == 4)
        #expect(ProcessInfo.processInfo.systemUptime - started >= 0.2)
    }

    @Test("Runs under different checkpoint names keep their own positions")
    func checkpointNames() async throws {
        let store = FaultyStore(base: try MixedStore(count: 20).makeStore())
        await store.stop(at: .listing, occurrence: 2)
        let first = try DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(batchSize: 5, checkpointName: "a")
        )
        await #expect(throws: FaultyStore.Stop.self) { try await first.run(on: store) }
        #expect(await store.base.checkpoint(named: "a@v3")?.position == 5)
        #expect(await store.base.checkpoint(named: "b@v3") == nil)
    }
}

// `@unchecked` because the lock guards the only stored property; NSLock rather than `Mutex`,
// which needs macOS 15 where the package declares no minimum.
/// The progress reports of one run, collected from the callback.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [UpgradeProgress] = []

    func append(_ progress: UpgradeProgress) {
        lock.withLock { collected.append(progress) }
    }

    var reports: [UpgradeProgress] { lock.withLock { collected } }
}
