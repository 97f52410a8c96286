import DocumentStore
import Foundation
import GRDB
import Testing

/// The `document-store` executable, run as a person or a script runs it: built by
/// `swift build`, started as a process, judged by its exit status and output.
@Suite("The document-store command line")
struct CommandLineTests {
    typealias Run = ChildProcess.Run

    static let executable = ChildProcess.productsDirectory.appendingPathComponent("document-store")

    static func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable, arguments)
    }

    static func run(_ arguments: String...) async throws -> Run {
        try await start(arguments).finish()
    }

    /// A store of generated notes, made by the tool itself.
    static func store(count: Int = 300) throws -> TemporaryDatabase {
        let store = try TemporaryDatabase()
        try DocumentGenerator(seed: 3).fill(store.database, count: count)
        return store
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("Every command prints its help on standard output and exits 0")
    func help() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        for arguments in [["--help"], ["demo", "--help"], ["census", "--help"], ["upgrade", "--help"]] {
            let run = try await Self.start(arguments).finish()
            #expect(run.status == 0, "\(arguments)")
            #expect(run.output.contains("USAGE: document-store"), "\(arguments)")
        }
        let top = try await Self.run("--help")
        #expect(top.output.contains("130 interrupted"))
    }

    @Test("A child that outlives its time limit is killed, and the test that waits for it fails naming it")
    func timeLimit() async throws {
        let started = Date()
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"])
        await withKnownIssue {
            let run = await child.finish(within: 1)
            #expect(run.status == SIGKILL)
        } matching: { issue in
            issue.description.contains("30 did not exit within 1 s and was killed")
        }
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test("A census and a dry run leave the file byte for byte")
    func readOnly() async throws {
        let store = try Self.store()
        let before = try Self.bytes(store.path)
        #expect(try await Self.run("census", "--database", store.path).status == 0)
        let dry = try await Self.run("upgrade", "--database", store.path, "--dry-run")
        #expect(dry.status == 0)
        #expect(dry.output.contains("would upgrade"))
        #expect(try Self.bytes(store.path) == before)
        // Reading takes no write lock: a census runs while another connection is writing.
        let holder = try Self.holder(of: store.path)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let census = try await Self.run("census", "--database", store.path)
        try holder.inDatabase { db in try db.execute(sql: "COMMIT") }
        #expect(census.status == 0)
        #expect(!census.errors.contains("waiting"))
    }

    /// A connection that holds a transaction open across calls, as another process does. Its
    /// own `COMMIT` waits for the tool's reads to end, as another program's would: without a
    /// busy timeout it failed with "database is locked" when the commit met one of them.
    static func holder(of path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    @Test("A file that is not a store is refused with status 66 and left as it was")
    func notAStore() async throws {
        let folder = try TemporaryDatabase()
        let empty = folder.folder.appendingPathComponent("empty.sqlite").path
        try Data().write(to: URL(fileURLWithPath: empty))
        let text = folder.folder.appendingPathComponent("notes.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        let other = folder.folder.appendingPathComponent("other.sqlite").path
        try await DatabaseQueue(path: other).write { db in try db.execute(sql: "CREATE TABLE accounts (id INTEGER)") }
        for path in [empty, text, other] {
            let before = try Self.bytes(path)
            for arguments in [["census", "--database", path, "--retire-below", "3"], ["upgrade", "--database", path]] {
                let run = try await Self.start(arguments).finish()
                #expect(run.status == 66, "\(arguments)")
                #expect(run.errors.contains("is not a document store"), "\(arguments)")
            }
            #expect(try Self.bytes(path) == before)
        }
    }

    @Test("Settings out of range are refused by the library's own check, with status 64")
    func validation() async throws {
        let store = try Self.store(count: 10)
        let zero = try await Self.run("upgrade", "--database", store.path, "--batch-size", "0")
        #expect(zero.status == 64)
        #expect(zero.errors.contains("batchSize is 0, but it must be at least 1"))
        let pause = try await Self.run("upgrade", "--database", store.path, "--pause", "-1")
        #expect(pause.status == 64)
        let retire = try await Self.run("census", "--database", store.path, "--retire-below=-5")
        #expect(retire.status == 64)
        #expect(try await Self.run("demo", "--database", store.path, "--batch-size", "0", "--no-generate").status == 64)
    }

    @Test("A target the chain cannot write is refused, naming the type, and no checkpoint is finished")
    func unreachableTarget() async throws {
        let store = try Self.store(count: 50)
        let before = try store.database.allBodies()
        let run = try await Self.run("upgrade", "--database", store.path, "--to", "2")
        #expect(run.status == 1)
        #expect(run.errors.contains("Note has no downgraded() step"))
        #expect(try store.database.allBodies() == before)
        #expect(try await store.database.checkpoint(named: "upgrade@v2") == nil)
    }

    @Test("Census and upgrade print JSON, and the retirement check's status follows the upgrade")
    func json() async throws {
        let store = try Self.store(count: 200)
        let census = try await Self.run("census", "--database", store.path, "--retire-below", "3", "--json")
        #expect(census.status == 3)
        let counted = try JSONSerialization.jsonObject(with: Data(census.output.utf8)) as? [String: Any]
        #expect(counted?["total"] as? Int == 200)
        #expect(counted?["mayRetire"] as? Bool == false)
        let upgrade = try await Self.run("upgrade", "--database", store.path, "--json", "--batch-size", "64")
        #expect(upgrade.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(upgrade.output.utf8)) as? [String: Any]
        #expect(report?["examined"] as? Int == 200)
        #expect(report?["target"] as? String == "v3")
        #expect(report?["leftBehind"] as? Int == 0)
        #expect(try await Self.run("census", "--database", store.path, "--retire-below", "3").status == 0)
    }

    @Test("An empty store cannot tell that old versions may be retired: status 3")
    func emptyStore() async throws {
        let store = try TemporaryDatabase()
        let run = try await Self.run("census", "--database", store.path, "--retire-below", "3")
        #expect(run.status == 3)
        #expect(run.output.contains("cannot tell, no note is stored"))
        let json = try await Self.run("census", "--database", store.path, "--retire-below", "3", "--json")
        #expect(json.status == 3)
        let counted = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(counted?["total"] as? Int == 0)
        #expect(counted?["mayRetire"] as? Bool == false)
    }

    @Test("An upgrade that leaves notes below the target exits with status 4")
    func leftBehind() async throws {
        let store = try Self.store(count: 20)
        try await store.database.queue.write { db in
            try db.execute(sql: "INSERT INTO documents (id, body) VALUES (100001, 'not json')")
        }
        let run = try await Self.run("upgrade", "--database", store.path)
        #expect(run.status == 4)
        #expect(run.output.contains("1 unreadable kept"))
    }

    @Test("While another connection holds the database, the upgrade says so and waits for it")
    func waitsForALock() async throws {
        let store = try Self.store(count: 100)
        let holder = try Self.holder(of: store.path)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let child = try Self.start(["upgrade", "--database", store.path])
        try await Task.sleep(nanoseconds: 1_500_000_000)
        #expect(child.process.isRunning)
        try holder.inDatabase { db in try db.execute(sql: "COMMIT") }
        let run = await child.finish()
        #expect(run.status == 0)
        #expect(run.errors.contains("another process holds the database"))
        #expect(run.output.contains("upgraded"))
    }

    @Test("Ctrl-C ends the progress line, says how to resume, and the next run resumes")
    func interrupt() async throws {
        let store = try Self.store(count: 2_000)
        let child = try Self.start([
            "upgrade", "--database", store.path, "--batch-size", "10", "--pause", "0.1",
        ])
        try await Task.sleep(nanoseconds: 1_500_000_000)
        child.process.interrupt()
        let run = await child.finish()
        #expect(run.status == 130)
        #expect(run.errors.contains("Run the same command again to resume from checkpoint upgrade@v3"))
        #expect(run.errors.hasSuffix("\n"))
        let again = try await Self.run("upgrade", "--database", store.path, "--json")
        #expect(again.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(again.output.utf8)) as? [String: Any]
        #expect(report?["resumed"] as? Bool == true)
    }
}
