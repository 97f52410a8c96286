// The performance regression gate: fails when a row of the ratio table costs more than its
// committed threshold.
//
// Wall-clock ratios on a shared 2-core machine move by several percent between runs, which is
// more than the regressions worth catching, so the gate counts instead:
// - instructions per operation, under Valgrind's Callgrind, which counts the program's own
//   instructions and is the same from run to run (hashing is made deterministic for it, since
//   Swift seeds its hashes per process and the decoders hash keys), less the runtime's probing
//   of tables keyed by address, which moves between builds (see `isAddressDependent`). The
//   gate compares the versioned operation with its floor measured in the same process, so
//   that a change in Foundation or the compiler moves both sides and only the library's own
//   cost is judged.
// - allocations per operation, counted by the malloc interposer, which are exact.
//
//     swift run -c release --package-path Benchmarks instruction-gate            # check
//     swift run -c release --package-path Benchmarks instruction-gate --record   # new thresholds
//
// The process runs itself under `valgrind --tool=callgrind` with the `measure` argument. That
// child switches counting on around each batch of operations and writes one profile per batch,
// named after the case and side; the parent reads the profiles' totals.

import BenchmarkDocuments
import CallgrindControl
import Foundation
import MallocInterposerSwift

/// The thresholds of one row, as committed in `Thresholds/instruction-gate.json`.
struct RowThreshold: Codable {
    /// The highest acceptable ratio of the versioned operation's instructions to the floor's.
    var maximumInstructionRatio: Double
    /// Which floor the ratio is taken over: "plain + version" where the row has it, else
    /// "plain".
    var floor: String
    /// The most allocations the versioned operation may make beyond the floor's.
    var maximumExtraMallocs: Double
    /// What was measured when the thresholds were recorded, for the reader.
    var recordedInstructionRatio: Double
    /// What was measured when the thresholds were recorded, for the reader.
    var recordedExtraMallocs: Double
}

/// The committed file.
struct Thresholds: Codable {
    /// How much above the recorded ratio a run may be, as a fraction, so that a
    /// toolchain's few instructions of drift do not fail the gate. Allocation counts get no
    /// slack: they are exact.
    var tolerance: Double
    /// How many notes the `[Versioned<Note>]` row's document holds in the gate.
    var itemCount: Int
    var rows: [String: RowThreshold]
}

/// The operations counted per row. "1.2" is VersionedCodable 1.2's method rebuilt on this
/// package (`OneTwoMethod`), and "1.2+watch" the same with the least key check a writer that
/// refuses clashes makes, both printed for comparison and never judged.
let sides = ["plain", "plain+version", "versioned", "1.2", "1.2+watch"]

/// Operations counted per side: enough to spread what a first call costs, few enough for
/// Callgrind to be quick. The large document's operations are long already.
func operationCount(of ratioCase: RatioCase) -> Int {
    ratioCase.name == "versioned-array-decode" ? 2 : 20
}

func operation(_ ratioCase: RatioCase, side: String) -> (@Sendable () throws -> Void)? {
    switch side {
    case "plain": return ratioCase.floor
    case "plain+version": return ratioCase.floorWithVersion
    case "1.2": return ratioCase.oneTwoMethod
    case "1.2+watch": return ratioCase.oneTwoMethodWatchingKeys
    default: return ratioCase.versioned
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("instruction-gate: \(message)\n".utf8))
    exit(2)
}

// MARK: - The child, under Callgrind

func measureUnderCallgrind(itemCount: Int) throws {
    for ratioCase in RatioCase.all(itemCount: itemCount) {
        for side in sides {
            guard let run = operation(ratioCase, side: side) else {
                continue
            }
            // The first calls fill caches (the chain, the spec tree, Foundation's own), which
            // every later call finds filled.
            try run()
            try run()
            let count = operationCount(of: ratioCase)
            callgrind_control_start()
            for _ in 0..<count {
                try run()
            }
            callgrind_control_stop_and_dump("\(ratioCase.name)|\(side)|\(count)")
        }
    }
}

// MARK: - The parent

