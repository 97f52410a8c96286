import ArgumentParser
import Foundation
import NotesModel
import NotesStore
import VersionedCodableStore

/// `notes-upgrade census`: counts the notes by stored version, in read-only transactions.
struct CensusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "census",
        abstract: "Count the notes by stored version, and those this build cannot read or that are newer.",
        discussion: """
            Reads in read-only transactions and writes nothing; refuses a database without the \
            notes table (exit status 66). With --retire-below N, exits with status 3 unless the \
            table holds notes and none is stored below version N: an empty table may be the \
            wrong database, and says nothing about the notes.
            """
    )

    @Flag(help: "Decode every note, to find damaged fields too.")
    var decode = false

    @Option(help: "Exit with status 3 unless no note is stored below this version (1 or more).")
    var retireBelow: Int?

    @Flag(help: "Print the counts as JSON.")
    var json = false

    mutating func validate() throws {
        if let retireBelow, retireBelow < 1 {
            throw ValidationError("--retire-below must be a version of 1 or more, not \(retireBelow)")
        }
    }

    func run() async throws {
        let census = try DocumentCensus(Note.self, coder: JSONDocumentCoder(), decodesDocuments: decode)
        let report = try await Tool.withDatabase(readOnly: true) { client in
            try await census.take(of: PostgresNoteStore(client: client, logger: Tool.logger))
        }
        let mayRetire = try printCensus(report, retireBelow: retireBelow, json: json)
        if mayRetire == false {
            throw ExitCode(ExitStatus.mayNotRetire)
        }
    }
}
