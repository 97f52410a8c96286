import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("An upgrade's report puts every document in one category, and reports add up")
struct UpgradeReportTests {
    @Test("A document deleted between the read and the write is counted as gone")
    func deletedDocumentCounted() async throws {
        let mixed = try MixedStore(count: 20)
        let store = FaultyStore(base: mixed.makeStore())
        // Key 4 stores version 1, so the upgrade means to write it.
        await store.beforeCommits([{ base in await base.remove(at: 4) }])
        let report = try await DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(batchSize: 5)
        )
        .run(on: store)
        #expect(report.gone == 1)
        #expect(report.examined == 26)
        #expect(
            report.examined
                == report.upgraded + report.alreadyAtTarget + report.unreadable.count + report.newer.count
                + report.notWritableAtTarget.count + report.gone
        )
        #expect(await store.base.data(at: 4) == nil)
    }

    @Test("Every run ends with a progress report of 100%, an empty store's too")
    func emptyStoreProgress() async throws {
        let log = ProgressLog()
        try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: InMemoryDocumentStore<Int>()) {
            log.append($0)
        }
        #expect(log.reports.count == 1)
        #expect(log.reports.last?.done == 0)
        #expect(log.reports.last?.remaining == 0)
        #expect(log.reports.last?.fractionDone == 1)
    }

    @Test("A run counts the documents only when its progress is reported and the count is wanted")
    func countOnlyWhenAsked() async throws {
        let store = FaultyStore(base: try MixedStore(count: 12).makeStore())
        try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: store)
        #expect(await store.counts == 0)

        let log = ProgressLog()
        let uncounted = try DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(batchSize: 8, checkpointName: "uncounted", countsRemainingDocuments: false)
        )
        try await uncounted.run(on: store) { log.append($0) }
        #expect(await store.counts == 0)
        // Three pages, then the end, where what remains is known: nothing.
        #expect(log.reports.map(\.remaining) == [nil, nil, nil, 0])
        #expect(log.reports.map(\.done) == [8, 16, 18, 18])
        #expect(log.reports.first?.fractionDone == nil)
        #expect(log.reports.first.map { "\($0)".hasPrefix("8 examined  upgraded 0") } == true)

        try await DocumentUpgrade(
            StoreNote.self,
            coder: JSONDocumentCoder(),
            settings: .init(checkpointName: "counted")
        )
        .run(on: store) { _ in }
        #expect(await store.counts == 1)
    }

    @Test("A dry run's progress says what it would upgrade")
    func dryRunProgress() async throws {
        let log = ProgressLog()
        try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder(), settings: .init(isDryRun: true))
            .run(on: try MixedStore(count: 4).makeStore()) { log.append($0) }
        let last = try #require(log.reports.last)
        #expect("\(last)".contains("would upgrade 2"))
    }

    @Test("The reports of workers over parts of a store add up to the report of one run over all of it")
    func reportsAddUp() async throws {
        let mixed = try MixedStore(count: 30)
        let whole = try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: mixed.makeStore())
        var total = try UpgradeReport<Int>(targetVersion: 3, isDryRun: false, sampleLimit: 20)
        for part in 0..<2 {
            let store = InMemoryDocumentStore(documents: mixed.documents.filter { $0.key % 2 == part })
            try total.add(try await DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).run(on: store))
        }
        #expect(total.examined == whole.examined)
        #expect(total.upgraded == whole.upgraded)
        #expect(total.upgradedFrom == whole.upgradedFrom)
        #expect(total.alreadyAtTarget == whole.alreadyAtTarget)
        #expect(total.unreadable.count == whole.unreadable.count)
        #expect(Set(total.unreadable.sample.map(\.key)) == Set(whole.unreadable.sample.map(\.key)))
        #expect(total.newer.count == whole.newer.count)

        let older = try UpgradeReport<Int>(targetVersion: 2, isDryRun: false, sampleLimit: 1)
        #expect(throws: StoreSettingError.self) { try total.add(older) }
        let dry = try UpgradeReport<Int>(targetVersion: 3, isDryRun: true, sampleLimit: 1)
        #expect(throws: StoreSettingError.self) { try total.add(dry) }
    }

    @Test("Censuses of parts of a store add up to the census of all of it")
    func censusesAddUp() async throws {
        let mixed = try MixedStore(count: 30)
        let census = try DocumentCensus(StoreNote.self, coder: JSONDocumentCoder())
        let whole = try await census.take(of: mixed.makeStore())
        var total = try CensusReport<Int>(chainVersions: [1, 2, 3], sampleLimit: 20)
        for part in 0..<3 {
            try total.add(
                try await census.take(
                    of: InMemoryDocumentStore(documents: mixed.documents.filter { $0.key % 3 == part })
                )
            )
        }
        #expect(total.total == whole.total)
        #expect(total.countsByVersion == whole.countsByVersion)
        #expect(total.unreadable.count == whole.unreadable.count)
        #expect(total.newer.count == whole.newer.count)
        #expect(total.documentsStored(below: 3) == whole.documentsStored(below: 3))
        let other = try CensusReport<Int>(chainVersions: [nil, 1], sampleLimit: 0)
        #expect(throws: StoreSettingError.self) { try total.add(other) }
    }

    @Test("Messages call documents without a version unversioned")
    func unversionedInMessages() {
        let retired = DocumentProblemReason.retiredVersion(stored: nil, oldestReadable: 1, oldestType: "NoteV1")
        #expect("\(retired)" == "unversioned documents were retired: the oldest this build reads is version 1 (NoteV1)")
        let unsupported = DocumentProblemReason.unsupportedVersion(stored: 2, supported: [nil, 1, 3])
        #expect("\(unsupported)" == "version 2 is not in the chain; this build reads unversioned, version 1, version 3")
    }
}
