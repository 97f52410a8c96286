import ArgumentParser
import DocumentStore
import Foundation
import VersionedCodableStore

/// `document-store upgrade`: moves a store's notes below a target version to it, through the
/// library's `DocumentUpgrade`.
struct UpgradeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Write every note below the target version at that version, in resumable batches.",
        discussion: """
            A stopped run (Ctrl-C, a crash) resumes from its checkpoint when run again with the \
            same --name and --to. A dry run opens the database read-only and writes nothing. \
            Refuses a file that is not a document store (exit status 66); exits with status 4 \
            when notes below the target were left (this build cannot read them or write them at \
            the target) and 130 when interrupted.
            """
    )

    @Option(help: "The SQLite file of the store.")
    var database: String

    @Option(help: "The version to write (default: the current one); an older one every running build reads.")
    var to: Int?

    @Option(help: "Notes per page and transaction (1 or more).")
    var batchSize = 500

    @Option(help: "Seconds to pause between pages.")
    var pause = 0.0

    @Flag(help: "Write nothing; report what the upgrade would do.")
    var dryRun = false

    @Option(help: "The checkpoint's name, for runs side by side.")
    var name = "upgrade"

    @Option(help: "Seconds to wait while another process holds the database.")
    var wait = 60.0

    @Flag(help: "Print the report as JSON, and no progress bar.")
    var json = false

    mutating func validate() throws {
        _ = try checkedUpgradeSettings(batchSize: batchSize, pause: pause, isDryRun: dryRun, name: name)
        guard wait.isFinite, wait >= 0 else {
            throw ValidationError("--wait must be a number of seconds, 0 or more")
        }
    }

    func run() async throws {
        let settings = try checkedUpgradeSettings(
            batchSize: batchSize,
            pause: pause,
            isDryRun: dryRun,
            name: name
        )
        let upgrade: DocumentUpgrade<Note, JSONDocumentCoder>
        do {
            upgrade = try DocumentUpgrade(
                Note.self,
                to: to.map(UpgradeTarget.version) ?? .current,
                coder: ToolSettings.coder,
                settings: settings
            )
        } catch let error as UpgradeError {
            throw ValidationError("\(error)")
        }
        let store = try ToolSettings.open(database, mode: dryRun ? .readOnly : .readWrite, wait: wait)
        let bar = json ? nil : ProgressBar()
        let task = Task {
            try await upgrade.run(on: store) { progress in bar?.show(progress) }
        }
        let report: UpgradeReport<Int64>
        do {
            report = try await whileInterruptible(task)
        } catch is CancellationError {
            bar?.end()
            FileHandle.standardError.write(
                Data(
                    ("document-store: interrupted; the pages committed so far stay upgraded. Run the same "
                        + "command again to resume from checkpoint \(upgrade.checkpointName).\n").utf8
                )
            )
            throw ExitCode(ExitStatus.interrupted)
        }
        if json {
            try printJSON(UpgradeOutput(report, checkpoint: upgrade.checkpointName))
        } else {
            print(report)
        }
        if report.leftBehind > 0 {
            throw ExitCode(ExitStatus.leftBehind)
        }
    }
}
