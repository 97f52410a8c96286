// swift-tools-version: 6.0

import PackageDescription

// The README's quick start as a new package holds it: one `main.swift` and a dependency on
// VersionedCodable. It depends on this checkout by path so that CI builds and runs the quick
// start against the code it documents; a user's package names the repository's URL instead.
let package = Package(
    name: "QuickStart",
    // A package that depends on VersionedCodable declares at least its platforms.
    platforms: [.macOS(.v10_15)],
    dependencies: [
        .package(name: "VersionedCodable", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "QuickStart",
            dependencies: [.product(name: "VersionedCodable", package: "VersionedCodable")]
        )
    ]
)
