import Foundation
import Logging
import NotesModel
import NotesStore
import PostgresNIO
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("The notes table in PostgreSQL as a store", .enabled(if: ScratchDatabase.isAvailable), .timeLimit(.minutes(3)))
struct PostgresNoteStoreTests {
    static let logger = ScratchDatabase.logger

    /// Inserts `count` notes of versions 1, 2 and 3, a damaged one and one of a newer build.
    static func fill(_ client: PostgresClient, count: Int) async throws -> [String: String] {
        let store = PostgresNoteStore(client: client, logger: logger)
        try await store.prepare()
        let old = JSONEncoder()
        old.userInfo[.versionsToWrite] = VersionsToWrite().writing(Attachment.self, asVersion: 1)
        var bodies: [String: String] = [:]
        for index in 0..<count {
            let note = Note(
                title: "note \(index)",
                body: "line\nline \(index)",
                tags: ["a", "b"],
                attachments: index % 2 == 0 ? [Versioned(Attachment(fileName: "f\(index)", href: "/f/\(index)"))] : [],
                pinned: index % 5 == 0,
                checklist: []
            )
            let version = index % 3 + 1
            let data =
                version == 3
                ? try JSONEncoder().encode(versioned: note) : try old.encode(versioned: note, asVersion: version)
            bodies[String(format: "n%05d", index)] = String(decoding: data, as: UTF8.self)
        }
        bodies["n99998"] = "{\"version\": 2, \"title\": "
        bodies["n99999"] = #"{"version":4,"title":"next"}"#
        for (id, body) in bodies {
            let version = (try? JSONDecoder().storedVersion(of: Note.self, from: Data(body.utf8))) ?? 0
            try await client.query(
                "INSERT INTO notes (id, body, version, revision) VALUES (\(id), \(body), \(version), 1)",
                logger: logger
            )
        }
        return bodies
    }

    static func bodies(_ client: PostgresClient) async throws -> [String: String] {
        var bodies: [String: String] = [:]
        for try await (id, body) in try await client.query("SELECT id, body FROM notes", logger: logger)
            .decode((String, String).self)
        {
            bodies[id] = body
        }
        return bodies
    }

    @Test("The notes table keeps every promise the adapter check holds a store to")
    func adapterCheck() async throws {
        try await ScratchDatabase.with { client in
            let store = PostgresNoteStore(client: client, logger: Self.logger)
            try await store.prepare()
            try await DocumentStoreCheck(store: store, keys: ["k1", "k2", "k3"]) { id, data in
                let body = String(decoding: data, as: UTF8.self)
                try await client.query(
                    """
                    INSERT INTO notes (id, body, version, revision) VALUES (\(id), \(body), 1, 1)
                    ON CONFLICT (id) DO UPDATE SET body = excluded.body, revision = notes.revision + 1
                    """,
                    logger: Self.logger
                )
            }
            .run()
        }
    }

