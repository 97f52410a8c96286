/// Where a spec keeps the version in a document, and which objects and keys it writes there:
/// worked out once per spec type, by one rule, and used by every decode and encode.
///
/// The rule: the spec is recorded (see ``SpecRecorder``) as it writes `nil` and as it writes
/// each of the first four numbered versions of the chain, so its code runs at most five times
/// per spec type. The version's places are the integer values that equal the version in every
/// numbered recording and are not written in the `nil` one; a constant the spec writes beside
/// the version (a format number) is written in all of them. The places the spec writes are the
/// objects and keys of all the recordings.
///
/// The default spec's layout is one instance of the same rule: a `version` key at the root.
final class SpecLayout: Sendable {
    /// The keys from the root to each place where the version is kept.
    let versionPaths: [[String]]
    /// The root object, with the keys the spec owns there and the objects it writes below.
    let root: SpecPlace
    /// Why the spec cannot hold a version, if it cannot.
    let problem: String?

    /// The root as a document of a version that names no older builds has it: the keys that
    /// would name them are not the spec's there, but whatever the type keeps under them.
    let undeclaredRoot: SpecPlace

    init(versionPaths: [[String]], root: SpecPlace, problem: String? = nil) {
        self.versionPaths = versionPaths
        self.root = root
        undeclaredRoot = SpecPlace(withoutDeclarations: root)
        self.problem = problem
        declaration = versionPaths.first.map { path in
            let keys = declarationKeys(besideVersionKey: path.last!)
            return (Array(path.dropLast()), keys.readable, keys.writable)
        }
    }

    /// The default spec's: a `version` key at the root.
    static let atRoot = SpecLayout(versionPaths: [["version"]], root: SpecPlace(path: [], keys: ["version": .version]))

    private static let cache = TypeKeyedCache<SpecLayout>()

    /// The layout of `spec`, found with the numbered versions among `versions` the first time
    /// it is asked for.
    static func of<Spec: VersionPathSpec>(_ spec: Spec.Type, versions: [Int?]) -> SpecLayout {
        if spec == VersionKeyAtRootVersionPathSpec.self {
            return atRoot
        }
        return cache.value(for: spec) { make(spec, versions: versions) }
    }

    private static func make<Spec: VersionPathSpec>(_ spec: Spec.Type, versions: [Int?]) -> SpecLayout {
        let absent: RecordedObject
        var recordings: [RecordedObject] = []
        var paths: Set<[String]>?
        do {
            absent = try SpecRecorder.record(Spec(withVersion: nil))
            for version in Set(versions.compactMap { $0 }).sorted().prefix(4) {
                let recorded = try SpecRecorder.record(Spec(withVersion: version))
                recordings.append(recorded)
                var found: Set<[String]> = []
                collectPaths(in: recorded, path: []) { path, value in
                    if integer(value) == version {
                        found.insert(path)
                    }
                }
                paths = paths.map { $0.intersection(found) } ?? found
            }
        } catch {
            return SpecLayout(versionPaths: [], root: SpecPlace(path: [], keys: [:]), problem: "\(error)")
        }
        var constants: Set<[String]> = []
        collectPaths(in: absent, path: []) { path, value in
            if integer(value) != nil {
                constants.insert(path)
            }
        }
        let versionPaths = (paths ?? []).subtracting(constants).sorted { $0.lexicographicallyPrecedes($1) }
        let problem =
            paths != nil && versionPaths.isEmpty ? "does not write the version as an integer in keyed objects" : nil
        return SpecLayout(
            versionPaths: versionPaths,
            root: SpecPlace(path: [], recordings: recordings + [absent], versionPaths: versionPaths),
            problem: problem
        )
    }

    private static func collectPaths(
        in object: RecordedObject,
        path: [String],
        _ visit: ([String], any Encodable) -> Void
    ) {
        for (key, entry) in object.entries {
            switch entry {
            case .value(let value): visit(path + [key], value)
            case .object(let child): collectPaths(in: child, path: path + [key], visit)
            }
        }
    }

    /// Reads the version at the first of ``versionPaths`` that holds one.
    ///
    /// A missing key or `null` on the way is no version there; anything else that cannot be
    /// read (a version that is not an integer, a damaged object) is the decoder's error.
    func readVersion(from root: KeyedDecodingContainer<ForwardedKey>) throws -> Int? {
        for path in versionPaths {
            if let object = try Self.object(at: path.dropLast(), in: root),
                let version = try object.decodeIfPresent(Int.self, forKey: ForwardedKey(stringValue: path.last!))
            {
                return version
            }
        }
        return nil
    }

