import Foundation
import VersionedCodable
import VersionedCodableSchema

// Times the two schema figures the DocC article "Deriving and locking schemas" promises, in a
// release build:
//
// - deriving the schemas of every version of 100 chains of 10 versions (SchemaChains.swift,
//   written by Scripts/generate-schema-chains.py): under 1 s;
// - the schema check on the 1,000 files they make, committed to a git repository in a
//   temporary folder and then changed in a few places, run as `schema-check --against HEAD`,
//   the program the check-schemas command plugin runs: under 2 s.
//
// Each figure is the median of the rounds' wall-clock times. The program exits with 1 when a
// median misses its goal, or when a round did not do the work it times.
//
//     swift run -c release --package-path Benchmarks schema-timing            # 7 rounds
//     swift run -c release --package-path Benchmarks schema-timing --rounds 3

struct Options {
    var rounds = 7

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--rounds":
                guard let value = remaining.popFirst().flatMap(Int.init), value > 0 else {
                    throw TimingError("--rounds needs a positive number")
                }
                rounds = value
            default:
                throw TimingError("unknown argument '\(argument)'; use --rounds <n>")
            }
        }
    }
}

struct TimingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func median(_ values: [Duration]) -> Duration {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
}

func derive<Newest: VersionedCodable>(_ type: Newest.Type) -> VersionSchemas {
    VersionSchemas(for: Newest.self)
}

/// Derives every chain's schemas once.
func deriveAll() -> [VersionSchemas] {
    schemaChainNewestTypes.map { derive($0) }
}

/// Runs a program and returns its exit status and what it wrote to standard output.
@discardableResult
func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}

func git(_ arguments: [String], in directory: URL) throws {
    let config = [
        "-c", "user.name=Schema Timing", "-c", "user.email=timing@example.invalid", "-c", "commit.gpgsign=false",
    ]
    let result = try run(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + config + arguments, in: directory)
    guard result.status == 0 else {
        throw TimingError("git \(arguments.joined(separator: " ")) failed with status \(result.status)")
    }
}

/// Writes every schema into `<repository>/Schemas/<type>/<file>`, commits them, then changes a
/// shipped version's file in ten chains and adds a new version to five, so that the check
/// finds breaking changes and new versions to compare as well as unchanged files.
func makeRepository(with derived: [VersionSchemas]) throws -> (folder: URL, files: Int) {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("schema-timing-\(UUID().uuidString)", isDirectory: true)
    let schemas = folder.appendingPathComponent("Schemas", isDirectory: true)
    var files = 0
    for chain in derived {
        let typeFolder = schemas.appendingPathComponent(chain.typeName, isDirectory: true)
        try FileManager.default.createDirectory(at: typeFolder, withIntermediateDirectories: true)
        for version in chain.schemas {
            try version.schema.jsonData().write(to: typeFolder.appendingPathComponent(version.fileName))
            files += 1
        }
    }
    try git(["init", "-q"], in: folder)
    try git(["add", "."], in: folder)
    try git(["commit", "-q", "-m", "Schemas"], in: folder)
    for chain in derived.prefix(10) {
        guard var schema = chain[schemaChainVersions] else { continue }
        schema.properties?["count"] = JSONSchema(type: "string")
        try schema.jsonData().write(
            to: schemas.appendingPathComponent("\(chain.typeName)/v\(schemaChainVersions).schema.json")
        )
    }
    for chain in derived.suffix(5) {
        guard var schema = chain[schemaChainVersions] else { continue }
        schema.properties?["version"]?.constValue = .number(Decimal(schemaChainVersions + 1))
        schema.properties?["later"] = JSONSchema(type: "string")
        schema.required = (schema.required ?? []) + ["later"]
        try schema.jsonData().write(
            to: schemas.appendingPathComponent("\(chain.typeName)/v\(schemaChainVersions + 1).schema.json")
        )
    }
    return (folder, files)
}

func main() throws {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    let tool = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("schema-check")
    guard FileManager.default.isExecutableFile(atPath: tool.path) else {
        throw TimingError("schema-check is not built beside this program at \(tool.path)")
    }

    var derivations: [Duration] = []
    var derived: [VersionSchemas] = []
    let clock = ContinuousClock()
    for _ in 0..<options.rounds {
        let start = clock.now
        derived = deriveAll()
        derivations.append(clock.now - start)
    }
    let schemaCount = derived.reduce(0) { $0 + $1.schemas.count }
    let incomplete = derived.flatMap(\.schemas).filter { $0.schema.isIncomplete }.count
    guard schemaCount == schemaChainNewestTypes.count * schemaChainVersions, incomplete == 0 else {
        throw TimingError("derived \(schemaCount) schemas, \(incomplete) of them incomplete")
    }

    let (repository, files) = try makeRepository(with: derived)
    defer { try? FileManager.default.removeItem(at: repository) }
    var checks: [Duration] = []
    for _ in 0..<options.rounds {
        let start = clock.now
        let result = try run(tool, ["--against", "HEAD", "--schemas", "Schemas", "--format", "json"], in: repository)
        checks.append(clock.now - start)
        let report = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
        // Ten shipped versions changed and five new ones added: a breaking change, status 1.
        guard result.status == 1, let compared = report?["filesCompared"] as? Int, compared == 2 * files + 5 else {
            throw TimingError(
                "schema-check exited with \(result.status) and compared \(report?["filesCompared"] ?? "nothing")"
            )
        }
    }

    let deriveMedian = median(derivations)
    let checkMedian = median(checks)
    let deriveGoal = Duration.seconds(1)
    let checkGoal = Duration.seconds(2)
    print("Schema timing, release build, median of \(options.rounds) rounds")
    print("| case | median | goal | met |")
    print("|---|---|---|---|")
    print(
        "| derive \(schemaChainNewestTypes.count) chains x \(schemaChainVersions) versions (\(schemaCount) schemas) "
            + "| \(milliseconds(deriveMedian)) | < 1000 ms | \(deriveMedian < deriveGoal ? "yes" : "no") |"
    )
    print(
        "| schema-check --against HEAD on \(files) files (+5 new) "
            + "| \(milliseconds(checkMedian)) | < 2000 ms | \(checkMedian < checkGoal ? "yes" : "no") |"
    )
    if deriveMedian >= deriveGoal || checkMedian >= checkGoal {
        exit(1)
    }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(64)
}
