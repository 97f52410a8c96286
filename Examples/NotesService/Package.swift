// swift-tools-version: 6.1

import PackageDescription

// A Hummingbird service that keeps versioned JSON notes in PostgreSQL, built twice to rehearse
// a rolling deploy, and the load generator that drives and checks the fleet. Its own package
// so that the root package keeps no dependencies.
//
// The two builds share every source file. `NotesModel` and `NotesServer` are the new build,
// compiled with `NOTES_NEXT`, which adds note version 3 and attachment version 2;
// `NotesModelPrevious` and `NotesServerPrevious` hold relative symlinks to the same files,
// compiled without it: the old build. One `swift build` makes both, as two releases of one
// service would be, without building the dependencies twice.
let next: [SwiftSetting] = [.define("NOTES_NEXT")]

let package = Package(
    name: "NotesService",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "notes-old", targets: ["notes-old"]),
        .executable(name: "notes-new", targets: ["notes-new"]),
        .executable(name: "notes-load", targets: ["notes-load"]),
        .executable(name: "notes-upgrade", targets: ["notes-upgrade"]),
    ],
    dependencies: [
        .package(name: "VersionedCodable", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(
            name: "NotesModel",
            dependencies: modelDependencies,
            swiftSettings: next
        ),
        .target(
            name: "NotesModelPrevious",
            dependencies: modelDependencies
        ),
        .target(
            name: "NotesServer",
            dependencies: ["NotesModel"] + serverDependencies,
            swiftSettings: next
        ),
        .target(
            name: "NotesServerPrevious",
            dependencies: ["NotesModelPrevious"] + serverDependencies
        ),
        .executableTarget(name: "notes-old", dependencies: ["NotesServerPrevious"]),
        .executableTarget(name: "notes-new", dependencies: ["NotesServer"]),
        .executableTarget(
            name: "notes-load",
            dependencies: [
                "NotesModel",
                .product(name: "VersionedCodable", package: "VersionedCodable"),
                .product(name: "VersionedCodableAPI", package: "VersionedCodable"),
                // Checks every answer against the OpenAPI document the service serves.
                .product(name: "VersionedCodableSchema", package: "VersionedCodable"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: next
        ),
        // The notes table as a store for VersionedCodableStore's census and upgrade.
        .target(
            name: "NotesStore",
            dependencies: [
                .product(name: "VersionedCodableStore", package: "VersionedCodable"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // census and upgrade for a person at a terminal, and the fault test's loader, live
        // writer and checker, all with the new build's model.
        .executableTarget(
            name: "notes-upgrade",
            dependencies: [
                "NotesModel", "NotesStore",
                .product(name: "VersionedCodable", package: "VersionedCodable"),
                .product(name: "VersionedCodableStore", package: "VersionedCodable"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: next
        ),
        .testTarget(
            name: "NotesStoreTests",
            dependencies: [
                "NotesModel", "NotesStore",
                .product(name: "VersionedCodable", package: "VersionedCodable"),
                .product(name: "VersionedCodableStore", package: "VersionedCodable"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: next
        ),
        .testTarget(
            name: "NotesModelTests",
            dependencies: [
                "NotesModel",
                // The old build's model too, to check what each build reads of the other's notes.
                "NotesModelPrevious",
                .product(name: "VersionedCodableTesting", package: "VersionedCodable"),
                .product(name: "VersionedCodableSchema", package: "VersionedCodable"),
            ],
            swiftSettings: next
        ),
    ],
    swiftLanguageModes: [.v6]
)

var modelDependencies: [Target.Dependency] {
    [
        .product(name: "VersionedCodable", package: "VersionedCodable"),
        .product(name: "VersionedCodableAPI", package: "VersionedCodable"),
    ]
}

var serverDependencies: [Target.Dependency] {
    [
        .product(name: "VersionedCodable", package: "VersionedCodable"),
        .product(name: "VersionedCodableAPI", package: "VersionedCodable"),
        // Reads upgrade notes through the store library's `UpgradeOnRead`, over the same
        // adapter as the upgrade's.
        .product(name: "VersionedCodableStore", package: "VersionedCodable"),
        "NotesStore",
        // Serves each API version's OpenAPI document.
        .product(name: "VersionedCodableSchema", package: "VersionedCodable"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
    ]
}

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
