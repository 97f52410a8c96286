import Benchmark
import BenchmarkDocuments

// Every row of the ratio report as benchmarks, the two floors beside the versioned operation,
// so that package-benchmark's own statistics and comparisons between runs cover them too. The
// ratios come from `ratio-report`, which interleaves the three, and the regression gate from
// `instruction-gate`, which counts instructions under Callgrind.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000
    )
    // 10,000 notes rather than the table's 100,000, so that a run takes seconds, not minutes.
    for ratioCase in RatioCase.all(itemCount: 10_000) {
        Benchmark("\(ratioCase.name) plain") { benchmark in
            for _ in benchmark.scaledIterations {
                try ratioCase.floor()
            }
        }
        if let floorWithVersion = ratioCase.floorWithVersion {
            Benchmark("\(ratioCase.name) plain + version") { benchmark in
                for _ in benchmark.scaledIterations {
                    try floorWithVersion()
                }
            }
        }
        Benchmark("\(ratioCase.name) versioned") { benchmark in
            for _ in benchmark.scaledIterations {
                try ratioCase.versioned()
            }
        }
    }
}
