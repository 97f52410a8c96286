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
//     swift run -c release --package-path Benchmarks ratio-report [--rounds N] [--case NAME]

import BenchmarkDocuments
import Foundation
import MallocInterposerSwift

struct Options {
    var rounds = 201
    var batchNanoseconds: UInt64 = 1_000_000
    var only: String?

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--rounds":
                rounds = iterator.next().flatMap(Int.init) ?? rounds
            case "--case":
                only = iterator.next()
            case "--batch-ms":
                batchNanoseconds = (iterator.next().flatMap(UInt64.init) ?? 1) * 1_000_000
            default:
                print("usage: ratio-report [--rounds N] [--batch-ms MS] [--case NAME]")
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
func mallocsPerOperation(_ operation: () throws -> Void) rethrows -> Double {
    let count = 200
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
    var ratio: Double
    var floorNanoseconds: Double
    var versionedNanoseconds: Double
    var floorMallocs: Double
    var versionedMallocs: Double

    var meetsTimeGoal: Bool { ratio <= ratioCase.goal }
    var meetsAllocationGoal: Bool { !ratioCase.checksAllocations || versionedMallocs <= floorMallocs + 5 }
}

func measure(_ ratioCase: RatioCase, options: Options) throws -> Row {
    for _ in 0..<200 {
        try ratioCase.floor()
        try ratioCase.versioned()
    }
    // A batch long enough for the clock's resolution and a scheduler tick not to matter.
    var batch = 1
    while try timeBatch(ratioCase.floor, count: batch) < options.batchNanoseconds / 4 {
        batch *= 2
    }
    batch *= 4

    var ratios: [Double] = []
    var floorTimes: [Double] = []
    var versionedTimes: [Double] = []
    for round in 0..<options.rounds {
        let floorTime: UInt64
        let versionedTime: UInt64
        if round.isMultiple(of: 2) {
            floorTime = try timeBatch(ratioCase.floor, count: batch)
            versionedTime = try timeBatch(ratioCase.versioned, count: batch)
        } else {
            versionedTime = try timeBatch(ratioCase.versioned, count: batch)
            floorTime = try timeBatch(ratioCase.floor, count: batch)
        }
        ratios.append(Double(versionedTime) / Double(floorTime))
        floorTimes.append(Double(floorTime) / Double(batch))
        versionedTimes.append(Double(versionedTime) / Double(batch))
    }
    return Row(
        ratioCase: ratioCase,
        ratio: median(ratios),
        floorNanoseconds: median(floorTimes),
        versionedNanoseconds: median(versionedTimes),
        floorMallocs: try mallocsPerOperation(ratioCase.floor),
        versionedMallocs: try mallocsPerOperation(ratioCase.versioned)
    )
}

func format(_ value: Double, decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

let options = Options(arguments: CommandLine.arguments)
let cases = RatioCase.all.filter { options.only == nil || $0.name == options.only }
if cases.isEmpty {
    print("no case named \(options.only ?? ""); cases: \(RatioCase.all.map(\.name).joined(separator: ", "))")
    exit(2)
}

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
    "| case | 1.2 line | goal | ratio | plain ns | versioned ns | mallocs plain | mallocs versioned | met |"
)
print("|---|---|---|---|---|---|---|---|---|")
var allMet = true
for ratioCase in cases {
    let row = try measure(ratioCase, options: options)
    let met = row.meetsTimeGoal && row.meetsAllocationGoal && interposerCounts
    allMet = allMet && met
    let cells = [
        ratioCase.title,
        ratioCase.oldFigure,
        "<= \(format(ratioCase.goal, decimals: 2))x",
        "\(format(row.ratio, decimals: 3))x",
        format(row.floorNanoseconds, decimals: 0),
        format(row.versionedNanoseconds, decimals: 0),
        format(row.floorMallocs, decimals: 1),
        format(row.versionedMallocs, decimals: 1),
        met ? "yes" : "NO",
    ]
    print("| " + cells.joined(separator: " | ") + " |")
}
print("")
if !interposerCounts {
    print("The malloc interposer counted nothing: allocation figures are missing.")
}
print(allMet ? "All goals met." : "Some goals were not met.")
