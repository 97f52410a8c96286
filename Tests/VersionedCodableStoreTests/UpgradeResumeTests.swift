import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("An upgrade stopped at any moment resumes from its checkpoint")
struct UpgradeResumeTests {
    static let points: [(FaultyStore.Step, Int)] = [
        (.listing, 1), (.listing, 2), (.listing, 4), (.listing, 7),
        (.beforeCommit, 1), (.beforeCommit, 3), (.beforeCommit, 6),
        (.afterCommit, 1), (.afterCommit, 3), (.afterCommit, 6),
    ]

    @Test("A run stopped at any point of a batch ends, once resumed, where an uninterrupted run ends")
    func resumesAfterEveryPoint() async throws {
        let mixed = try MixedStore(count: 30)
        let reference = mixed.makeStore()
        // Sorted keys, so that equal documents are equal bytes.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let coder = JSONDocumentCoder(encoder: encoder)
        let upgrade = try DocumentUpgrade(StoreNote.self, coder: coder, settings: .init(batchSize: 6))
        try await upgrade.run(on: reference)
        let finished = await reference.allDocuments

        for (step, occurrence) in Self.points {
            let store = FaultyStore(base: mixed.makeStore())
            await store.stop(at: step, occurrence: occurrence)
            await #expect(throws: FaultyStore.Stop.self, "stopping at \(step) #\(occurrence)") {
                try await upgrade.run(on: store)
            }
            await store.runNormally()
            let resumed = try await upgrade.run(on: store)
            #expect(await store.base.allDocuments == finished, "stopped at \(step) #\(occurrence)")
            // Each document is written once, whichever run wrote it.
            #expect(await store.writes.values.allSatisfy { $0 == 1 }, "stopped at \(step) #\(occurrence)")
            #expect(await store.writes.count == 15, "stopped at \(step) #\(occurrence)")
            let committedBeforeStop = step == .afterCommit ? occurrence : (step == .beforeCommit ? occurrence - 1 : 0)
            #expect(resumed.resumed == (committedBeforeStop > 0 || (step == .listing && occurrence > 1)))
        }
    }

    @Test("A run stopped while reading a changed document again resumes and keeps the service's write")
    func resumesAfterStopInRetry() async throws {
        let mixed = try MixedStore(count: 12)
        let store = FaultyStore(base: mixed.makeStore())
        let serviceNote = StoreNoteV1(title: "edited by the service", text: "new\ntext")
        let serviceData = try JSONEncoder().encode(versioned: serviceNote)
        await store.beforeCommits([{ base in await base.put(serviceData, at: 4) }])
        await store.stop(at: .rereading, occurrence: 1)
        let upgrade = try DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder(), settings: .init(batchSize: 5))
        await #expect(throws: FaultyStore.Stop.self) { try await upgrade.run(on: store) }
        #expect(await store.base.data(at: 4) == serviceData)
        await store.runNormally()
        try await upgrade.run(on: store)
        let read = try JSONDecoder().decodeWithStoredVersion(
            StoreNote.self,
            from: #require(await store.base.data(at: 4))
        )
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue == StoreNote(from: StoreNoteV2(from: serviceNote)))
    }

    @Test("A finished run leaves a finished checkpoint, and the next run starts a new pass")
    func finishedCheckpoint() async throws {
        let store = try MixedStore(count: 9).makeStore()
        let upgrade = try DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder(), settings: .init(batchSize: 4))
        try await upgrade.run(on: store)
        let checkpoint = try #require(await store.checkpoint(named: upgrade.checkpointName))
        #expect(checkpoint.isFinished)
        #expect(checkpoint.position == 1_006)
        await store.put(try JSONEncoder().encode(versioned: StoreNoteV1(title: "late", text: "")), at: 2)
        let next = try await upgrade.run(on: store)
        #expect(!next.resumed)
        #expect(next.upgraded == 1)
    }
}
