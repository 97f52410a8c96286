import ArgumentParser
import Foundation
import VersionedCodableStore

// What both example tools share: the one validation of upgrade settings, Ctrl-C, the census
// as it is printed, the upgrade's report as `--json` prints it, and the progress bar. This file
// belongs to `document-store`; `notes-upgrade` (Examples/NotesService) compiles the same file through a
// link, so that the two tools check and print alike.

/// The exit statuses both tools document, besides 0, 1 (an error the message names) and 64 (a
/// wrong argument).
enum ExitStatus {
    /// `census --retire-below N` found notes below N, or no notes at all.
    static let mayNotRetire: Int32 = 3
    /// The upgrade left notes below the target that this build cannot read or write there.
    static let leftBehind: Int32 = 4
    /// Not a store: a file or a database that does not hold the tool's notes.
    static let notAStore: Int32 = 66
    /// Ctrl-C; the next run resumes from the checkpoint.
    static let interrupted: Int32 = 130
}

/// Settings as the library checks them: its refusal is the command's validation error.
func checkedUpgradeSettings(
    batchSize: Int,
    pause: Double = 0,
    isDryRun: Bool = false,
    name: String = "upgrade"
) throws -> UpgradeSettings {
    do {
        return try UpgradeSettings(
            batchSize: batchSize,
            pauseBetweenBatches: pause,
            isDryRun: isDryRun,
            checkpointName: name
        )
    } catch let error as StoreSettingError {
        throw ValidationError("\(error)")
    }
}

/// Waits for `task`, cancelling it on Ctrl-C: the upgrade stops between pages, what was
/// committed stays, and the next run resumes after it.
func whileInterruptible<Success: Sendable>(_ task: Task<Success, any Error>) async throws -> Success {
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
    interrupt.setEventHandler { task.cancel() }
    interrupt.resume()
    defer { interrupt.cancel() }
    return try await task.value
}

/// Prints a census for a person, or as JSON, with the answer to `--retire-below N` when
/// asked; returns whether the versions below N may be retired (`nil` when not asked).
func printCensus<Key>(_ report: CensusReport<Key>, retireBelow: Int?, json: Bool) throws -> Bool? {
    let answer = retireBelow.map { RetireAnswer(report, below: $0) }
    if json {
        try printJSON(CensusOutput(report, retireBelow: retireBelow))
    } else {
        let chain = report.chainVersions.map(describeVersion).joined(separator: ", ")
        print("notes per stored version (this build reads \(chain))")
        print(report)
        if let answer {
            print(answer.line)
        }
    }
    return answer?.mayRetire
}

/// `unversioned`, `v1`, `v2`: a version as a person reads it.
func describeVersion(_ version: Int?) -> String {
    version.map { "v\($0)" } ?? "unversioned"
}

/// Prints a value as JSON with sorted keys on standard output.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// The answer to `census --retire-below N`. A store that holds no notes cannot say that no
/// note is old, since it may be the wrong store: it answers no, as "cannot tell".
struct RetireAnswer {
    var mayRetire: Bool
    var line: String

    init<Key>(_ report: CensusReport<Key>, below version: Int) {
        mayRetire = report.total > 0 && report.mayRetireVersions(below: version)
        let answer =
            report.total == 0
            ? "cannot tell, no note is stored"
            : mayRetire
                ? "yes, no note is stored below it"
                : "no, \(report.documentsStored(below: version)) notes are stored below it"
        line = "may retire versions below \(version): \(answer)"
    }
}

/// The census as `--json` prints it.
struct CensusOutput: Codable {
    var total: Int
    var countsByVersion: [String: Int]
    var unreadable: Int
    var newer: Int
    var retireBelow: Int?
    var mayRetire: Bool?

    init<Key>(_ report: CensusReport<Key>, retireBelow: Int?) {
        total = report.total
        countsByVersion = Dictionary(
            uniqueKeysWithValues: report.countsByVersion.map { (describeVersion($0.key), $0.value) }
        )
        unreadable = report.unreadable.count
        newer = report.newer.count
        self.retireBelow = retireBelow
        mayRetire = retireBelow.map { RetireAnswer(report, below: $0).mayRetire }
    }
}

/// The upgrade's report as `--json` prints it.
struct UpgradeOutput: Codable {
    var target: String
    var dryRun: Bool
    var checkpoint: String
    var resumed: Bool
    var examined: Int
    var upgraded: Int
    var alreadyAtTarget: Int
    var unreadable: Int
    var newer: Int
    var notWritableAtTarget: Int
    var gone: Int
    var conflictsRetried: Int
    var batches: Int
    var leftBehind: Int

    init<Key>(_ report: UpgradeReport<Key>, checkpoint: String) {
        target = describeVersion(report.targetVersion)
        dryRun = report.isDryRun
        self.checkpoint = checkpoint
        resumed = report.resumed
        examined = report.examined
        upgraded = report.upgraded
        alreadyAtTarget = report.alreadyAtTarget
        unreadable = report.unreadable.count
        newer = report.newer.count
        notWritableAtTarget = report.notWritableAtTarget.count
        gone = report.gone
        conflictsRetried = report.conflictsRetried
        batches = report.batches
        leftBehind = report.leftBehind
    }
}

/// Draws an upgrade's progress on standard error: one line redrawn in place on a terminal, a
/// line per tenth of the run otherwise, so that a log stays short.
final class ProgressBar: @unchecked Sendable {
    // `@unchecked` because the lock guards the mutable properties; the callback may be called
    // from any task.
    private let lock = NSLock()
    private var lastTenth = -1
    private var lineOpen = false
    private let isTerminal = isatty(STDERR_FILENO) != 0

    func show(_ progress: UpgradeProgress) {
        let line = progress.description
        lock.withLock {
            if isTerminal {
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
                lineOpen = progress.remaining != 0
                if !lineOpen {
                    FileHandle.standardError.write(Data("\n".utf8))
                }
            } else {
                let tenth = progress.fractionDone.map { Int($0 * 10) } ?? progress.done
                if tenth != lastTenth {
                    lastTenth = tenth
                    FileHandle.standardError.write(Data("\(line)\n".utf8))
                }
            }
        }
    }

    /// Ends a line left open by a run that stopped before its last report.
    func end() {
        lock.withLock {
            if lineOpen {
                FileHandle.standardError.write(Data("\n".utf8))
                lineOpen = false
            }
        }
    }
}
