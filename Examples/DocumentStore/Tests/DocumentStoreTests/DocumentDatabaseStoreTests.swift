import DocumentStore
import Foundation
import GRDB
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("The SQLite table as a store for census and upgrade")
struct DocumentDatabaseStoreTests {
    struct Stop: Error {}

    static var coder: JSONDocumentCoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return JSONDocumentCoder(encoder: encoder)
    }

    /// A database of generated notes of every version, a damaged one and a newer one.
    func filled(count: Int = 2_000) throws -> (store: TemporaryDatabase, before: [Int64: String]) {
        let store = try TemporaryDatabase()
        try DocumentGenerator(seed: 7).fill(store.database, count: count)
        try store.database.queue.write { db in
            try db.execute(
                sql: "INSERT INTO documents (id, body) VALUES (100001, 'not json'), (100002, ?)",
                arguments: [#"{"version":9,"title":"from a newer build"}"#]
            )
        }
        return (store, try store.database.allBodies())
    }

    func census(of database: DocumentDatabase) async throws -> CensusReport<Int64> {
        try await DocumentCensus(Note.self, coder: Self.coder).take(of: database)
    }

    @Test("The census counts what SQLite's own JSON functions count")
    func censusMatchesSQLite() async throws {
        let (store, _) = try filled()
        let census = try await DocumentCensus(Note.self, coder: Self.coder, batchSize: 300).take(of: store.database)
        let counted = try await store.database.queue.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT json_extract(body, '$.version') AS version, COUNT(*) AS count FROM documents "
                    + "WHERE json_valid(body) AND coalesce(json_extract(body, '$.version'), 0) < 9 GROUP BY 1"
            ).reduce(into: [Int?: Int]()) { counts, row in counts[row["version"] as Int?] = row["count"] }
        }
        #expect(census.countsByVersion == counted)
        #expect(census.unreadable.sample.map(\.key) == [100_001])
        #expect(census.newer.sample.map(\.key) == [100_002])
        #expect(!census.mayRetireVersions(below: 1))
    }

    @Test("Upgrades every note to the current version and keeps the rest byte for byte")
    func upgrade() async throws {
        let (store, before) = try filled()
        let report = try await DocumentUpgrade(Note.self, coder: Self.coder, settings: .init(batchSize: 128))
            .run(on: store.database)
        let after = try store.database.allBodies()
        let decoder = JSONDecoder()
        for (id, old) in before {
            let new = try #require(after[id])
            guard id <= 2_000 else {
                #expect(new == old)
                continue
            }
            let expected = try decoder.decode(versioned: Note.self, from: Data(old.utf8))
            let read = try decoder.decodeWithStoredVersion(Note.self, from: Data(new.utf8))
            #expect(read.storedVersion == 3)
            #expect(read.wrappedValue == expected)
        }
        #expect(try await census(of: store.database).countsByVersion == [3: 2_000])
        #expect(report.upgraded + report.alreadyAtTarget == 2_000)
        let again = try await DocumentUpgrade(Note.self, coder: Self.coder).run(on: store.database)
        #expect(again.upgraded == 0)
        #expect(try store.database.allBodies() == after)
    }

    @Test("A body changed since it was read rolls the whole page and its checkpoint back")
    func compareAndSwap() async throws {
        let (store, before) = try filled(count: 10)
        let page = try await store.database.documents(after: nil, limit: 3)
        try await store.database.queue.write { db in
            try db.execute(sql: "UPDATE documents SET body = body || ' ' WHERE id = ?", arguments: [page[1].key])
        }
        let writes = page.map {
            DocumentWrite(key: $0.key, readRevision: $0.revision, data: Data("{}".utf8), version: 3)
        }
        let checkpoint = UpgradeCheckpoint<Int64>(name: "test", position: page[2].key, isFinished: false)
        #expect(try await store.database.commit(writes, checkpoint: checkpoint) == [page[1].key])
        #expect(try store.database.allBodies()[page[0].key] == before[page[0].key])
        #expect(try await store.database.checkpoint(named: "test") == nil)
    }

    @Test("The SQLite table keeps every promise the adapter check holds a store to")
    func adapterCheck() async throws {
        let store = try TemporaryDatabase()
        let database = store.database
        try await DocumentStoreCheck(store: database, keys: [-5, 2, 40]) { key, data in
            try await database.queue.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO documents (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body",
                    arguments: [key, String(decoding: data, as: UTF8.self)]
                )
            }
        }
        .run()
    }

    @Test("A run stopped after a committed page resumes after it, on a reopened file")
    func resume() async throws {
        let (store, _) = try filled(count: 1_000)
        let upgrade = try DocumentUpgrade(Note.self, coder: Self.coder, settings: .init(batchSize: 100))
        let stopping = StoppingStore(base: store.database, commitsBeforeStop: 3)
        await #expect(throws: Stop.self) { try await upgrade.run(on: stopping) }
        let reopened = try DocumentDatabase(path: store.path)
        let checkpoint = try #require(try await reopened.checkpoint(named: upgrade.checkpointName))
        #expect(checkpoint.position == 300)
        #expect(!checkpoint.isFinished)
        let report = try await upgrade.run(on: reopened)
        #expect(report.resumed)
        #expect(report.examined == 702)
        #expect(try await census(of: reopened).countsByVersion == [3: 1_000])
    }

    /// Commits a number of pages, then stops as a killed process would, before the next.
    struct StoppingStore: DocumentStore {
        let base: DocumentDatabase
        let commits: Counter

        init(base: DocumentDatabase, commitsBeforeStop: Int) {
            self.base = base
            self.commits = Counter(limit: commitsBeforeStop)
        }

        func documents(after key: Int64?, limit: Int) async throws -> [StoredDocument<Int64, Data>] {
            try await base.documents(after: key, limit: limit)
        }

        func document(at key: Int64) async throws -> StoredDocument<Int64, Data>? {
            try await base.document(at: key)
        }

        func countOfDocuments(after key: Int64?) async throws -> Int {
            try await base.countOfDocuments(after: key)
        }

        func checkpoint(named name: String) async throws -> UpgradeCheckpoint<Int64>? {
            try await base.checkpoint(named: name)
        }

        func commit(
            _ writes: [DocumentWrite<Int64, Data>],
            checkpoint: UpgradeCheckpoint<Int64>
        ) async throws -> [Int64] {
            guard await commits.take() else {
                throw Stop()
            }
            return try await base.commit(writes, checkpoint: checkpoint)
        }
    }

    actor Counter {
        private var left: Int

        init(limit: Int) {
            left = limit
        }

        func take() -> Bool {
            left -= 1
            return left >= 0
        }
    }
}