/// Instructions per operation, by case and side, from the profiles in `folder`: each
/// profile's total without what ``isAddressDependent(_:)`` names.
///
/// Fails where no profile has any of it, which every versioned operation has: Callgrind's
/// names for those functions would have changed, and the counts would move between builds again.
func readProfiles(in folder: URL) throws -> [String: [String: Double]] {
    var counts: [String: [String: Double]] = [:]
    var excludedAnywhere = false
    for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
        let text = try String(contentsOf: file, encoding: .utf8)
        var name: String?
        var total: Double?
        // Callgrind names a function in full once per profile, then by its number.
        var functionNames: [Substring: Substring] = [:]
        var function: Substring?
        var costs: [Substring: Double] = [:]
        var nextIsCallCost = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("desc: Trigger: Client Request: ") {
                name = String(line.dropFirst("desc: Trigger: Client Request: ".count))
            } else if line.hasPrefix("totals: ") || line.hasPrefix("summary: ") {
                total = line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
            } else if line.hasPrefix("fn=") || line.hasPrefix("cfn=") {
                // `fn=(12) name` or `fn=(12)`, and the same for a callee.
                let named = line.drop { $0 != "(" }.dropFirst()
                let number = named.prefix { $0 != ")" }
                let rest = named.dropFirst(number.count + 1).drop { $0 == " " }
                if !rest.isEmpty {
                    functionNames[number] = rest
                }
                if line.hasPrefix("fn=") {
                    function = number
                }
            } else if line.hasPrefix("calls=") {
                // The next line is what the call cost, counted in the callee's own lines.
                nextIsCallCost = true
            } else if let first = line.first, first.isNumber || first == "+" || first == "-" || first == "*" {
                if nextIsCallCost {
                    nextIsCallCost = false
                } else if let function, let cost = line.split(separator: " ").last.flatMap({ Double($0) }) {
                    costs[function, default: 0] += cost
                }
            }
        }
        guard let name, let total else {
            continue
        }
        let parts = name.split(separator: "|").map(String.init)
        guard parts.count == 3, let operations = Double(parts[2]) else {
            continue
        }
        let excluded = costs.reduce(0) { sum, entry in
            sum + (functionNames[entry.key].map(isAddressDependent) == true ? entry.value : 0)
        }
        counts[parts[0], default: [:]][parts[1]] = (total - excluded) / operations
        excludedAnywhere = excludedAnywhere || excluded > 0
    }
    if !excludedAnywhere {
        fail("no profile names the runtime's table probing that the counts leave out; see isAddressDependent")
    }
    return counts
}

/// Whether `function` is the Swift runtime probing its tables of generic type metadata and of
/// protocol conformances: comparing a key with the one in a slot, and walking to the next slot.
/// The tables are keyed by the types' addresses, which move whenever any code changes, so how
/// many slots one lookup walks, and the instructions it takes, changes between two builds of the
/// same source: a row moved by up to 6% that way. Left out, a row repeats between builds to
/// within about 0.2%; the lookups themselves are still counted.
func isAddressDependent(_ function: Substring) -> Bool {
    function.contains("MetadataCacheKey::operator==") || function.contains("ConcurrentReadableHashMap")
}

func mallocsPerOperation(_ operation: () throws -> Void, count: Int) rethrows -> Double {
    try operation()
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    for _ in 0..<count {
        try operation()
    }
    MallocInterposerSwift.unhook()
    return Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(count)
}

func runCallgrind(itemCount: Int, into folder: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "valgrind", "--tool=callgrind", "--collect-atstart=no", "--dump-line=no",
        "--callgrind-out-file=\(folder.path)/callgrind.out",
        CommandLine.arguments[0], "measure", "--items", "\(itemCount)",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let log = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        fail("valgrind failed (\(process.terminationStatus)):\n\(String(decoding: log, as: UTF8.self))")
    }
}

func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let thresholdsPath =
    arguments.firstIndex(of: "--thresholds").map { arguments[$0 + 1] }
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Thresholds/instruction-gate.json").path

if arguments.first == "measure" {
    let items = arguments.firstIndex(of: "--items").flatMap { Int(arguments[$0 + 1]) } ?? 1_000
    try measureUnderCallgrind(itemCount: items)
    exit(0)
}

