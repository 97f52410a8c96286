// swift-tools-version: 6.2

import PackageDescription

let package = Package(
    name: "VersionedCodable",
    // The floor of Swift concurrency (the store's async requirements, its actor) and of Swift
    // Testing (VersionedCodableTesting): nothing in the products needs more, and types that
    // need a newer system, such as `Never`'s `Codable` conformance, say so themselves.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "VersionedCodable", targets: ["VersionedCodable"]),
        .library(name: "VersionedCodableTesting", targets: ["VersionedCodableTesting"]),
        .library(name: "VersionedCodableStore", targets: ["VersionedCodableStore"]),
        .library(name: "VersionedCodableAPI", targets: ["VersionedCodableAPI"]),
        .library(name: "VersionedCodableSchema", targets: ["VersionedCodableSchema"]),
        .executable(name: "schema-check", targets: ["schema-check"]),
        .plugin(name: "CheckSchemas", targets: ["CheckSchemas"]),
    ],
    dependencies: [],
    targets: [
        // A library that ships inside apps carries a privacy manifest, which App Store review
        // reads from its resource bundle: the core's declares nothing, the store's its one use
        // of the system's uptime. PrivacyManifestTests hold each to its library's sources.
        .target(name: "VersionedCodable", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(
            name: "VersionedCodableTesting",
            dependencies: ["VersionedCodable", "VersionedCodableAPI", "VersionedCodableSchema"]
        ),
        // Census and resumable upgrades of stored documents, over any store an adapter
        // describes; the adapters for real databases live in the examples' packages.
        .target(
            name: "VersionedCodableStore",
            dependencies: ["VersionedCodable"],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // API versions for services: each client read and answered in the versions its API
        // version shows, and an old client's edit merged into the stored value through the chain.
        .target(name: "VersionedCodableAPI", dependencies: ["VersionedCodable"]),
        // JSON Schemas of every version, derived from what each version's code reads, a
        // validator for them and a lock on shipped versions' committed schema files; outside
        // the core, which never needs them. It writes the OpenAPI documents of API versions
        // too, so it depends on the API library, which does not depend on it.
        .target(name: "VersionedCodableSchema", dependencies: ["VersionedCodable", "VersionedCodableAPI"]),
        // `swift package check-schemas --against <ref>`: the committed schema files compared
        // with a git ref's. The plugin finds the folder and runs the tool, which holds the
        // comparison so that its tests can call it; neither builds the user's code.
        .executableTarget(
            name: "schema-check",
            dependencies: ["VersionedCodableSchema"],
            path: "Sources/SchemaCheck"
        ),
        .plugin(
            name: "CheckSchemas",
            capability: .command(
                intent: .custom(
                    verb: "check-schemas",
                    description: "Compare the committed schema files with a git ref's and report breaking changes"
                )
            ),
            dependencies: ["schema-check"]
        ),
        // The Poem history of the example, shared with the tests: the example compiles the same
        // file through a symlink, so tests never import an executable and the documentation's
        // samples stay plain internal declarations.
        .target(
            name: "PoemHistory",
            dependencies: ["VersionedCodable"],
            path: "Tests/PoemHistory"
        ),
        // Named as the README's `swift run versioned-poems` calls it; an executable target of
        // the root package is runnable without being exported as a product.
        .executableTarget(
            name: "versioned-poems",
            dependencies: ["VersionedCodable"],
            path: "Examples/VersionedPoems",
            resources: [.copy("Documents")]
        ),
        .testTarget(
            name: "VersionedCodableTests",
            dependencies: ["VersionedCodable", "VersionedCodableTesting", "PoemHistory"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "VersionedCodableTestingTests",
            dependencies: ["VersionedCodable", "VersionedCodableTesting"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "VersionedCodableStoreTests",
            dependencies: ["VersionedCodable", "VersionedCodableStore", "VersionedCodableTesting"]
        ),
        .testTarget(
            name: "VersionedCodableAPITests",
            // The schema library for the OpenAPI documents of the article's API versions.
            dependencies: [
                "VersionedCodable", "VersionedCodableAPI", "VersionedCodableTesting", "VersionedCodableSchema",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "VersionedCodableSchemaTests",
            dependencies: ["VersionedCodable", "VersionedCodableSchema", "PoemHistory"],
            exclude: ["Schemas"]
        ),
        .testTarget(
            name: "SchemaCheckTests",
            dependencies: ["schema-check", "VersionedCodableSchema"]
        ),
        .testTarget(
            name: "VersionedCodablePerformanceTests",
            dependencies: ["VersionedCodable"]
        ),
        // Code written against VersionedCodable 1.2's documented API, which must keep compiling
        // and passing unchanged in Swift 6 and in Swift 5 language mode.
        .testTarget(
            name: "CompatibilityTests",
            dependencies: ["VersionedCodable"]
        ),
        // The same sources in Swift 5 mode. Its folder holds relative symlinks to the files of
        // CompatibilityTests (SwiftPM follows them), so git keeps one copy of each source and
        // `swift test` compiles it twice. A new file there needs its symlink here too.
        .testTarget(
            name: "CompatibilityTestsSwift5",
            dependencies: ["VersionedCodable"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The compatibility targets compile as a 1.2 user's code would, and 1.2 programs do not enable
// ExistentialAny: they spell closure types `(Decodable.Type, Data) throws -> Decodable`.
let targetsWrittenAsUserCode: Set<String> = ["CompatibilityTests", "CompatibilityTestsSwift5"]
for target in package.targets where !targetsWrittenAsUserCode.contains(target.name) && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
