import Foundation
import Logging
import NotesModel
import NotesStore
import VersionedCodableStore

enum UpgradeCommand {
    static func run(_ arguments: Arguments, database: PostgresConnectionSettings, logger: Logger) async throws -> Int32
    {
        let share = try arguments.share()
        let settings = try UpgradeSettings(
            batchSize: try arguments.batchSize(),
            pauseBetweenBatches: try arguments.double("--pause", default: 0),
            isDryRun: arguments.has("--dry-run"),
            // Each share keeps its own position.
            checkpointName: share == .all ? "upgrade" : "upgrade-share-\(share.index + 1)-of-\(share.count)"
        )
        let target = try arguments.int("--to", default: Note.version)!
        // A note written for builds of an older API version carries its attachments as that
        // version had them, since those builds read no newer attachment: the API version's
        // encoder lists both.
        let upgrade = try DocumentUpgrade(
            Note.self,
            to: .version(target),
            coder: JSONDocumentCoder(encoder: NotesAPI.encoders[target] ?? JSONEncoder()),
            settings: settings
        )
        let output = ProgressOutput(logLines: arguments.has("--log-lines"))
        let report = try await database.withClient(logger: logger) { client in
            let store = PostgresNoteStore(client: client, share: share, logger: logger)
            try await store.prepare()
            return try await upgrade.run(on: store) { output.show($0) }
        }
        print(report)
        output.finish(report: report)
        return 0
    }
}

/// Progress as a person reads it (a bar on standard error), or as the fault test reads it (a
/// line of counts per batch on standard output, flushed at once, so that a worker killed a
/// moment later has told how far it came).
struct ProgressOutput: Sendable {
    let logLines: Bool

    func show(_ progress: UpgradeProgress) {
        if logLines {
            let line =
                "progress done=\(progress.done) upgraded=\(progress.upgraded) "
                + "conflicts=\(progress.conflictsRetried) peak_mb=\(String(format: "%.1f", PeakMemory.megabytes))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        } else {
            FileHandle.standardError.write(Data("\r\u{1B}[K\(progress)".utf8))
        }
    }

    func finish<Key>(report: UpgradeReport<Key>) {
        if logLines {
            let line =
                "finished done=\(report.examined) upgraded=\(report.upgraded) "
                + "conflicts=\(report.conflictsRetried) peak_mb=\(String(format: "%.1f", PeakMemory.megabytes))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        } else {
            FileHandle.standardError.write(Data("\n".utf8))
        }
    }
}
