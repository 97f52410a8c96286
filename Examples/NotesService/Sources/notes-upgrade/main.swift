import Foundation
import Logging

// notes-upgrade COMMAND [OPTIONS]: the census and upgrade of the notes table, for a person at a
// terminal, and the steps of the fault test (Examples/NotesService/upgrade-fault-test.sh).
// The database is found as the service finds it: NOTES_DB_HOST, NOTES_DB_PORT, NOTES_DB_USER,
// NOTES_DB_NAME.

let usage = """
    usage: notes-upgrade census [--decode] [--retire-below N]
           notes-upgrade upgrade [--to VERSION] [--batch-size N] [--pause SECONDS] [--dry-run] [--worker I/N]
                                 [--log-lines]
           notes-upgrade plain-pass [--batch-size N] [--worker I/N] [--log-lines]
           notes-upgrade plant --notes N [--seed S]
           notes-upgrade live-writes --stop-file PATH [--writers N] [--seed S]
           notes-upgrade read-repair --stop-file PATH [--to VERSION] [--readers N] [--rate PER_SECOND] [--seed S]
           notes-upgrade check [--to VERSION] [--ledger FILE]
      census       count the notes by stored version, and those this build cannot read or that are newer;
                   with --retire-below N, exit with status 3 unless no note is stored below version N
      upgrade      write every note below the target version (the current one by default) at it, in batches
                   that resume where a stopped run left off; --worker I/N does the I-th of N shares of the table
      plain-pass   read and write back every current note with plain Codable, through the same store: the
                   fault test's measure of what the upgrade costs
      plant        fill an empty table with notes of every version, damaged notes and notes of a newer build,
                   and keep a copy of each as planted
      live-writes  edit notes as the service does, recording each write, until the stop file appears
      read-repair  read random notes as a service that repairs on read does, writing those below the target back
                   at it (at most --rate per second), until the stop file appears
      check        compare the table with what was planted and written (the service's edits: --ledger), and
                   print the counts
    """

var logger = Logger(label: "notes-upgrade")
logger.logLevel = .warning
let arguments = Arguments(CommandLine.arguments.dropFirst())
let database = PostgresConnectionSettingsFromEnvironment.settings

do {
    let status: Int32
    switch arguments.command {
    case "census": status = try await CensusCommand.run(arguments, database: database, logger: logger)
    case "upgrade": status = try await UpgradeCommand.run(arguments, database: database, logger: logger)
    case "plain-pass": status = try await PlainPassCommand.run(arguments, database: database, logger: logger)
    case "plant": status = try await PlantCommand.run(arguments, database: database, logger: logger)
    case "live-writes": status = try await LiveWritesCommand.run(arguments, database: database, logger: logger)
    case "read-repair": status = try await ReadRepairCommand.run(arguments, database: database, logger: logger)
    case "check": status = try await CheckCommand.run(arguments, database: database, logger: logger)
    case "--help", "-h", "help":
        print(usage)
        status = 0
    default:
        throw ArgumentError("unknown command \(arguments.command ?? "(none)")")
    }
    exit(status)
} catch let error as ArgumentError {
    FileHandle.standardError.write(Data("notes-upgrade: \(error.message)\n\(usage)\n".utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("notes-upgrade: \(String(reflecting: error))\n".utf8))
    exit(1)
}
