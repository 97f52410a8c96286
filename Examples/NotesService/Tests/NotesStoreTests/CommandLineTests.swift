import Foundation
import Logging
import NotesStore
import PostgresNIO
import Testing

/// The `notes-upgrade` executable, run as a person or a script runs it: built beside the tests,
/// started as a process, judged by its exit status and output.
@Suite("The notes-upgrade command line", .timeLimit(.minutes(3)))
struct CommandLineTests {
    typealias Run = ChildProcess.Run

    static let executable = ChildProcess.productsDirectory.appendingPathComponent("notes-upgrade")

    /// Starts notes-upgrade on `database` at `port`, the scratch PostgreSQL's unless given.
    static func start(_ arguments: [String], database: String? = nil, port: Int? = nil) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["NOTES_DB_PORT"] = String(port ?? ScratchDatabase.port ?? 5432)
        environment["NOTES_DB_NAME"] = database ?? "postgres"
        return try ChildProcess(executable, arguments, environment: environment)
    }

    static func run(_ arguments: String..., database: String? = nil, port: Int? = nil) async throws -> Run {
        try await start(arguments, database: database, port: port).finish()
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
    func help() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        for command in ["census", "upgrade", "plain-pass", "plant", "live-writes", "read-repair", "check"] {
            let run = try await Self.run(command, "--help")
            #expect(run.status == 0, "\(command)")
            #expect(run.output.contains("USAGE: notes-upgrade \(command)"), "\(command)")
            #expect(run.errors.isEmpty, "\(command)")
        }
        let top = try await Self.run("--help")
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
    func wrongArguments(_ arguments: [String]) async throws {
        // A port nothing listens on: a command that got past its validation would fail with 1.
        let run = try await Self.start(arguments, port: 1).finish()
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("Error: "))
    }

    @Test("A database it cannot reach is an error at once that says where it looked")
    func unreachable() async throws {
        let started = Date()
        let run = try await Self.run("census", port: 1)
        #expect(run.status == 1)
        #expect(run.errors.contains("127.0.0.1:1"))
        #expect(run.errors.contains("Connection refused"))
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test("A port that is not a number is an error, not the default port")
    func wrongPort() async throws {
        let run = try await ChildProcess(Self.executable, ["census"], environment: ["NOTES_DB_PORT": "54x2"]).finish()
        #expect(run.status == 1)
        #expect(run.errors.contains("NOTES_DB_PORT is 54x2, not a port number"))
    }

    @Test(
        "A database without the notes table is refused with status 66 and left without one",
        .enabled(if: ScratchDatabase.isAvailable)
    )
    func notANotesDatabase() async throws {
        try await ScratchDatabase.withNamed { client, name in
            for arguments in [["census", "--retire-below", "3"], ["upgrade", "--dry-run"], ["upgrade"]] {
                let run = try await Self.start(arguments, database: name).finish()
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
            let run = try await Self.start(["census", "--retire-below", "3"], database: name).finish()
            #expect(run.status == 3)
            #expect(run.output.contains("cannot tell, no note is stored"))
            let json = try Self.json(
                try await Self.start(["census", "--retire-below", "3", "--json"], database: name).finish()
            )
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
            var run = try await Self.start(["plant", "--notes", "2000"], database: name).finish()
            #expect(run.status == 0, "\(run.errors)")
            let planted = try await Self.digest(client)
            let tables = try await Self.tables(client)

            // Decoding every note, as the upgrade does, finds the damaged fields too.
            run = try await Self.start(["census", "--decode", "--json"], database: name).finish()
            #expect(run.status == 0)
            let census = try Self.json(run)
            #expect(census["total"] as? Int == 2000)
            let unreadable = try #require(census["unreadable"] as? Int)
            #expect(unreadable > 0)

            run = try await Self.start(["upgrade", "--dry-run", "--json"], database: name).finish()
            #expect(run.status == 4)
            let dry = try Self.json(run)
            #expect(dry["dryRun"] as? Bool == true)
            #expect(dry["leftBehind"] as? Int == unreadable)
            #expect(try await Self.digest(client) == planted)
            #expect(try await Self.tables(client) == tables)

            run = try await Self.start(["upgrade", "--json"], database: name).finish()
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
            #expect(try await Self.start(["plant", "--notes", "3000"], database: name).finish().status == 0)
            let child = try Self.start(["upgrade", "--batch-size", "100", "--pause", "0.2"], database: name)
            try await Task.sleep(nanoseconds: 1_500_000_000)
            kill(child.process.processIdentifier, SIGINT)
            let run = await child.finish()
            #expect(run.status == 130)
            #expect(run.errors.hasSuffix("from checkpoint upgrade@v3.\n"))
            #expect(run.errors.contains("\nnotes-upgrade: interrupted"))
            let resumed = try Self.json(try await Self.start(["upgrade", "--json"], database: name).finish())
            #expect(resumed["resumed"] as? Bool == true)
            let examined = try #require(resumed["examined"] as? Int)
            #expect(examined > 0 && examined < 3000)
        }
    }
}
