import ArgumentParser
import DocumentStore
import Foundation
import VersionedCodableStore

/// `document-store`: fills a SQLite file with notes of every version and upgrades them, or, with
/// `census` and `upgrade`, works on a store that exists.
@main
struct DocumentStoreTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "document-store",
        abstract: "Keep versioned notes in SQLite, count them by version and upgrade them.",
        discussion: """
            Without a subcommand, runs `demo`.

            Exit status: 0 done; 1 an error (the message says which); 3 census --retire-below N \
            found notes below N, or no notes at all; 4 notes below the target were left, which this build cannot \
            read or write at the target; 64 a wrong argument; 66 the file is not a document \
            store; 130 interrupted (run the same command again to resume).
            """,
        subcommands: [DemoCommand.self, CensusCommand.self, UpgradeCommand.self],
        defaultSubcommand: DemoCommand.self
    )
}

/// `document-store demo`, the default: a store made, filled and upgraded from start to end.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Make a store of notes of every version, count them, upgrade them and count again.",
        discussion: """
            Makes the database (a new file in a temporary folder unless --database is given), \
            fills it with notes of every version, prints the counts per stored version, upgrades \
            every note below the current version and prints the counts again.
            """
    )

    @Option(help: "The SQLite file to use (default: a new file in a temporary folder, removed at the end).")
    var database: String?

    @Option(help: "Notes to generate.")
    var count = 10_000

    @Option(help: "Seed for the generated notes.")
    var seed: UInt64 = 42

    @Option(help: "Notes per upgrade transaction.")
    var batchSize = 500

    @Flag(help: "Upgrade an existing database without adding notes.")
    var noGenerate = false

    @Flag(help: "Only generate and count, leaving the notes for `upgrade`.")
    var noUpgrade = false

    mutating func validate() throws {
        guard count >= 0 else {
            throw ValidationError("--count must be 0 or more, not \(count)")
        }
        _ = try checkedUpgradeSettings(batchSize: batchSize)
    }

    func run() async throws {
        let temporaryPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("document-store-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
        let path = database ?? temporaryPath
        // A database the program made for itself is removed at the end; one it was given is kept.
        defer {
            if database == nil {
                try? FileManager.default.removeItem(atPath: temporaryPath)
            }
        }
        let store = try DocumentDatabase(path: path, onWait: ToolSettings.sayWaiting)
        print("database: \(path)\(database == nil ? " (temporary, removed at the end)" : "")")
        if !noGenerate {
            let start = Date()
            try DocumentGenerator(seed: seed).fill(store, count: count)
            print("generated \(count) documents (seed \(seed)) in \(seconds(since: start))")
        }
        print("documents per stored version, before:\n\(try store.countsByStoredVersion())")
        guard !noUpgrade else { return }
        let start = Date()
        let upgrade = try DocumentUpgrade(
            Note.self,
            coder: ToolSettings.coder,
            settings: try checkedUpgradeSettings(batchSize: batchSize)
        )
        let report = try await upgrade.run(on: store)
        print("\(report)\nin \(seconds(since: start))")
        print("documents per stored version, after:\n\(try store.countsByStoredVersion())")
        if report.leftBehind > 0 {
            throw ExitCode(ExitStatus.leftBehind)
        }
    }

    private func seconds(since start: Date) -> String {
        String(format: "%.2f s", Date().timeIntervalSince(start))
    }
}
