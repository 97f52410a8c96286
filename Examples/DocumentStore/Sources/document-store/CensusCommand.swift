import ArgumentParser
import DocumentStore
import Foundation
import VersionedCodableStore

/// `document-store census`: counts a store's notes by stored version, without writing to it.
struct CensusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "census",
        abstract: "Count the notes by stored version, and those this build cannot read or that are newer.",
        discussion: """
            Opens the database read-only and refuses a file that is not a document store \
            (exit status 66). With --retire-below N, exits with status 3 unless the store holds \
            notes and none is stored below version N: an empty store may be the wrong file, and \
            says nothing about the notes.
            """
    )

    @Option(help: "The SQLite file of the store.")
    var database: String

    @Flag(help: "Decode every note, to find damaged fields too.")
    var decode = false

    @Option(help: "Exit with status 3 unless no note is stored below this version (1 or more).")
    var retireBelow: Int?

    @Option(help: "Seconds to wait while another process holds the database.")
    var wait = 60.0

    @Flag(help: "Print the counts as JSON.")
    var json = false

    mutating func validate() throws {
        if let retireBelow, retireBelow < 1 {
            throw ValidationError("--retire-below must be a version of 1 or more, not \(retireBelow)")
        }
        guard wait.isFinite, wait >= 0 else {
            throw ValidationError("--wait must be a number of seconds, 0 or more")
        }
    }

    func run() async throws {
        let store = try ToolSettings.open(database, mode: .readOnly, wait: wait)
        let census = try DocumentCensus(Note.self, coder: ToolSettings.coder, decodesDocuments: decode)
        let report = try await census.take(of: store)
        let mayRetire = try printCensus(report, retireBelow: retireBelow, json: json)
        if mayRetire == false {
            throw ExitCode(ExitStatus.mayNotRetire)
        }
    }
}
