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
    /// One step from a spec's root towards an array it writes: a key of an object, or an element
    /// of an array (`\Spec.items[0].values[1]` passes through both).
    enum Step: Hashable, Comparable, Sendable {
        case key(String)
        case element(Int)
    }

    /// What a spec's key path needs of a decoded spec, worked out once per spec type.
    struct Needs: Sendable {
        /// Whether the key path reads stored struct properties only, and needs nothing.
        let readsStoredPropertiesOnly: Bool
        /// The arrays the spec writes, at any depth, arrays inside array elements included, with
        /// the most elements any of the chain's versions writes there.
        let arrays: [(path: [Step], count: Int)]
    }

    private static let needs = TypeKeyedCache<Needs>()

    /// The paths of the arrays the spec writes through objects alone, which a key path through a
    /// subscript may read the version from: a document without one of them has no version.
    static func arrayPaths<Spec: VersionPathSpec>(of spec: Spec.Type, versions: [Int?]) -> [[String]] {
        needs.value(for: Spec.self) { makeNeeds(for: Spec.self, versions: versions) }.arrays.compactMap { array in
            var keys: [String] = []
            for step in array.path {
                guard case .key(let key) = step else {
                    return nil
                }
                keys.append(key)
            }
            return keys
        }
    }

    /// Whether `Spec.keyPathToVersion` can be applied to `spec`, decoded from a document,
    /// without trapping on its data.
    ///
    /// - Parameters:
    ///   - spec: The spec as decoded from the document.
    ///   - versionPaths: Where the spec writes the version (see ``VersionPath/paths(for:versions:)``).
    ///   - versions: The chain's versions, which the spec is made with to learn what it writes.
    static func canApply<Spec: VersionPathSpec>(to spec: Spec, versionPaths: [[String]], versions: [Int?]) -> Bool {
        let needs = needs.value(for: Spec.self) { makeNeeds(for: Spec.self, versions: versions) }
        if needs.readsStoredPropertiesOnly {
            return true
        }
        guard let decoded = try? SpecRecordingEncoder.record(spec) else {
            return false
        }
        for path in versionPaths {
            guard case .leaf(let value)? = node(at: path.map(Step.key), in: decoded), value.integer != nil else {
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
        var counts: [[Step]: Int] = [:]
        // The versions the chain writes with a number; the same few as VersionPath tries.
        for version in Set(versions.compactMap { $0 }).sorted().prefix(4) {
            guard let recorded = try? SpecRecordingEncoder.record(Spec(withVersion: version)) else {
                continue
            }
            collectArrays(in: .object(recorded), path: [], into: &counts)
        }
        let arrays = counts.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { (path: $0.key, count: $0.value) }
        return Needs(readsStoredPropertiesOnly: false, arrays: arrays)
    }

    private static func collectArrays(in node: RecordedNode, path: [Step], into counts: inout [[Step]: Int]) {
        switch node {
        case .object(let object):
            for (key, child) in object.entries {
                collectArrays(in: child, path: path + [.key(key)], into: &counts)
            }
        case .leaf(let value):
            guard let array = arrayElements(of: value) else {
                return
            }
            counts[path] = max(counts[path] ?? 0, array.count)
            for (index, element) in array.enumerated() {
                if let nested = structure(of: element) {
                    collectArrays(in: nested, path: path + [.element(index)], into: &counts)
                }
            }
        }
    }

    /// The elements of `value`, when it is an array the recording kept.
    private static func arrayElements(of value: SpecValue) -> [SpecValue]? {
        guard case .encodable(let kept, _) = value, let array = kept as? RecordedArray else {
            return nil
        }
        return array.elements
    }

    /// What an array element writes, recorded, when it is an object or an array: the recording
    /// keeps elements whole, as the coder writes them later.
    private static func structure(of element: SpecValue) -> RecordedNode? {
        guard case .encodable(let kept, _) = element else {
            return nil
        }
        if kept is RecordedArray {
            return .leaf(element)
        }
        if let object = kept as? RecordedObjectValue {
            return .object(object.object)
        }
        guard let node = try? SpecRecordingEncoder.recordNode(of: kept, codingPath: [], userInfo: [:]) else {
            return nil
        }
        switch node {
        case .object:
            return node
        case .leaf(let leaf):
            return arrayElements(of: leaf) != nil ? node : nil
        }
    }

    private static func node(at path: [Step], in root: RecordedObject) -> RecordedNode? {
        var node = RecordedNode.object(root)
        for step in path {
            switch (step, node) {
            case (.key(let key), .object(let object)):
                guard let child = object.entries.first(where: { $0.key == key })?.node else {
                    return nil
                }
                node = child
            case (.element(let index), .leaf(let value)):
                guard let elements = arrayElements(of: value), index < elements.count,
                    let element = structure(of: elements[index])
                else {
                    return nil
                }
                node = element
            default:
                return nil
            }
        }
        return node
    }
}
