import ArgumentParser
import Foundation
import NotesModel
import NotesStore
import VersionedCodableStore

/// `notes-upgrade upgrade`: writes the notes below a target version at it, through the
/// library's `DocumentUpgrade`.
struct UpgradeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Write every note below the target version at that version, in resumable batches.",
        discussion: """
            A stopped run (Ctrl-C, a crash, SIGKILL) resumes from its checkpoint when run again \
            with the same --worker. Workers started with --worker 1/3, 2/3 and 3/3 share the \
            table, and no two write the same note. A dry run reads in read-only transactions and \
            writes nothing. Exits with status 4 when notes below the target were left (this \
            build cannot read them or write them at the target), 66 when the database holds no \
            notes table and 130 when interrupted.
            """
    )

    @Option(help: "The version to write (default: the current one); an older one every running build reads.")
    var to: Int?

    @OptionGroup var pass: PassOptions

    @Option(help: "Seconds to pause between pages.")
    var pause = 0.0

    @Flag(help: "Write nothing; report what the upgrade would do.")
    var dryRun = false

    @Flag(help: "Print the report as JSON, and no progress bar.")
    var json = false

    // snippet: store-postgres-checkpoint-name
    /// Each share keeps its own position.
    var checkpointName: String {
        let share = pass.share
        return share == .all ? "upgrade" : "upgrade-share-\(share.index + 1)-of-\(share.count)"
    }
    // end snippet

    mutating func validate() throws {
        if json && pass.logLines {
            throw ValidationError("--json and --log-lines both write to standard output; choose one")
        }
        _ = try upgrade()
    }

    /// The upgrade as the library checks it: its refusal is the command's validation error.
    func upgrade() throws -> DocumentUpgrade<Note, JSONDocumentCoder> {
        let settings = try checkedUpgradeSettings(
            batchSize: pass.batchSize,
            pause: pause,
            isDryRun: dryRun,
            name: checkpointName
        )
        let target = to ?? Note.version!
        do {
            // A note written for builds of an older API version carries its attachments as
            // that version had them, since those builds read no newer attachment: the API
            // version's encoder lists both.
            return try DocumentUpgrade(
                Note.self,
                to: .version(target),
                coder: JSONDocumentCoder(encoder: NotesAPI.encoders[target] ?? JSONEncoder()),
                settings: settings
            )
        } catch let error as UpgradeError {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        let upgrade = try upgrade()
        let output = json ? nil : ProgressOutput(logLines: pass.logLines)
        let share = pass.share
        let dryRun = dryRun
        let task = Task {
            try await Tool.withDatabase(readOnly: dryRun) { client in
                let store = PostgresNoteStore(client: client, share: share, logger: Tool.logger)
                if !dryRun {
                    try await store.prepare()
                }
                return try await upgrade.run(on: store) { output?.show($0) }
            }
        }
        let report: UpgradeReport<String>
        do {
            report = try await whileInterruptible(task)
        } catch  where task.isCancelled {
            output?.end()
            Tool.say(
                "interrupted; the pages committed so far stay upgraded. Run the same command again to resume "
                    + "from checkpoint \(upgrade.checkpointName)."
            )
            throw ExitCode(ExitStatus.interrupted)
        }
        if json {
            try printJSON(UpgradeOutput(report, checkpoint: upgrade.checkpointName))
        } else {
            print(report)
        }
        output?.finish(report: report)
        if report.leftBehind > 0 {
            throw ExitCode(ExitStatus.leftBehind)
        }
    }
}

/// Progress as a person reads it (a bar on standard error, redrawn in place on a terminal, a
/// line per tenth of the run otherwise), or as the fault test reads it (a line of counts per
/// page on standard output, flushed at once, so that a worker killed a moment later has told
/// how far it came).
struct ProgressOutput: Sendable {
    let logLines: Bool
    private let bar: ProgressBar?

    init(logLines: Bool) {
        self.logLines = logLines
        bar = logLines ? nil : ProgressBar()
    }

    func show(_ progress: UpgradeProgress) {
        guard logLines else {
            bar?.show(progress)
            return
        }
        let line =
            "progress done=\(progress.done) upgraded=\(progress.upgraded) "
            + "conflicts=\(progress.conflictsRetried) peak_mb=\(String(format: "%.1f", PeakMemory.megabytes))\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Ends a line left open by a run that stopped before its last report.
    func end() {
        bar?.end()
    }

    func finish(done: Int, upgraded: Int, conflicts: Int) {
        if logLines {
            let line =
                "finished done=\(done) upgraded=\(upgraded) "
                + "conflicts=\(conflicts) peak_mb=\(String(format: "%.1f", PeakMemory.megabytes))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        } else {
            end()
        }
    }

    func finish<Key>(report: UpgradeReport<Key>) {
        finish(done: report.examined, upgraded: report.upgraded, conflicts: report.conflictsRetried)
    }
}
