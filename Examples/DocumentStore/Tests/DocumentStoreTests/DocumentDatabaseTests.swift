import DocumentStore
import Foundation
import GRDB
import Testing

@Suite("DocumentDatabase")
struct DocumentDatabaseTests {
    @Test("Counts per stored version come from the JSON in the file, with no version counted as nil")
    func countsReadTheStoredVersion() throws {
        let store = try TemporaryDatabase()
        try store.database.queue.write { db in
            for body in [
                #"{"title":"a","text":""}"#, #"{"version":1,"title":"b","lines":[]}"#,
                #"{"version":3,"title":"c","lines":[],"tags":[],"pinned":true}"#,
                #"{"version":3,"title":"d","lines":[],"tags":[],"pinned":false}"#,
            ] {
                try db.execute(sql: "INSERT INTO documents (body) VALUES (?)", arguments: [body])
            }
        }
        let counts = try store.database.countsByStoredVersion()
        #expect(counts == VersionCounts([nil: 1, 1: 1, 3: 2]))
        #expect(counts.total == 4)
        #expect(try store.database.documentCount() == 4)
    }

    @Test("Opening an existing file keeps its documents")
    func reopeningKeepsDocuments() throws {
        let store = try TemporaryDatabase()
        try DocumentGenerator(seed: 1).fill(store.database, count: 25)
        let reopened = try DocumentDatabase(path: store.path)
        #expect(try reopened.documentCount() == 25)
        #expect(try reopened.allBodies() == store.database.allBodies())
    }

    @Test("The printed counts list versions oldest first and the total")
    func countsDescription() {
        let counts = VersionCounts([3: 5, nil: 2, 1: 0])
        #expect(counts.description == "  none  2\n  v3    5\n  total 7")
    }
}
