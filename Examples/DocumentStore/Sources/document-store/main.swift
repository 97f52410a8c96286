import DocumentStore
import Foundation

// document-store [--database PATH] [--count N] [--seed S] [--batch-size N] [--no-generate] [--no-upgrade]
// document-store census --database PATH [--decode] [--retire-below N]
// document-store upgrade --database PATH [--to VERSION] [--batch-size N] [--pause S] [--dry-run]
//
// With no arguments: make a new database in a temporary folder, fill it with 10,000 notes of
// every version, print the counts per stored version, upgrade every note that is not at the
// current version, and print the counts again. `census` and `upgrade` work on a database that
// exists (see StoreCommands).

struct Options {
    var databasePath: String?
    var count = 10_000
    var seed: UInt64 = 42
    var batchSize = 500
    var generate = true
    var upgrade = true

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--database": databasePath = try Self.value(after: argument, in: &remaining)
            case "--count": count = try Self.number(after: argument, in: &remaining)
            case "--seed": seed = UInt64(try Self.number(after: argument, in: &remaining))
            case "--batch-size": batchSize = try Self.number(after: argument, in: &remaining)
            case "--no-generate": generate = false
            case "--no-upgrade": upgrade = false
            case "--help", "-h": throw UsageError(message: nil, usage: UsageError.usage + "\n" + StoreCommands.usage)
            default: throw UsageError(message: "unknown argument \(argument)")
            }
        }
    }

    private static func value(after flag: String, in remaining: inout ArraySlice<String>) throws -> String {
        guard let value = remaining.popFirst() else {
            throw UsageError(message: "\(flag) needs a value")
        }
        return value
    }

    private static func number(after flag: String, in remaining: inout ArraySlice<String>) throws -> Int {
        let text = try value(after: flag, in: &remaining)
        guard let number = Int(text), number >= 0 else {
            throw UsageError(message: "\(flag) needs a non-negative whole number, not \(text)")
        }
        return number
    }
}

struct UsageError: Error {
    let message: String?
    var usage = Self.usage

    static let usage = """
        usage: document-store [--database PATH] [--count N] [--seed S] [--batch-size N] [--no-generate] [--no-upgrade]
          --database PATH  SQLite file to use (default: a new file in a temporary folder)
          --count N        documents to generate (default 10000)
          --seed S         seed for the generated documents (default 42)
          --batch-size N   documents per upgrade transaction (default 500)
          --no-generate    upgrade an existing database without adding documents
          --no-upgrade     only generate and count, leaving the documents for `upgrade`
        """
}

func run(_ options: Options) throws {
    let temporaryPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("document-store-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
    let path = options.databasePath ?? temporaryPath
    // A database the program made for itself is removed at the end; one it was given is kept.
    defer {
        if options.databasePath == nil {
            try? FileManager.default.removeItem(atPath: temporaryPath)
        }
    }
    let database = try DocumentDatabase(path: path)
    print("database: \(path)\(options.databasePath == nil ? " (temporary, removed at the end)" : "")")

    if options.generate {
        let start = Date()
        try DocumentGenerator(seed: options.seed).fill(database, count: options.count)
        print("generated \(options.count) documents (seed \(options.seed)) in \(seconds(since: start))")
    }
    print("documents per stored version, before:\n\(try database.countsByStoredVersion())")
    guard options.upgrade else {
        return
    }

    let start = Date()
    let report = try DocumentUpgrader(batchSize: options.batchSize).upgrade(database)
    print(
        "read \(report.read), upgraded \(report.migrated) in \(report.batches) transactions "
            + "in \(seconds(since: start))"
    )
    if !report.undecodable.isEmpty {
        print(
            "left \(report.undecodable.count) documents that do not decode: ids \(report.undecodable.prefix(20))"
        )
    }
    print("documents per stored version, after:\n\(try database.countsByStoredVersion())")
}

func seconds(since start: Date) -> String {
    String(format: "%.2f s", Date().timeIntervalSince(start))
}

do {
    let arguments = CommandLine.arguments.dropFirst()
    switch arguments.first {
    case "census": exit(try await StoreCommands.census(arguments.dropFirst()))
    case "upgrade": exit(try await StoreCommands.upgrade(arguments.dropFirst()))
    default: try run(Options(arguments: Array(arguments)))
    }
} catch let error as UsageError {
    if let message = error.message {
        FileHandle.standardError.write(Data("document-store: \(message)\n".utf8))
    }
    FileHandle.standardError.write(Data((error.usage + "\n").utf8))
    exit(error.message == nil ? 0 : 64)
} catch {
    FileHandle.standardError.write(Data("document-store: \(error)\n".utf8))
    exit(1)
}