    @Test("Workers with shares of their own together upgrade every note once, and keep the rest byte for byte")
    func sharedByWorkers() async throws {
        try await ScratchDatabase.with { client in
            let before = try await Self.fill(client, count: 300)
            let reports = try await withThrowingTaskGroup(of: UpgradeReport<String>.self) { group in
                for index in 0..<3 {
                    group.addTask {
                        let share = PostgresNoteStore.Share(index: index, count: 3)
                        let upgrade = try DocumentUpgrade(
                            Note.self,
                            coder: JSONDocumentCoder(),
                            settings: .init(batchSize: 16, checkpointName: "share-\(index)")
                        )
                        return try await upgrade.run(
                            on: PostgresNoteStore(client: client, share: share, logger: Self.logger)
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(reports.map(\.examined).reduce(0, +) == 302)
            #expect(reports.map(\.upgraded).reduce(0, +) == 200)
            #expect(reports.allSatisfy { $0.examined > 50 })
            let after = try await Self.bodies(client)
            let decoder = JSONDecoder()
            for (id, body) in before {
                let now = try #require(after[id])
                if id >= "n99998" {
                    #expect(now == body)
                    continue
                }
                let read = try decoder.decodeWithStoredVersion(Note.self, from: Data(now.utf8))
                #expect(read.storedVersion == 3)
                #expect(read.wrappedValue == (try decoder.decode(versioned: Note.self, from: Data(body.utf8))))
            }
            // The version column follows the documents.
            for try await behind in try await client.query(
                "SELECT count(*)::bigint FROM notes WHERE version <> 3 AND id < 'n99998'",
                logger: Self.logger
            ).decode(Int.self) {
                #expect(behind == 0)
            }
        }
    }

    @Test("A note whose revision moved rolls the page and the checkpoint back")
    func compareAndSet() async throws {
        try await ScratchDatabase.with { client in
            _ = try await Self.fill(client, count: 6)
            let store = PostgresNoteStore(client: client, logger: Self.logger)
            let page = try await store.documents(after: nil, limit: 3)
            try await client.query(
                "UPDATE notes SET revision = revision + 1 WHERE id = \(page[1].key)",
                logger: Self.logger
            )
            let writes = page.map {
                DocumentWrite(key: $0.key, readRevision: $0.revision, data: Data("{}".utf8), version: 3)
            }
            let checkpoint = UpgradeCheckpoint(name: "test", position: page[2].key, isFinished: false)
            #expect(try await store.commit(writes, checkpoint: checkpoint) == [page[1].key])
            #expect(try await store.document(at: page[0].key)?.data == page[0].data)
            #expect(try await store.checkpoint(named: "test") == nil)

            let fresh = try #require(try await store.document(at: page[1].key))
            var retried = writes
            retried[1].readRevision = fresh.revision
            #expect(try await store.commit(retried, checkpoint: checkpoint) == [])
            #expect(try await store.checkpoint(named: "test") == checkpoint)
            #expect(try await store.document(at: page[1].key)?.data == Data("{}".utf8))
        }
    }

    @Test("The census counts the notes by version, with the damaged and the newer ones")
    func census() async throws {
        try await ScratchDatabase.with { client in
            _ = try await Self.fill(client, count: 30)
            let report = try await DocumentCensus(Note.self, coder: JSONDocumentCoder(), batchSize: 7)
                .take(of: PostgresNoteStore(client: client, logger: Self.logger))
            #expect(report.countsByVersion == [1: 10, 2: 10, 3: 10])
            #expect(report.unreadable.sample.map(\.key) == ["n99998"])
            #expect(report.newer.sample.map(\.key) == ["n99999"])
            #expect(!report.mayRetireVersions(below: 2))
        }
    }

    @Test("Shares split the table between workers without overlap")
    func sharesPartition() async throws {
        try await ScratchDatabase.with { client in
            _ = try await Self.fill(client, count: 90)
            var seen: [String: Int] = [:]
            for index in 0..<4 {
                let store = PostgresNoteStore(client: client, share: .init(index: index, count: 4), logger: Self.logger)
                var position: String?
                while let page = Optional(try await store.documents(after: position, limit: 10)), let last = page.last {
                    for document in page { seen[document.key, default: 0] += 1 }
                    position = last.key
                }
                #expect(try await store.countOfDocuments(after: nil) > 0)
            }
            #expect(seen.count == 92)
            #expect(seen.values.allSatisfy { $0 == 1 })
        }
    }

    @Test("Cancelling the caller mid-query ends the client's work, and the client outlives the query")
    func cancelledMidQuery() async throws {
        let settings = ScratchDatabase.settings(database: "postgres")
        for attempt in 0..<40 {
            let task = Task {
                try await settings.withClient(logger: Self.logger) { client in
                    while true {
                        try await client.withConnection { connection in
                            try await connection.query("BEGIN", logger: Self.logger)
                            let rows = try await connection.query("SELECT generate_series(1, 200)", logger: Self.logger)
                            for try await _ in rows.decode(Int.self) {}
                            try await connection.query("COMMIT", logger: Self.logger)
                        }
                        _ = try await client.query("SELECT 1", logger: Self.logger).collect()
                    }
                }
            }
            try await Task.sleep(nanoseconds: UInt64(attempt % 10) * 3_000_000)
            task.cancel()
            // A pool shut down under the query in flight would leave this wait unanswered until
            // the suite's time limit.
            let result = await task.result
            #expect(throws: (any Error).self, "attempt \(attempt)") { try result.get() }
        }
    }
}