    /// The object at `path` below `root`, or `nil` when a key on the way is missing or `null`.
    static func object(
        at path: some Collection<String>,
        in root: KeyedDecodingContainer<ForwardedKey>
    ) throws -> KeyedDecodingContainer<ForwardedKey>? {
        var container = root
        for key in path {
            let key = ForwardedKey(stringValue: key)
            guard container.contains(key), try !container.decodeNil(forKey: key) else {
                return nil
            }
            container = try container.nestedContainer(keyedBy: ForwardedKey.self, forKey: key)
        }
        return container
    }

    /// Where the oldest versions that may read and write a document are kept: beside the first
    /// place of the version, under its key with `ReadableFrom` and `WritableFrom` added.
    let declaration: (path: [String], readable: String, writable: String)?
}

/// A spec that cannot be laid out, and why.
struct SpecLayoutError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The value as an `Int`, when it is an integer that fits.
func integer(_ value: any Encodable) -> Int? {
    (value as? any BinaryInteger).flatMap { Int(exactly: $0) }
}

/// An object the spec writes in a document, with the keys it owns there.
///
/// Immutable once made, so that it is shared between tasks.
final class SpecPlace: Sendable {
    enum Role: Sendable {
        /// The version is kept here.
        case version
        /// The spec writes another single value here.
        case value
        /// The spec writes an object here.
        case object(SpecPlace)
    }

    /// The keys from the root to this object.
    let path: [String]
    /// The keys the spec owns here, in the order it writes them.
    let keys: [(key: String, role: Role)]

    /// Whether the spec writes objects inside this one.
    let hasObjects: Bool
    /// The keys beside the version's here that say which older builds may read and write.
    private let declarations: [String]

    init(path: [String], keys: KeyValuePairs<String, Role>) {
        self.path = path
        self.keys = keys.map { ($0.key, $0.value) }
        hasObjects = false
        declarations = Self.declarations(of: self.keys)
    }

    /// The union of the objects at `path` in `recordings`.
    init(path: [String], recordings: [RecordedObject], versionPaths: [[String]]) {
        var keys: [(key: String, role: Role)] = []
        var childRecordings: [String: [RecordedObject]] = [:]
        for recording in recordings {
            for (key, entry) in recording.entries {
                switch entry {
                case .object(let child):
                    if childRecordings[key] == nil {
                        keys.append((key, .value))
                    }
                    childRecordings[key, default: []].append(child)
                case .value:
                    if !keys.contains(where: { $0.key == key }) {
                        keys.append((key, versionPaths.contains(path + [key]) ? .version : .value))
                    }
                }
            }
        }
        for index in keys.indices {
            if let children = childRecordings[keys[index].key] {
                let childPath = path + [keys[index].key]
                keys[index].role = .object(SpecPlace(path: childPath, recordings: children, versionPaths: versionPaths))
            }
        }
        self.path = path
        self.keys = keys
        hasObjects = !childRecordings.isEmpty
        declarations = Self.declarations(of: keys)
    }

    /// The same place and the places below it, with no keys that name older builds.
    init(withoutDeclarations place: SpecPlace) {
        path = place.path
        keys = place.keys.map { entry in
            guard case .object(let child) = entry.role else { return entry }
            return (entry.key, .object(SpecPlace(withoutDeclarations: child)))
        }
        hasObjects = place.hasObjects
        declarations = []
    }

    func role(of key: String) -> Role? {
        for entry in keys where entry.key == key {
            return entry.role
        }
        return nil
    }

    /// Whether the spec owns `key` here: a key it writes, or one beside the version that says
    /// which older builds may read and write the document.
    func owns(_ key: String) -> Bool {
        role(of: key) != nil || declarations.contains(key)
    }

    /// The keys beside the version's that say which older builds may read and write `keys`.
    private static func declarations(of keys: [(key: String, role: Role)]) -> [String] {
        keys.flatMap { entry -> [String] in
            guard case .version = entry.role else { return [] }
            let declaration = declarationKeys(besideVersionKey: entry.key)
            return [declaration.readable, declaration.writable]
        }
    }

    func child(_ key: String) -> SpecPlace? {
        if case .object(let child)? = role(of: key) {
            return child
        }
        return nil
    }

    /// Whether a container keyed by `Key` can write any key the spec owns here: synthesized
    /// keys cannot be made from a string they do not list, and such a container needs no
    /// watching. Any container can write "super", through its key-less super encoder.
    func canBeWritten<Key: CodingKey>(with key: Key.Type) -> Bool {
        keys.contains { $0.key == "super" || Key(stringValue: $0.key) != nil }
    }

    /// Whether `objectKeys`, the keys of an object in a document, are all single values the
    /// spec writes: such an object holds only what the spec wrote.
    func ownsAll(_ objectKeys: [String]) -> Bool {
        !objectKeys.isEmpty
            && objectKeys.allSatisfy {
                switch role(of: $0) {
                case .version?, .value?: true
                case .object?: false
                case nil: owns($0)
                }
            }
    }
}
