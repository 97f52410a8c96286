// swift-tools-version: 6.1

import PackageDescription

// Benchmarks live in their own package so that the library itself keeps no dependencies.
let package = Package(
    name: "VersionedCodableBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "VersionedCodable", path: ".."),
        .package(
            url: "https://github.com/ordo-one/package-benchmark",
            from: "1.38.1",
            traits: ["MallocInterposer"]
        ),
        // The same interposer package-benchmark uses, for the ratio report's allocation counts.
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
    ],
    targets: [
        // The documents, types and plain floors shared by the benchmarks and the ratio report.
        .target(
            name: "BenchmarkDocuments",
            // By product name: the root package's identity is its folder's name, which differs
            // between checkouts.
            dependencies: [
                .product(name: "VersionedCodable", package: "VersionedCodable"),
                .product(name: "VersionedCodableAPI", package: "VersionedCodable"),
            ]
        ),
        .executableTarget(
            name: "VersionedDecoding",
            dependencies: [
                "BenchmarkDocuments",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/VersionedDecoding",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // Callgrind's client requests, so that the gate counts only the operations it measures.
        .target(name: "CallgrindControl"),
        // The regression gate that CI runs: instruction and allocation counts per row against
        // the committed thresholds in Thresholds/.
        .executableTarget(
            name: "instruction-gate",
            dependencies: [
                "BenchmarkDocuments",
                "CallgrindControl",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // A newer document with 10 MB of fields the older build keeps: time and peak memory of
        // reading and writing it back, against a plain type with every field.
        .executableTarget(
            name: "large-newer-document",
            dependencies: ["BenchmarkDocuments"]
        ),
        // An API version's merge on a 5,000- and a 50,000-element array: about linear, or it fails.
        .executableTarget(
            name: "merge-scaling",
            dependencies: ["BenchmarkDocuments"]
        ),
        // Deriving the schemas of 100 chains of 10 versions, and the schema check on the 1,000
        // files they make, each timed in a release build (median of rounds); the check runs the
        // built schema-check program, as the command plugin does.
        .executableTarget(
            name: "schema-timing",
            dependencies: [
                .product(name: "VersionedCodable", package: "VersionedCodable"),
                .product(name: "VersionedCodableSchema", package: "VersionedCodable"),
                .product(name: "schema-check", package: "VersionedCodable"),
            ]
        ),
        .executableTarget(
            name: "ratio-report",
            dependencies: [
                "BenchmarkDocuments",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
