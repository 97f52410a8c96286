// swift-tools-version: 6.0

import PackageDescription

// A libFuzzer target for versioned decoding, in its own package so that the root package is
// not built with the fuzzer's instrumentation. Build and run it with `./run.sh [seconds]`.
let package = Package(
    name: "VersionedCodableFuzz",
    dependencies: [
        // Named, because a path dependency's identity is otherwise its folder's name, which
        // differs between checkouts.
        .package(name: "VersionedCodable", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "FuzzVersionedDecoding",
            dependencies: [.product(name: "VersionedCodable", package: "VersionedCodable")]
        )
    ],
    swiftLanguageModes: [.v6]
)
