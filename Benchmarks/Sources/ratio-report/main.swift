// Prints how much versioning costs over plain Codable on this machine.
//
// Each case runs its plain floor and its versioned operation round-robin in this one process:
// a round times a batch of each (the order alternates between rounds, so neither always runs
// on a warmer cache), and the row's figure is the median of the per-round ratios. Load from
// other processes slows both halves of a round alike, which is why rounds are paired.
//
// Allocations are counted with the malloc interposer linked into this executable: its
// counters are switched on around a number of operations and divided by that number.
//
//     swift run -c release --package-path Benchmarks ratio-report [--rounds N] [--items N] [--case NAME]

import BenchmarkDocuments
import Foundation
import MallocInterposerSwift

struct Options {
    var rounds = 201
    var batchNanoseconds: UInt64 = 1_000_000
    var only: String?
    /// How many notes the `[Versioned<Note>]` row's document holds.
    var items = 100_000

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--rounds":
                rounds = iterator.next().flatMap(Int.init) ?? rounds
            case "--case":
                only = iterator.next()
            case "--items":
                items = iterator.next().flatMap(Int.init) ?? items
            case "--batch-ms":
                batchNanoseconds = (iterator.next().flatMap(UInt64.init) ?? 1) * 1_000_000
            default:
                print("usage: ratio-report [--rounds N] [--batch-ms MS] [--items N] [--case NAME]")
                exit(2)
            }
        }
    }
}

func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