guard callgrind_control_available() != 0 else {
    fail("built without <valgrind/callgrind.h>; install valgrind and rebuild")
}
let recording = arguments.contains("--record")
let committed = try? JSONDecoder().decode(Thresholds.self, from: Data(contentsOf: URL(fileURLWithPath: thresholdsPath)))
if !recording && committed == nil {
    fail("no thresholds at \(thresholdsPath); run with --record to write them")
}
// Instruction counts repeat exactly for one build and, without the runtime's probing of its
// address-keyed tables (see `isAddressDependent`), to within about 0.2% between builds: 2%
// leaves room for a toolchain's drift and fails a change that costs a row more than that. The
// allocation counts do not move, so they are checked exactly.
let tolerance = committed?.tolerance ?? 0.02
let itemCount = committed?.itemCount ?? 1_000

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("instruction-gate-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
try runCallgrind(itemCount: itemCount, into: folder)
let instructions = try readProfiles(in: folder)

print("Instruction gate: instructions and allocations per operation, versioned against its floor")
print("")
print(
    "| case | floor | instructions plain / floor → versioned | vs plain | vs floor (max) "
        + "| extra mallocs (max) | passes | 1.2's method vs plain | 1.2's method watching keys vs plain |"
)
print("|---|---|---|---|---|---|---|---|---|")
var recorded: [String: RowThreshold] = [:]
var passed = true
for ratioCase in RatioCase.all(itemCount: itemCount) {
    let floorSide = ratioCase.floorWithVersion == nil ? "plain" : "plain+version"
    guard let floorRun = operation(ratioCase, side: floorSide),
        let floorCount = instructions[ratioCase.name]?[floorSide],
        let versionedCount = instructions[ratioCase.name]?["versioned"]
    else {
        fail("no profile for \(ratioCase.name)")
    }
    let ratio = versionedCount / floorCount
    let plainCount = instructions[ratioCase.name]?["plain"] ?? .nan
    let oneTwoRatio = instructions[ratioCase.name]?["1.2"].map { format($0 / plainCount, 4) } ?? "—"
    let watchingRatio = instructions[ratioCase.name]?["1.2+watch"].map { format($0 / plainCount, 4) } ?? "—"
    let mallocCount = operationCount(of: ratioCase) * 5
    let extraMallocs =
        try mallocsPerOperation(ratioCase.versioned, count: mallocCount)
        - mallocsPerOperation(floorRun, count: mallocCount)
    let threshold =
        recording
        ? RowThreshold(
            // An instruction maximum only ever gets stricter: a committed one below the new one
            // is kept. Allocations are recorded as counted.
            maximumInstructionRatio: min(
                (ratio * (1 + tolerance) * 10_000).rounded(.up) / 10_000,
                committed?.rows[ratioCase.name]?.maximumInstructionRatio ?? .infinity
            ),
            floor: floorSide,
            maximumExtraMallocs: extraMallocs.rounded(.up),
            recordedInstructionRatio: (ratio * 10_000).rounded() / 10_000,
            recordedExtraMallocs: extraMallocs
        )
        : committed?.rows[ratioCase.name]
    guard let threshold else {
        fail("no threshold for \(ratioCase.name); run with --record")
    }
    recorded[ratioCase.name] = threshold
    let passes = ratio <= threshold.maximumInstructionRatio && extraMallocs <= threshold.maximumExtraMallocs
    passed = passed && passes
    print(
        "| \(ratioCase.name) | \(floorSide) "
            + "| \(format(plainCount, 0)) / \(format(floorCount, 0)) → \(format(versionedCount, 0)) "
            + "| \(format(versionedCount / plainCount, 4)) | \(format(ratio, 4)) (\(format(threshold.maximumInstructionRatio, 4))) "
            + "| \(format(extraMallocs, 1)) (\(format(threshold.maximumExtraMallocs, 1))) "
            + "| \(passes ? "yes" : "NO: regressed") | \(oneTwoRatio) | \(watchingRatio) |"
    )
}
print("")
if recording {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let file = Thresholds(tolerance: tolerance, itemCount: itemCount, rows: recorded)
    try encoder.encode(file).write(to: URL(fileURLWithPath: thresholdsPath))
    print("Thresholds written to \(thresholdsPath).")
} else if passed {
    print("Every row is within its threshold.")
} else {
    print("A row regressed. If the cost is intended, record new thresholds with --record and commit them.")
    exit(1)
}
