// swift-tools-version: 6.0

import PackageDescription

let package = Package(
    name: "VersionedCodable",
    products: [
        .library(name: "VersionedCodable", targets: ["VersionedCodable"]),
        .library(name: "VersionedCodableTesting", targets: ["VersionedCodableTesting"]),
        .executable(name: "versioned-poems", targets: ["VersionedPoems"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "VersionedCodable"),
        .target(name: "VersionedCodableTesting", dependencies: ["VersionedCodable"]),
        .executableTarget(
            name: "VersionedPoems",
            dependencies: ["VersionedCodable"],
            path: "Examples/VersionedPoems",
            resources: [.copy("Documents")]
        ),
        .testTarget(
            name: "VersionedCodableTests",
            dependencies: ["VersionedCodable", "VersionedCodableTesting", "VersionedPoems"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "VersionedCodableTestingTests",
            dependencies: ["VersionedCodable", "VersionedCodableTesting"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "VersionedCodablePerformanceTests",
            dependencies: ["VersionedCodable"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
