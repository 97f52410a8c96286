import Foundation

/// Where a ``VersionPathSpec`` keeps the version, and what it writes for each version.
///
/// Both are found by encoding the spec into a ``SpecRecordingEncoder``, only ever with versions
/// that the program's own chain declares: the spec is never handed a made-up value. The version
/// is at the integer leaves that hold the version the spec was made with, for every version
/// tried, so a constant the spec also writes (a format number) is told apart from it as soon as
/// the chain has two versions; with one, by which of them the spec's key path reads.
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
        versions: @autoclosure () -> [Int?],
        userInfo: @autoclosure () -> [CodingUserInfoKey: Any] = [:]
    ) throws -> SpecTree {
        guard spec == VersionKeyAtRootVersionPathSpec.self else {
            let recorded = try SpecRecordingEncoder.record(Spec(withVersion: version), userInfo: userInfo())
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
        let tried = Set(versions.compactMap { $0 }).sorted().prefix(4)
        for version in tried {
            guard let recorded = try? SpecRecordingEncoder.record(Spec(withVersion: version)) else {
                return []
            }
            var found: Set<[String]> = []
            collectIntegers(equalTo: version, in: recorded, path: [], into: &found)
            candidates = candidates.map { $0.intersection(found) } ?? found
        }
        let sorted = (candidates ?? []).sorted { $0.lexicographicallyPrecedes($1) }
        guard sorted.count > 1, tried.count == 1, let version = tried.first else {
            return sorted
        }
        // A chain with one numbered version cannot tell the version from a constant equal to
        // it (`"schema": 7` beside version 7) by the values alone: keep the places that the
        // spec's key path reads, so that the answer does not depend on which chain asked first.
        return readByKeyPath(sorted, of: spec, version: version)
    }

    /// The places among `candidates` whose value the spec's key path returns: each is changed in
    /// a document the spec wrote, and the spec is decoded from it.
    private static func readByKeyPath<Spec: VersionPathSpec>(
        _ candidates: [[String]],
        of spec: Spec.Type,
        version: Int
    ) -> [[String]] {
        guard let written = try? JSONEncoder().encode(Spec(withVersion: version)),
            let document = try? JSONSerialization.jsonObject(with: written)
        else {
            return candidates
        }
        var read: [[String]] = []
        for path in candidates {
            // One apart, within the range of whatever integer type the spec stores.
            for changedVersion in [version &+ 1, version &- 1] {
                guard let changed = replacing(path[...], in: document, with: changedVersion),
                    let data = try? JSONSerialization.data(withJSONObject: changed),
                    let decoded = try? JSONDecoder().decode(Spec.self, from: data)
                else {
                    continue
                }
                if decoded[keyPath: Spec.keyPathToVersion] == changedVersion {
                    read.append(path)
                }
                break
            }
        }
        return read.isEmpty ? candidates : read
    }

    private static func replacing(_ path: ArraySlice<String>, in document: Any, with value: Int) -> Any? {
        guard let key = path.first, var object = document as? [String: Any], let child = object[key] else {
            return nil
        }
        if path.count == 1 {
            object[key] = value
        } else {
            guard let changed = replacing(path.dropFirst(), in: child, with: value) else {
                return nil
            }
            object[key] = changed
        }
        return object
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
