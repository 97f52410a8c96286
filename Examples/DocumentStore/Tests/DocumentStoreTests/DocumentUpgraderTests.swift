import DocumentStore
import Foundation
import Testing
import VersionedCodable

@Suite("DocumentUpgrader on a real SQLite file")
struct DocumentUpgraderTests {
    struct StopRequested: Error {}

    static let documentCount = 3_000
    static let batchSize = 250

    /// A store filled with notes of every version, and its bodies before any upgrade.
    func filledStore() throws -> (store: TemporaryDatabase, before: [Int64: String]) {
        let store = try TemporaryDatabase()
        try DocumentGenerator(seed: 2024).fill(store.database, count: Self.documentCount)
        return (store, try store.database.allBodies())
    }

    /// Checks that every row is still there, still decodes to the same note, and was changed
    /// only by being rewritten at the current version. Returns the ids that were rewritten.
    @discardableResult
    func expectOnlyMigrationChanges(
        before: [Int64: String],
        after: [Int64: String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Set<Int64> {
        #expect(
            Set(after.keys) == Set(before.keys),
            "rows were lost or added",
            sourceLocation: sourceLocation
        )
        let decoder = JSONDecoder()
        var rewritten: Set<Int64> = []
        for (id, old) in before {
            let new = try #require(after[id], sourceLocation: sourceLocation)
            let oldRead = try decoder.decodeWithStoredVersion(Note.self, from: Data(old.utf8))
            let newRead = try decoder.decodeWithStoredVersion(Note.self, from: Data(new.utf8))
            #expect(
                newRead.wrappedValue == oldRead.wrappedValue,
                "row \(id) changed",
                sourceLocation: sourceLocation
            )
            if new != old {
                rewritten.insert(id)
                #expect(
                    oldRead.wasMigrated,
                    "row \(id) was current but rewritten",
                    sourceLocation: sourceLocation
                )
                #expect(newRead.storedVersion == Note.version, "row \(id)", sourceLocation: sourceLocation)
            }
        }
        return rewritten
    }

    @Test("A full run rewrites exactly the old rows, at the current version, and loses none")
    func fullRun() throws {
        let (store, before) = try filledStore()
        let countsBefore = try store.database.countsByStoredVersion()
        let report = try DocumentUpgrader(batchSize: Self.batchSize).upgrade(store.database)

        let after = try store.database.allBodies()
        let rewritten = try expectOnlyMigrationChanges(before: before, after: after)
        let oldRows = countsBefore.total - countsBefore[Note.version]
        #expect(rewritten.count == oldRows)
        #expect(report.migrated == oldRows)
        #expect(report.read == Self.documentCount)
        #expect(report.batches == Self.documentCount / Self.batchSize)
        #expect(report.undecodable.isEmpty)
        #expect(
            try store.database.countsByStoredVersion() == VersionCounts([Note.version: Self.documentCount])
        )
    }

    @Test("A second run over an upgraded store reads everything and writes nothing")
    func secondRunWritesNothing() throws {
        let (store, _) = try filledStore()
        try DocumentUpgrader(batchSize: Self.batchSize).upgrade(store.database)
        let upgraded = try store.database.allBodies()
        let report = try DocumentUpgrader(batchSize: 999).upgrade(store.database)
        #expect(report.migrated == 0)
        #expect(report.read == Self.documentCount)
        #expect(try store.database.allBodies() == upgraded)
    }

    @Test(
        "A run stopped between batches leaves committed batches migrated and the rest untouched",
        arguments: [1, 5, 11]
    )
    func stopBetweenBatches(committedBatches: Int) throws {
        let (store, before) = try filledStore()
        // Throwing from the hook of the batch after the last one to keep stops the run there:
        // that batch is rolled back, as a crash before its commit would leave it.
        #expect(throws: StopRequested.self) {
            try DocumentUpgrader(batchSize: Self.batchSize).upgrade(store.database) { batch in
                if batch.batches > committedBatches {
                    throw StopRequested()
                }
            }
        }
        try expectStoppedAfter(committedBatches, store: store, before: before)
    }

    @Test("A cancelled run stops between batches, and a later run finishes the job")
    func cancelledRunThenResume() async throws {
        let (store, before) = try filledStore()
        let database = store.database
        let task = Task {
            try DocumentUpgrader(batchSize: Self.batchSize).upgrade(database) { batch in
                if batch.batches == 3 {
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        try expectStoppedAfter(3, store: store, before: before)
    }

    /// Checks a store whose upgrade stopped after `committed` batches, then runs again and
    /// checks that the second run finishes the job.
    func expectStoppedAfter(_ committed: Int, store: TemporaryDatabase, before: [Int64: String]) throws {
        let stopped = try store.database.allBodies()
        let rewritten = try expectOnlyMigrationChanges(before: before, after: stopped)
        let ids = before.keys.sorted()
        let done = Set(ids.prefix(committed * Self.batchSize))
        #expect(rewritten.isSubset(of: done), "rows after the last committed batch were written")
        let decoder = JSONDecoder()
        for id in done {
            let read = try decoder.decodeWithStoredVersion(Note.self, from: Data(stopped[id]!.utf8))
            #expect(!read.wasMigrated, "row \(id) in a committed batch is still old")
        }
        let counts = try store.database.countsByStoredVersion()
        #expect(counts.total == Self.documentCount)
        #expect(counts[Note.version] < Self.documentCount, "the stop came too late to leave old rows")

        let resumed = try DocumentUpgrader(batchSize: Self.batchSize).upgrade(store.database)
        let finished = try store.database.allBodies()
        let rewrittenOverall = try expectOnlyMigrationChanges(before: before, after: finished)
        #expect(resumed.migrated == rewrittenOverall.count - rewritten.count)
        #expect(
            try store.database.countsByStoredVersion() == VersionCounts([Note.version: Self.documentCount])
        )
    }

    @Test("A row that does not decode is left as it is and reported, and the rest is upgraded")
    func undecodableRowIsKept() throws {
        let (store, _) = try filledStore()
        let broken = #"{"version":9,"title":"from the future"}"#
        let brokenID = try store.database.queue.write { db in
            try db.execute(sql: "INSERT INTO documents (body) VALUES (?)", arguments: [broken])
            return db.lastInsertedRowID
        }
        let report = try DocumentUpgrader(batchSize: Self.batchSize).upgrade(store.database)
        #expect(report.undecodable == [brokenID])
        let after = try store.database.allBodies()
        #expect(after[brokenID] == broken)
        let counts = try store.database.countsByStoredVersion()
        #expect(counts == VersionCounts([Note.version: Self.documentCount, 9: 1]))
    }
}
