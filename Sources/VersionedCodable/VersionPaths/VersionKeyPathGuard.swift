/// Keeps a custom spec's `keyPathToVersion` from stopping the process on a document's data.
///
/// A key path made only of stored properties of structs reads any value. One that goes through
/// an array subscript, a force unwrap or a computed property can trap on what a document
/// supplies: `\Spec.items[0].version` on a document whose `items` is empty, or
/// `\Spec._metadata!.version` on one without `_metadata`. Before such a key path is applied to a
/// spec decoded from a document, the decoded spec is compared with what the spec writes itself:
/// every array the spec writes must have at least as many elements, and every place where the
/// spec writes the version must hold a value. A decoded spec that falls short has no version,
/// as a document without the version's parent object has none.
enum VersionKeyPathGuard {
    /// What a spec's key path needs of a decoded spec, worked out once per spec type.
    struct Needs: Sendable {
        /// Whether the key path reads stored struct properties only, and needs nothing.
        let readsStoredPropertiesOnly: Bool
        /// The arrays the spec writes, by their keys from the root, with the most elements any
        /// of the chain's versions writes there.
        let arrays: [(path: [String], count: Int)]
    }

    private static let needs = TypeKeyedCache<Needs>()

    /// Whether `Spec.keyPathToVersion` can be applied to `spec`, decoded from a document,
    /// without trapping on its data.
    ///
    /// - Parameters:
    ///   - spec: The spec as decoded from the document.
    ///   - versionPaths: Where the spec writes the version (see ``VersionPath/paths(for:versions:)``).
    ///   - versions: The chain's versions, which the spec is made with to learn what it writes.
    /// The paths of the arrays the spec writes, which a key path through a subscript may read
    /// the version from: a document without one of them has no version.
    static func arrayPaths<Spec: VersionPathSpec>(of spec: Spec.Type, versions: [Int?]) -> [[String]] {
        needs.value(for: Spec.self) { makeNeeds(for: Spec.self, versions: versions) }.arrays.map(\.path)
    }

    static func canApply<Spec: VersionPathSpec>(to spec: Spec, versionPaths: [[String]], versions: [Int?]) -> Bool {
        let needs = needs.value(for: Spec.self) { makeNeeds(for: Spec.self, versions: versions) }
        if needs.readsStoredPropertiesOnly {
            return true
        }
        guard let decoded = try? SpecRecordingEncoder.record(spec) else {
            return false
        }
        for path in versionPaths {
            guard case .leaf(let value)? = node(at: path, in: decoded), value.integer != nil else {
                return false
            }
        }
        for (path, count) in needs.arrays {
            guard case .leaf(.encodable(let value, _))? = node(at: path, in: decoded),
                let array = value as? RecordedArray, array.elements.count >= count
            else {
                return false
            }
        }
        return true
    }

    private static func makeNeeds<Spec: VersionPathSpec>(for spec: Spec.Type, versions: [Int?]) -> Needs {
        if MemoryLayout<Spec>.offset(of: Spec.keyPathToVersion) != nil {
            return Needs(readsStoredPropertiesOnly: true, arrays: [])
        }
        var counts: [[String]: Int] = [:]
        // The versions the chain writes with a number; the same few as VersionPath tries.
        for version in Set(versions.compactMap { $0 }).sorted().prefix(4) {
            guard let recorded = try? SpecRecordingEncoder.record(Spec(withVersion: version)) else {
                continue
            }
            collectArrays(in: recorded, path: [], into: &counts)
        }
        let arrays = counts.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { (path: $0.key, count: $0.value) }
        return Needs(readsStoredPropertiesOnly: false, arrays: arrays)
    }

    private static func collectArrays(in object: RecordedObject, path: [String], into counts: inout [[String]: Int]) {
        for (key, node) in object.entries {
            switch node {
            case .object(let child):
                collectArrays(in: child, path: path + [key], into: &counts)
            case .leaf(.encodable(let value, _)):
                if let array = value as? RecordedArray {
                    counts[path + [key]] = max(counts[path + [key]] ?? 0, array.elements.count)
                }
            case .leaf:
                continue
            }
        }
    }

    private static func node(at path: [String], in root: RecordedObject) -> RecordedNode? {
        var object = root
        for (index, key) in path.enumerated() {
            guard let node = object.entries.first(where: { $0.key == key })?.node else {
                return nil
            }
            if index == path.count - 1 {
                return node
            }
            guard case .object(let child) = node else {
                return nil
            }
            object = child
        }
        return nil
    }
}
