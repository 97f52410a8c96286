import ArgumentParser
import Foundation

/// `notes-upgrade`: the census and upgrade of the service's notes table for a person at a
/// terminal or a script, and the steps of the upgrade fault test
/// (`Examples/NotesService/upgrade-fault-test.sh`).
@main
struct NotesUpgradeTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes-upgrade",
        abstract: "Count the notes service's stored notes by version and upgrade them, in resumable batches.",
        discussion: """
            The database is found as the service finds it: NOTES_DB_HOST (127.0.0.1), \
            NOTES_DB_PORT (5432), NOTES_DB_USER (notes), NOTES_DB_NAME (postgres).

            census and upgrade are for a person or a script. plain-pass, plant, live-writes, \
            read-repair and check are the steps of the upgrade fault test \
            (Examples/NotesService/upgrade-fault-test.sh).

            Exit status: 0 done; 1 an error (the message says which); 3 census --retire-below N \
            found notes below N, or no notes at all; 4 notes below the target were left, which \
            this build cannot read or write at the target; 64 a wrong argument; 66 the database \
            holds no notes table; 130 interrupted (run the same command again to resume).
            """,
        subcommands: [
            CensusCommand.self, UpgradeCommand.self, PlainPassCommand.self, PlantCommand.self,
            LiveWritesCommand.self, ReadRepairCommand.self, CheckCommand.self,
        ]
    )
}
