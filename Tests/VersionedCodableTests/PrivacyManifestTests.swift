import Foundation
import Testing

/// An app's privacy report is built from the privacy manifests of the libraries it links, so a
/// library's manifest must say what the library does: no tracking, no data collected, and a
/// reason for each of Apple's required-reason APIs its sources call. These tests read each
/// library's manifest and sources, so that a change to either that leaves them disagreeing
/// fails here rather than in an app's review.
@Suite("Privacy manifests")
struct PrivacyManifestTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Apple's categories of required-reason APIs, each with the names of its Foundation and
    /// C calls as they appear in Swift code.
    static let requiredReasonAPIs: [String: [String]] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": [
            #"\bcreationDate\b"#, #"\bmodificationDate\b"#, #"\bfileModificationDate\b"#,
            #"\bcontentModificationDateKey\b"#, #"\bcreationDateKey\b"#, #"\battributesOfItem\b"#,
            #"\bgetattrlist\w*\("#, #"\bfgetattrlist\("#, #"\b[fl]?stat(at)?\("#,
        ],
        "NSPrivacyAccessedAPICategorySystemBootTime": [
            #"\bsystemUptime\b"#, #"\bmach_absolute_time\b"#,
        ],
        "NSPrivacyAccessedAPICategoryDiskSpace": [
            #"\bvolumeAvailableCapacity\w*Key\b"#, #"\bvolumeTotalCapacityKey\b"#, #"\bsystemFreeSize\b"#,
            #"\bsystemSize\b"#, #"\battributesOfFileSystem\b"#, #"\bf?statv?fs\("#,
        ],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": [#"\bactiveInputModes\b"#],
        "NSPrivacyAccessedAPICategoryUserDefaults": [#"\bUserDefaults\b"#, #"\bNSUserDefaults\b"#],
    ]

    /// The libraries that ship in apps, and whether each has a manifest. The testing library
    /// is linked into test bundles only, and calls none of the APIs.
    static let libraries: [(name: String, hasManifest: Bool)] = [
        ("VersionedCodable", true),
        ("VersionedCodableStore", true),
        ("VersionedCodableTesting", false),
    ]

    static func manifest(of library: String) throws -> [String: Any] {
        let url = root.appendingPathComponent("Sources/\(library)/PrivacyInfo.xcprivacy")
        let data = try Data(contentsOf: url)
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        return try #require(plist as? [String: Any], "\(library)'s manifest is not a dictionary")
    }

    /// The categories a library's manifest declares, each with its reasons.
    static func declaredCategories(of library: String) throws -> [String: [String]] {
        let accessed = try #require(try manifest(of: library)["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        var categories: [String: [String]] = [:]
        for entry in accessed {
            let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
            categories[category] = try #require(entry["NSPrivacyAccessedAPITypeReasons"] as? [String])
        }
        return categories
    }

    /// The categories whose APIs a library's Swift sources call, outside comments.
    static func usedCategories(in library: String) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/\(library)")
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var code = ""
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") {
                code += (line.range(of: "//").map { line[..<$0.lowerBound] } ?? line) + "\n"
            }
        }
        return Set(
            requiredReasonAPIs.filter { _, patterns in
                patterns.contains { code.range(of: $0, options: .regularExpression) != nil }
            }.keys
        )
    }

    @Test(
        "Each manifest says the library tracks nobody and collects nothing",
        arguments: ["VersionedCodable", "VersionedCodableStore"]
    )
    func manifestDeclaresNoTrackingAndNoData(library: String) throws {
        let manifest = try Self.manifest(of: library)
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
    }

    @Test("Each manifest declares exactly the required-reason APIs its library calls", arguments: libraries.map(\.name))
    func manifestMatchesSources(library: String) throws {
        let used = try Self.usedCategories(in: library)
        let hasManifest = Self.libraries.first { $0.name == library }!.hasManifest
        let declared = hasManifest ? try Self.declaredCategories(of: library) : [:]
        #expect(
            Set(declared.keys) == used,
            "\(library) calls APIs of \(used.sorted()), its manifest declares \(declared.keys.sorted())"
        )
        for (category, reasons) in declared {
            #expect(!reasons.isEmpty, "\(library) declares \(category) without a reason")
        }
    }

    @Test("The store times an upgrade's progress with the system's uptime, reason 35F9.1")
    func storeDeclaresElapsedTimeReason() throws {
        let declared = try Self.declaredCategories(of: "VersionedCodableStore")
        #expect(declared == ["NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1"]])
    }
}
