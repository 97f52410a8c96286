import Foundation
import Logging
import NotesStore
import PostgresNIO
import Testing

/// The `notes-upgrade` executable, run as a person or a script runs it: built beside the tests,
/// started as a process, judged by its exit status and output.
@Suite("The notes-upgrade command line")
struct CommandLineTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Beside the test bundle, where SwiftPM puts every product of the build that runs the
    /// tests, whatever its scratch path or configuration.
    static let executable = productsDirectory.appendingPathComponent("notes-upgrade")

    /// The folder that holds the running test bundle. On Linux the bundle is the program that
    /// runs (`Bundle.main`); on macOS a runner loads it, so it is the loaded `.xctest` bundle.
    static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    static func start(_ arguments: [String], database: String? = nil, port: Int? = nil) throws -> (Process, Pipe, Pipe)
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTES_DB_PORT"] = String(port ?? ScratchDatabase.port ?? 5432)
        environment["NOTES_DB_NAME"] = database ?? "postgres"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    static func finish(_ process: Process, _ output: Pipe, _ errors: Pipe) -> Run {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: out, as: UTF8.self),
            errors: String(decoding: err, as: UTF8.self)
        )
    }

    static func finish(_ started: (Process, Pipe, Pipe)) -> Run {
        finish(started.0, started.1, started.2)
    }

    static func run(_ arguments: String..., database: String? = nil, port: Int? = nil) throws -> Run {
        let (process, output, errors) = try start(arguments, database: database, port: port)
        return finish(process, output, errors)
    }

    static func json(_ run: Run) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }

    /// The table's rows, folded into one digest: equal only when no row changed.
    static func digest(_ client: PostgresClient) async throws -> String {
        let rows = try await client.query(
            "SELECT coalesce(md5(string_agg(id || body || version || ':' || revision, ',' ORDER BY id)), '') FROM notes",
            logger: ScratchDatabase.logger
        )
        for try await digest in rows.decode(String.self) {
            return digest
        }
        return ""
    }

    static func tables(_ client: PostgresClient) async throws -> Set<String> {
        var names = Set<String>()
        let rows = try await client.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
            logger: ScratchDatabase.logger
        )
        for try await name in rows.decode(String.self) {
            names.insert(name)
        }
        return names
    }

    @Test("Every command prints its help on standard output and exits 0")
    func help() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        for command in ["census", "upgrade", "plain-pass", "plant", "live-writes", "read-repair", "check"] {
            let run = try Self.run(command, "--help")
            #expect(run.status == 0, "\(command)")
            #expect(run.output.contains("USAGE: notes-upgrade \(command)"), "\(command)")
            #expect(run.errors.isEmpty, "\(command)")
        }
        let top = try Self.run("--help")
        #expect(top.status == 0)
        let words = top.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("4 notes below the target were left"))
        #expect(words.contains("66 the database holds no notes table"))
        #expect(words.contains("130 interrupted"))
    }

    @Test(
        "A wrong argument exits 64 with a message on standard error, before any connection",
        arguments: [
            ["upgrade", "--batch-size", "0"], ["upgrade", "--pause", "nan"], ["upgrade", "--worker", "4/3"],
            ["upgrade", "--worker", "1/"], ["upgrade", "--to", "9"], ["upgrade", "--json", "--log-lines"],
            ["census", "--retire-below", "0"], ["plain-pass", "--batch-size", "-1"], ["plant", "--notes", "0"],
            ["read-repair", "--stop-file", "/tmp/stop", "--rate", "0"], ["live-writes"], ["census", "--frob"],
            ["frob"],
        ]
    )
    func wrongArguments(_ arguments: [String]) throws {
        // A port nothing listens on: a command that got past its validation would fail with 1.
        let (process, output, errors) = try Self.start(arguments, port: 1)
        let run = Self.finish(process, output, errors)
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("Error: "))
    }

    @Test("A database it cannot reach is an error at once that says where it looked")
    func unreachable() throws {
        let started = Date()
        let run = try Self.run("census", port: 1)
        #expect(run.status == 1)
        #expect(run.errors.contains("127.0.0.1:1"))
        #expect(run.errors.contains("Connection refused"))
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test("A port that is not a number is an error, not the default port")
    func wrongPort() throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["census"]
        process.environment = ["NOTES_DB_PORT": "54x2"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("NOTES_DB_PORT is 54x2, not a port number"))
    }

    @Test(
        "A database without the notes table is refused with status 66 and left without one",
        .enabled(if: ScratchDatabase.isAvailable)
    )
    func notANotesDatabase() async throws {
        try await ScratchDatabase.withNamed { client, name in
            for arguments in [["census", "--retire-below", "3"], ["upgrade", "--dry-run"], ["upgrade"]] {
                let (process, output, errors) = try Self.start(arguments, database: name)
                let run = Self.finish(process, output, errors)
                #expect(run.status == 66, "\(arguments)")
                #expect(run.errors.contains("holds no notes table"), "\(arguments)")
            }
            #expect(try await Self.tables(client).isEmpty)
        }
    }

    @Test(
        "An empty notes table cannot tell that old versions may be retired",
        .enabled(if: ScratchDatabase.isAvailable)
    )
    func emptyTable() async throws {
        try await ScratchDatabase.withNamed { client, name in
            try await PostgresNoteStore(client: client, logger: ScratchDatabase.logger).prepare()
            let (process, output, errors) = try Self.start(["census", "--retire-below", "3"], database: name)
            let run = Self.finish(process, output, errors)
            #expect(run.status == 3)
            #expect(run.output.contains("cannot tell, no note is stored"))
            let (jsonProcess, jsonOutput, jsonErrors) = try Self.start(
                ["census", "--retire-below", "3", "--json"],
                database: name
            )
            let json = try Self.json(Self.finish(jsonProcess, jsonOutput, jsonErrors))
            #expect(json["mayRetire"] as? Bool == false)
            #expect(json["total"] as? Int == 0)
        }
    }

    @Test(
        "A census and a dry run change nothing; the upgrade reports as JSON and exits 4 with notes left behind",
        .enabled(if: ScratchDatabase.isAvailable)
    )
    func censusDryRunAndUpgrade() async throws {
        try await ScratchDatabase.withNamed { client, name in
            var run = Self.finish(try Self.start(["plant", "--notes", "2000"], database: name))
            #expect(run.status == 0, "\(run.errors)")
            let planted = try await Self.digest(client)
            let tables = try await Self.tables(client)

            // Decoding every note, as the upgrade does, finds the damaged fields too.
            run = Self.finish(try Self.start(["census", "--decode", "--json"], database: name))
            #expect(run.status == 0)
            let census = try Self.json(run)
            #expect(census["total"] as? Int == 2000)
            let unreadable = try #require(census["unreadable"] as? Int)
            #expect(unreadable > 0)

            run = Self.finish(try Self.start(["upgrade", "--dry-run", "--json"], database: name))
            #expect(run.status == 4)
            let dry = try Self.json(run)
            #expect(dry["dryRun"] as? Bool == true)
            #expect(dry["leftBehind"] as? Int == unreadable)
            #expect(try await Self.digest(client) == planted)
            #expect(try await Self.tables(client) == tables)

            run = Self.finish(try Self.start(["upgrade", "--json"], database: name))
            #expect(run.status == 4)
            let report = try Self.json(run)
            #expect(report["dryRun"] as? Bool == false)
            #expect(report["upgraded"] as? Int == dry["upgraded"] as? Int)
            #expect(report["leftBehind"] as? Int == unreadable)
            #expect(try await Self.digest(client) != planted)
        }
    }

    @Test(
        "Ctrl-C ends the line, says how to resume and exits 130; the next run resumes",
        .enabled(if: ScratchDatabase.isAvailable)
    )
    func interrupt() async throws {
        try await ScratchDatabase.withNamed { _, name in
            #expect(Self.finish(try Self.start(["plant", "--notes", "3000"], database: name)).status == 0)
            let (process, output, errors) = try Self.start(
                ["upgrade", "--batch-size", "100", "--pause", "0.2"],
                database: name
            )
            try await Task.sleep(nanoseconds: 1_500_000_000)
            kill(process.processIdentifier, SIGINT)
            let run = Self.finish(process, output, errors)
            #expect(run.status == 130)
            #expect(run.errors.hasSuffix("from checkpoint upgrade@v3.\n"))
            #expect(run.errors.contains("\nnotes-upgrade: interrupted"))
            let resumed = try Self.json(Self.finish(try Self.start(["upgrade", "--json"], database: name)))
            #expect(resumed["resumed"] as? Bool == true)
            let examined = try #require(resumed["examined"] as? Int)
            #expect(examined > 0 && examined < 3000)
        }
    }
}
