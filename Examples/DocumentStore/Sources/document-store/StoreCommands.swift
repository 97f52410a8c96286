import DocumentStore
import Foundation
import VersionedCodableStore

/// `document-store census` and `document-store upgrade`: the commands a person runs on a
/// database that a program has filled over the years.
enum StoreCommands {
    static let usage = """
        usage: document-store census --database PATH [--decode] [--retire-below N]
               document-store upgrade --database PATH [--to VERSION] [--batch-size N] [--pause SECONDS]
                                      [--dry-run] [--name NAME]
          census         count the notes by stored version, and those this build cannot read or that are newer;
                         with --retire-below N, exit with status 3 unless no note is stored below version N
          upgrade        write every note below the target version (default: the current one) at that version,
                         in batches, resuming where a stopped run left off
          --decode       decode every note in the census, to find damaged fields too
          --to VERSION   upgrade to an older version of the chain that every running build reads
          --dry-run      write nothing; report what the upgrade would do
          --name NAME    the checkpoint's name (default "upgrade"), for runs side by side
        """

    /// The coder both commands use; sorted keys, as the generator writes.
    static var coder: JSONDocumentCoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return JSONDocumentCoder(encoder: encoder)
    }

    static func census(_ arguments: ArraySlice<String>) async throws -> Int32 {
        var arguments = arguments
        var path: String?
        var decode = false
        var retireBelow: Int?
        while let argument = arguments.popFirst() {
            switch argument {
            case "--database": path = try value(after: argument, in: &arguments)
            case "--decode": decode = true
            case "--retire-below": retireBelow = try number(after: argument, in: &arguments)
            default: throw UsageError(message: "unknown argument \(argument) for census", usage: usage)
            }
        }
        let database = try open(path)
        let census = try DocumentCensus(Note.self, coder: coder, decodesDocuments: decode)
        let report = try await census.take(of: database)
        print("notes per stored version (this build reads \(report.chainVersions.map(describe)))")
        print(report)
        guard let retireBelow else {
            return 0
        }
        let below = report.documentsStored(below: retireBelow)
        if report.mayRetireVersions(below: retireBelow) {
            print("may retire versions below \(retireBelow): yes, no note is stored below it")
            return 0
        }
        print("may retire versions below \(retireBelow): no, \(below) notes are stored below it")
        return 3
    }

    static func upgrade(_ arguments: ArraySlice<String>) async throws -> Int32 {
        var arguments = arguments
        var path: String?
        var target = Note.version
        var settings = UpgradeSettings.defaults
        while let argument = arguments.popFirst() {
            switch argument {
            case "--database": path = try value(after: argument, in: &arguments)
            case "--to": target = try number(after: argument, in: &arguments)
            case "--batch-size":
                let size = try number(after: argument, in: &arguments)
                guard size > 0 else {
                    throw UsageError(message: "--batch-size needs at least 1, not \(size)", usage: usage)
                }
                settings.batchSize = size
            case "--pause":
                let text = try value(after: argument, in: &arguments)
                guard let seconds = Double(text), seconds >= 0 else {
                    throw UsageError(message: "--pause needs a number of seconds, not \(text)", usage: usage)
                }
                settings.pauseBetweenBatches = seconds
            case "--dry-run": settings.isDryRun = true
            case "--name": settings.checkpointName = try value(after: argument, in: &arguments)
            default: throw UsageError(message: "unknown argument \(argument) for upgrade", usage: usage)
            }
        }
        let database = try open(path)
        let upgrade = try DocumentUpgrade(
            Note.self,
            to: target.map(UpgradeTarget.version) ?? .unversioned,
            coder: coder,
            settings: settings
        )
        let bar = ProgressBar()
        let report = try await upgrade.run(on: database) { bar.show($0) }
        print(report)
        return 0
    }

    private static func open(_ path: String?) throws -> DocumentDatabase {
        guard let path else {
            throw UsageError(message: "--database PATH is needed", usage: usage)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError(message: "no database at \(path)", usage: usage)
        }
        return try DocumentDatabase(path: path)
    }

    private static func describe(_ version: Int?) -> String {
        version.map { "v\($0)" } ?? "unversioned"
    }

    private static func value(after flag: String, in remaining: inout ArraySlice<String>) throws -> String {
        guard let value = remaining.popFirst() else {
            throw UsageError(message: "\(flag) needs a value", usage: usage)
        }
        return value
    }

    private static func number(after flag: String, in remaining: inout ArraySlice<String>) throws -> Int {
        let text = try value(after: flag, in: &remaining)
        guard let number = Int(text) else {
            throw UsageError(message: "\(flag) needs a whole number, not \(text)", usage: usage)
        }
        return number
    }
}
