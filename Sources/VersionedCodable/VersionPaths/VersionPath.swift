import Foundation

/// Where a ``VersionPathSpec`` keeps the version, and what it writes for each version.
///
/// Both are found by encoding the spec into a ``SpecRecordingEncoder``, only ever with versions
/// that the program's own chain declares: the spec is never handed a made-up value. The version
/// is at the integer leaves that hold the version the spec was made with, for every version
/// tried, so a constant the spec also writes (a format number) is told apart from it as soon as
/// the chain has two versions.
enum VersionPath {
    /// The keys from the root to each place where the spec keeps the version; empty when the
    /// spec does not write the version as an integer in keyed objects.
    static func paths<Spec: VersionPathSpec>(for spec: Spec.Type, versions: [Int?]) -> [[String]] {
        if spec == VersionKeyAtRootVersionPathSpec.self {
            return [atRoot]
        }
        return pathCache.value(for: spec) { find(for: spec, versions: versions) }
    }

    static let atRoot = ["version"]

    /// What the spec writes for `version`, with the version's places marked.
    ///
    /// A custom spec is encoded anew for every document, since its encoding is the user's code
    /// and is what the document must carry; the default spec's tree is kept per version.
    static func tree<Spec: VersionPathSpec>(
        for spec: Spec.Type,
        version: Int?,
        versions: @autoclosure () -> [Int?]
    ) throws -> SpecTree {
        guard spec == VersionKeyAtRootVersionPathSpec.self else {
            let recorded = try SpecRecordingEncoder.record(Spec(withVersion: version))
            return SpecTree(recorded: recorded, versionPaths: paths(for: spec, versions: versions()))
        }
        if let version, version >= 0, version < smallDefaultTrees.count {
            return smallDefaultTrees[version]
        }
        if let tree = defaultTrees.value(for: version) {
            return tree
        }
        let tree = defaultTree(version: version)
        defaultTrees.store(tree, for: version)
        return tree
    }

    /// What the default spec's synthesized encoding writes for `version`, without running it.
    private static func defaultTree(version: Int?) -> SpecTree {
        let root = RecordedObject()
        if let version {
            root.set("version", .leaf(.int(version)))
        }
        return SpecTree(recorded: root, versionPaths: [atRoot])
    }

    private static let pathCache = TypeKeyedCache<[[String]]>()
    private static let defaultTrees = LockedDictionary<Int?, SpecTree>()

    /// The default spec's trees for the versions most chains use, made once, so that the
    /// common encode reads one without taking a lock.
    private static let smallDefaultTrees: [SpecTree] = (0..<32).map { defaultTree(version: $0) }

    private static func find<Spec: VersionPathSpec>(for spec: Spec.Type, versions: [Int?]) -> [[String]] {
        var candidates: Set<[String]>?
        // A few versions are enough to tell the version from constants; more would only cost.
        for version in Set(versions.compactMap { $0 }).sorted().prefix(4) {
            guard let recorded = try? SpecRecordingEncoder.record(Spec(withVersion: version)) else {
                return []
            }
            var found: Set<[String]> = []
            collectIntegers(equalTo: version, in: recorded, path: [], into: &found)
            candidates = candidates.map { $0.intersection(found) } ?? found
        }
        return (candidates ?? []).sorted { $0.lexicographicallyPrecedes($1) }
    }

    private static func collectIntegers(
        equalTo version: Int,
        in object: RecordedObject,
        path: [String],
        into found: inout Set<[String]>
    ) {
        for (key, node) in object.entries {
            switch node {
            case .object(let child):
                collectIntegers(equalTo: version, in: child, path: path + [key], into: &found)
            case .leaf(let value):
                if value.integer == version {
                    found.insert(path + [key])
                }
            }
        }
    }
}
