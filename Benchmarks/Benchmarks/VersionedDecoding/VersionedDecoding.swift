import Benchmark
import BenchmarkDocuments

// Every row of the ratio report as a pair of benchmarks, the plain floor beside the versioned
// operation, so that package-benchmark's own statistics, thresholds and comparisons between
// runs cover them too. The ratio itself comes from `ratio-report`, which interleaves the two.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000
    )
    for ratioCase in RatioCase.all {
        Benchmark("\(ratioCase.name) plain") { benchmark in
            for _ in benchmark.scaledIterations {
                try ratioCase.floor()
            }
        }
        Benchmark("\(ratioCase.name) versioned") { benchmark in
            for _ in benchmark.scaledIterations {
                try ratioCase.versioned()
            }
        }
    }
}
