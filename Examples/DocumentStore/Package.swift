// swift-tools-version: 6.1

import PackageDescription

// A command-line program that keeps versioned JSON documents in SQLite and upgrades them as it
// reads them. Its own package so that the root package keeps no dependencies.
let package = Package(
    name: "DocumentStore",
    platforms: [.macOS(.v10_15)],
    products: [
        .executable(name: "document-store", targets: ["document-store"])
    ],
    dependencies: [
        .package(name: "VersionedCodable", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(
            name: "DocumentStore",
            dependencies: [
                .product(name: "VersionedCodable", package: "VersionedCodable"),
                .product(name: "VersionedCodableStore", package: "VersionedCodable"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "document-store",
            dependencies: [
                "DocumentStore",
                .product(name: "VersionedCodableStore", package: "VersionedCodable"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DocumentStoreTests",
            dependencies: [
                "DocumentStore",
                .product(name: "VersionedCodableStore", package: "VersionedCodable"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
