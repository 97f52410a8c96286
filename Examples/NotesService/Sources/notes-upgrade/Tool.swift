import ArgumentParser
import Foundation
import Logging
import NotesStore
import PostgresNIO
import VersionedCodableStore

/// What the commands share: the logger and how the database is reached.
enum Tool {
    static let logger: Logger = {
        var logger = Logger(label: "notes-upgrade")
        logger.logLevel = .warning
        return logger
    }()

    /// Runs `body` with a client of the database the environment names. Unless
    /// `requiringNotes` is false, a database without the notes table ends the command with
    /// status 66, untouched; with `readOnly`, every transaction is read-only, so nothing the
    /// command runs can write.
    static func withDatabase<Result: Sendable>(
        readOnly: Bool = false,
        requiringNotes: Bool = true,
        _ body: @Sendable (PostgresClient) async throws -> Result
    ) async throws -> Result {
        let environment = ProcessInfo.processInfo.environment
        if let port = environment["NOTES_DB_PORT"], !(Int(port).map { (1...65_535).contains($0) } ?? false) {
            throw ToolError("NOTES_DB_PORT is \(port), not a port number")
        }
        var database = PostgresConnectionSettings(environment: environment)
        database.isReadOnly = readOnly
        do {
            return try await database.withClient(logger: logger) { client in
                if requiringNotes, try await !PostgresNoteStore(client: client, logger: logger).holdsNotesTable() {
                    throw NoNotesTable()
                }
                return try await body(client)
            }
        } catch is NoNotesTable {
            say("\(database.place) holds no notes table; is NOTES_DB_NAME right?")
            throw ExitCode(ExitStatus.notAStore)
        } catch let error as PSQLError {
            // PSQLError's description hides the server's message; a person needs it.
            throw ToolError("\(database.place): \(String(reflecting: error))")
        }
    }

    /// A line on standard error.
    static func say(_ message: String) {
        FileHandle.standardError.write(Data("notes-upgrade: \(message)\n".utf8))
    }
}

private struct NoNotesTable: Error {}

/// A failure the command explains in its message.
struct ToolError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// `--worker I/N`, counted from 1: the I-th of N shares of the table.
struct WorkerShare: ExpressibleByArgument, Sendable {
    let share: PostgresNoteStore.Share

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count > 0, (1...count).contains(index)
        else { return nil }
        share = PostgresNoteStore.Share(index: index - 1, count: count)
    }
}

/// The options of a pass over the table: the upgrade and the plain pass.
struct PassOptions: ParsableArguments {
    @Option(help: "Do the I-th of N shares of the table (I/N, 1 ≤ I ≤ N); each share keeps its own checkpoint.")
    var worker: WorkerShare?

    @Option(help: "Notes per page and transaction (1 or more).")
    var batchSize = 500

    @Flag(help: "Print a line of counts per page on standard output instead of a progress bar.")
    var logLines = false

    var share: PostgresNoteStore.Share { worker?.share ?? .all }
}
