import DocumentStore
import Foundation
import Testing
import VersionedCodable

@Suite("DocumentGenerator")
struct DocumentGeneratorTests {
    @Test("It writes the requested number of documents, of every version, each of which decodes")
    func everyVersionAndEveryDocumentDecodes() throws {
        let store = try TemporaryDatabase()
        try DocumentGenerator(seed: 7, batchSize: 300).fill(store.database, count: 2_000)
        let counts = try store.database.countsByStoredVersion()
        #expect(counts.total == 2_000)
        for version in [nil, 1, 2, 3] as [Int?] {
            #expect(counts[version] > 300, "version \(String(describing: version)) is under-represented")
        }
        let decoder = JSONDecoder()
        for (id, body) in try store.database.allBodies() {
            #expect(throws: Never.self, "row \(id)") {
                try decoder.decode(versioned: Note.self, from: Data(body.utf8))
            }
        }
    }

    @Test("The same seed writes the same documents; another seed writes others")
    func seedDecidesTheDocuments() throws {
        let first = try TemporaryDatabase()
        let second = try TemporaryDatabase()
        let third = try TemporaryDatabase()
        try DocumentGenerator(seed: 99).fill(first.database, count: 200)
        try DocumentGenerator(seed: 99, batchSize: 7).fill(second.database, count: 200)
        try DocumentGenerator(seed: 100).fill(third.database, count: 200)
        #expect(try first.database.allBodies() == second.database.allBodies())
        #expect(try first.database.allBodies() != third.database.allBodies())
    }
}