func timeBatch(_ operation: () throws -> Void, count: Int) rethrows -> UInt64 {
    let start = now()
    for _ in 0..<count {
        try operation()
    }
    return now() - start
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Mallocs per operation, averaged over enough operations to hide one-off allocations.
func mallocsPerOperation(_ operation: () throws -> Void, count: Int) rethrows -> Double {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    for _ in 0..<count {
        try operation()
    }
    MallocInterposerSwift.unhook()
    return Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(count)
}

struct Row {
    var ratioCase: RatioCase
    /// Median per-round ratio of versioned to plain time.
    var ratio: Double
    /// Median per-round ratio of versioned to "plain + version" time.
    var ratioWithVersion: Double?
    var floorNanoseconds: Double
    var versionedNanoseconds: Double
    var floorMallocs: Double
    var floorWithVersionMallocs: Double?
    var versionedMallocs: Double

    var meetsTimeGoals: Bool {
        guard ratio <= ratioCase.goal else {
            return false
        }
        guard let goal = ratioCase.goalWithVersion, let ratioWithVersion else {
            return true
        }
        return ratioWithVersion <= goal
    }

    var meetsAllocationGoal: Bool {
        guard let allowance = ratioCase.allocationAllowance, let floorWithVersionMallocs else {
            return true
        }
        return versionedMallocs <= floorWithVersionMallocs + Double(allowance)
    }
}

func measure(_ ratioCase: RatioCase, options: Options) throws -> Row {
    let floorWithVersion = ratioCase.floorWithVersion
    // Operations before timing, and operations over which allocations are averaged: fewer for
    // a document that takes milliseconds (the `[Versioned<Note>]` row), whose one-off
    // allocations are lost among its own anyway.
    let isLarge = try timeBatch(ratioCase.floor, count: 1) > 5_000_000
    let warmUp = isLarge ? 2 : 200
    let mallocCount = isLarge ? 3 : 200
    for _ in 0..<warmUp {
        try ratioCase.floor()
        try floorWithVersion?()
        try ratioCase.versioned()
    }
    // A batch long enough for the clock's resolution and a scheduler tick not to matter.
    var batch = 1
    while try timeBatch(ratioCase.floor, count: batch) < options.batchNanoseconds / 4 {
        batch *= 2
    }
    batch *= 4

    var ratios: [Double] = []
    var ratiosWithVersion: [Double] = []
    var floorTimes: [Double] = []
    var versionedTimes: [Double] = []
    for round in 0..<options.rounds {
        // The three halves of a round run in a rotating order, so that none always runs on a
        // warmer cache.
        var floorTime: UInt64 = 0
        var withVersionTime: UInt64 = 0
        var versionedTime: UInt64 = 0
        for slot in 0..<3 {
            switch (slot + round) % 3 {
            case 0: floorTime = try timeBatch(ratioCase.floor, count: batch)
            case 1: withVersionTime = try floorWithVersion.map { try timeBatch($0, count: batch) } ?? 0
            default: versionedTime = try timeBatch(ratioCase.versioned, count: batch)
            }
        }
        ratios.append(Double(versionedTime) / Double(floorTime))
        if floorWithVersion != nil {
            ratiosWithVersion.append(Double(versionedTime) / Double(withVersionTime))
        }
        floorTimes.append(Double(floorTime) / Double(batch))
        versionedTimes.append(Double(versionedTime) / Double(batch))
    }
    return Row(
        ratioCase: ratioCase,
        ratio: median(ratios),
        ratioWithVersion: ratiosWithVersion.isEmpty ? nil : median(ratiosWithVersion),
        floorNanoseconds: median(floorTimes),
        versionedNanoseconds: median(versionedTimes),
        floorMallocs: try mallocsPerOperation(ratioCase.floor, count: mallocCount),
        floorWithVersionMallocs: try floorWithVersion.map { try mallocsPerOperation($0, count: mallocCount) },
        versionedMallocs: try mallocsPerOperation(ratioCase.versioned, count: mallocCount)
    )
}

func format(_ value: Double, decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

let options = Options(arguments: CommandLine.arguments)
if let only = options.only, !RatioCase.names.contains(only) {
    print("no case named \(only); cases: \(RatioCase.names.joined(separator: ", "))")
    exit(2)
}
let cases = RatioCase.all(itemCount: options.items).filter { options.only == nil || $0.name == options.only }

// Without the interposer in the process every count reads zero, which would pass the
// allocation goal by accident.
MallocInterposerSwift.reset()
MallocInterposerSwift.hook()
let probe = [Int](repeating: 1, count: Int.random(in: 100...200))
MallocInterposerSwift.unhook()
let interposerCounts = MallocInterposerSwift.getStatistics().mallocCount > 0 && probe.count > 0

print("VersionedCodable ratio report: \(options.rounds) rounds per case, median of per-round ratios")
print("")
print(
    "| case | 1.2 vs plain | vs plain (goal) | vs plain + version (goal) | plain ns | versioned ns "
        + "| mallocs plain / + version / versioned | met |"
)
print("|---|---|---|---|---|---|---|---|")
var allMet = true
for ratioCase in cases {
    let row = try measure(ratioCase, options: options)
    let met = row.meetsTimeGoals && row.meetsAllocationGoal && interposerCounts
    allMet = allMet && met
    let withVersion =
        row.ratioWithVersion.map { ratio in
            "\(format(ratio, decimals: 3))x (\(ratioCase.goalWithVersion.map { "<= \(format($0, decimals: 2))" } ?? "—"))"
        } ?? "—"
    let mallocs = [row.floorMallocs, row.floorWithVersionMallocs, row.versionedMallocs]
        .map { $0.map { format($0, decimals: 1) } ?? "—" }
        .joined(separator: " / ")
    let cells = [
        ratioCase.title,
        ratioCase.oldFigure,
        "\(format(row.ratio, decimals: 3))x (<= \(format(ratioCase.goal, decimals: 2)))",
        withVersion,
        format(row.floorNanoseconds, decimals: 0),
        format(row.versionedNanoseconds, decimals: 0),
        mallocs + (ratioCase.allocationAllowance.map { " (goal + version +\($0))" } ?? ""),
        met ? "yes" : "NO",
    ]
    print("| " + cells.joined(separator: " | ") + " |")
}
print("")
if !interposerCounts {
    print("The malloc interposer counted nothing: allocation figures are missing.")
}
print(allMet ? "All goals met." : "Some goals were not met.")
