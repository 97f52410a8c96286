// swift-tools-version: 6.0

import PackageDescription

// Versioned decoding and encoding for coders outside Foundation, checked against the same
// fixtures as JSON and property lists. Its own package so that the root package keeps no
// dependencies.
let package = Package(
    name: "VersionedCodableIntegrationTests",
    platforms: [.macOS(.v10_15)],
    products: [
        .library(name: "VersionedCodableCoders", targets: ["VersionedCodableCoders"])
    ],
    dependencies: [
        .package(name: "VersionedCodable", path: ".."),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/CoreOffice/XMLCoder", from: "0.18.2"),
    ],
    targets: [
        .target(
            name: "VersionedCodableCoders",
            dependencies: [
                .product(name: "VersionedCodable", package: "VersionedCodable"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "XMLCoder", package: "XMLCoder"),
            ]
        ),
        .testTarget(
            name: "VersionedCodableCodersTests",
            dependencies: ["VersionedCodableCoders"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
