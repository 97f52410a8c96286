import Foundation
import Logging
import NotesModel
import NotesStore
import VersionedCodableStore

enum CensusCommand {
    static func run(_ arguments: Arguments, database: PostgresConnectionSettings, logger: Logger) async throws -> Int32
    {
        let census = try DocumentCensus(
            Note.self,
            coder: JSONDocumentCoder(),
            decodesDocuments: arguments.has("--decode")
        )
        let retireBelow = try arguments.int("--retire-below")
        let report = try await database.withClient(logger: logger) { client in
            try await census.take(of: PostgresNoteStore(client: client, logger: logger))
        }
        print(
            "notes per stored version (this build reads \(report.chainVersions.map { $0.map { "v\($0)" } ?? "unversioned" }))"
        )
        print(report)
        guard let retireBelow else {
            return 0
        }
        if report.mayRetireVersions(below: retireBelow) {
            print("may retire versions below \(retireBelow): yes, no note is stored below it")
            return 0
        }
        print(
            "may retire versions below \(retireBelow): no, \(report.documentsStored(below: retireBelow)) notes are stored below it"
        )
        return 3
    }
}
