import Foundation
import Testing
import VersionedCodable

// Every way a type's `encode(to:)` can reach a key where the spec writes, with every kind of key
// type, in every format: the document is what a plain encode writes plus the version, or the
// encode throws; never a crash, and never a value of the type's changed or dropped.

@Suite("Every write where the spec writes")
struct WritesWhereTheSpecWritesTests {
    enum EnumKey: String, CodingKey { case name, version, _metadata }

    /// What the type writes at the key.
    enum Shape: CaseIterable, Sendable {
        case string, integer, null, object, array, superValue, superObject, dictionary
    }

    /// Writes a name, then `shape` under `path` (one or two keys), with keys made by `key`, and
    /// the version where `Spec` puts it.
    struct Probe<Key: CodingKey, Spec: VersionPathSpec>: VersionedCodable {
        static var version: Int? { 2 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = Spec
        var path: [String]
        var shape: Shape
        var key: @Sendable (String) -> Key

        init(path: [String], shape: Shape, key: @escaping @Sendable (String) -> Key) {
            self.path = path
            self.shape = shape
            self.key = key
        }
        init(from decoder: any Decoder) throws { throw CancellationError() }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("n", forKey: key("name"))
            guard path.count == 2 else {
                return try Self.write(shape, at: key(path[0]), in: &container, key: key)
            }
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: key(path[0]))
            try Self.write(shape, at: key(path[1]), in: &nested, key: key)
        }

        static func write(
            _ shape: Shape,
            at: Key,
            in container: inout KeyedEncodingContainer<Key>,
            key: (String) -> Key
        ) throws {
            switch shape {
            case .string: try container.encode("s", forKey: at)
            case .integer: try container.encode(7, forKey: at)
            case .null: try container.encodeNil(forKey: at)
            case .object:
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: at)
                try nested.encode(1, forKey: key("name"))
            case .array:
                var nested = container.nestedUnkeyedContainer(forKey: at)
                try nested.encode(1)
            case .superValue:
                var single = container.superEncoder(forKey: at).singleValueContainer()
                try single.encode("s")
            case .superObject:
                var nested = container.superEncoder(forKey: at).container(keyedBy: Key.self)
                try nested.encode(1, forKey: key("name"))
            case .dictionary:
                try container.encode(["name": 1], forKey: at)
            }
        }
    }

    /// The same writes as a plain type, whose document the versioned one is compared with.
    struct Plain<Key: CodingKey, Spec: VersionPathSpec>: Encodable {
        var probe: Probe<Key, Spec>
        func encode(to encoder: any Encoder) throws { try probe.encode(to: encoder) }
    }

    /// `object` without the value at `path`, and without an object on the way that is left empty,
    /// with the value.
    static func removing(_ path: [String], from object: [String: Any]) -> (object: [String: Any], value: Any?) {
        var object = object
        guard path.count > 1 else {
            let value = object.removeValue(forKey: path[0])
            return (object, value)
        }
        guard let inner = object[path[0]] as? [String: Any] else {
            return (object, nil)
        }
        let (rest, value) = removing(Array(path.dropFirst()), from: inner)
        object[path[0]] = rest.isEmpty ? nil : rest
        return (object, value)
    }

    /// Encodes `probe` plainly and versioned, and checks what the versioned encode did.
    static func check<Key: CodingKey, Spec: VersionPathSpec>(
        _ probe: Probe<Key, Spec>,
        _ name: String,
        encode: (any Encodable) throws -> Data,
        object: (Data) throws -> Any,
        keyForm: (String) -> String
    ) throws {
        let versionPath = Spec.self == MetadataVersionSpec.self ? ["_metadata", "version"] : ["version"]
        // The spec's keys inside a dictionary written as a value are written as they are, as the
        // dictionary's own keys are.
        let inDictionary =
            probe.shape == .dictionary && probe.path.count < versionPath.count
            && versionPath.starts(with: probe.path)
        let writtenPath =
            inDictionary
            ? probe.path.map(keyForm) + versionPath.dropFirst(probe.path.count) : versionPath.map(keyForm)
        let written: Data
        do {
            written = try probe.encodeTransparently(using: encode)
        } catch is VersionedEncodingError, is EncodingError {
            return
        }
        let document = removing(writtenPath, from: try object(written) as! [String: Any])
        try SpecTruth.check(document.value as? Int, 2, "\(name): the version")
        var expected = try object(encode(Plain(probe: probe))) as! [String: Any]
        if probe.shape == .null, probe.path.count < versionPath.count, versionPath.starts(with: probe.path) {
            // A `null` where the spec needs an object holds nothing: the spec's object takes its
            // place (an optional header that is `nil`).
            expected = removing(probe.path.map(keyForm), from: expected).object
        }
        if probe.path == versionPath {
            // An integer or nothing there mirrors the version; anything else was refused.
            guard probe.shape == .integer || probe.shape == .null else {
                throw SpecTruth.Mismatch("\(name): the type's \(probe.shape) was replaced by the version")
            }
            expected = removing(writtenPath, from: expected).object
        }
        try SpecTruth.check(
            document.object as NSDictionary,
            expected as NSDictionary,
            "\(name): the document without the version"
        )
    }

    static func checkAll() throws {
        let snake = JSONEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        // Names every key as a Swift type does, `Version` for `version`: the spec's keys too.
        let capitalized = JSONEncoder()
        capitalized.keyEncodingStrategy = .custom { path in
            let key = path.last!.stringValue
            return HandWrittenKeyTypesTests.AnyKey(key.prefix(1).uppercased() + key.dropFirst())
        }
        let xml = PropertyListEncoder()
        xml.outputFormat = .xml
        let binary = PropertyListEncoder()
        binary.outputFormat = .binary
        let json: (Data) throws -> Any = { try JSONSerialization.jsonObject(with: $0) }
        let plist: (Data) throws -> Any = { try PropertyListSerialization.propertyList(from: $0, format: nil) }
        let asGiven: (String) -> String = { $0 }
        let coders: [(String, (any Encodable) throws -> Data, (Data) throws -> Any, (String) -> String)] = [
            ("json", { try JSONEncoder().encode($0) }, json, asGiven),
            ("json snake case", { try snake.encode($0) }, json, asGiven),
            ("json capitalized", { try capitalized.encode($0) }, json, { $0.prefix(1).uppercased() + $0.dropFirst() }),
            ("xml plist", { try xml.encode($0) }, plist, asGiven),
            ("binary plist", { try binary.encode($0) }, plist, asGiven),
        ]
        let open: @Sendable (String) -> HandWrittenKeyTypesTests.AnyKey = { HandWrittenKeyTypesTests.AnyKey($0) }
        let closed: @Sendable (String) -> HandWrittenKeyTypesTests.ClosedKey = {
            switch $0 {
            case "version": .version
            case "_metadata": .metadata
            default: HandWrittenKeyTypesTests.ClosedKey(stringValue: "title")!
            }
        }
        let enumKey: @Sendable (String) -> EnumKey = { EnumKey(stringValue: $0)! }
        for (coder, encode, object, keyForm) in coders {
            for path in [["version"], ["_metadata"], ["_metadata", "version"]] {
                for shape in Shape.allCases {
                    let name = "\(coder), \(shape) at \(path.joined(separator: "."))"
                    let enumKeys = Probe<EnumKey, MetadataVersionSpec>(path: path, shape: shape, key: enumKey)
                    try check(enumKeys, "enum keys, \(name)", encode: encode, object: object, keyForm: keyForm)
                    let openKeys = Probe<HandWrittenKeyTypesTests.AnyKey, MetadataVersionSpec>(
                        path: path,
                        shape: shape,
                        key: open
                    )
                    try check(openKeys, "open keys, \(name)", encode: encode, object: object, keyForm: keyForm)
                    let closedKeys = Probe<HandWrittenKeyTypesTests.ClosedKey, MetadataVersionSpec>(
                        path: path,
                        shape: shape,
                        key: closed
                    )
                    try check(closedKeys, "closed keys, \(name)", encode: encode, object: object, keyForm: keyForm)
                    let atRoot = Probe<HandWrittenKeyTypesTests.ClosedKey, VersionKeyAtRootVersionPathSpec>(
                        path: path,
                        shape: shape,
                        key: closed
                    )
                    try check(
                        atRoot,
                        "closed keys, version at the root, \(name)",
                        encode: encode,
                        object: object,
                        keyForm: keyForm
                    )
                    let openAtRoot = Probe<HandWrittenKeyTypesTests.AnyKey, VersionKeyAtRootVersionPathSpec>(
                        path: path,
                        shape: shape,
                        key: open
                    )
                    try check(
                        openAtRoot,
                        "open keys, version at the root, \(name)",
                        encode: encode,
                        object: object,
                        keyForm: keyForm
                    )
                    let enumAtRoot = Probe<EnumKey, VersionKeyAtRootVersionPathSpec>(
                        path: path,
                        shape: shape,
                        key: enumKey
                    )
                    try check(
                        enumAtRoot,
                        "enum keys, version at the root, \(name)",
                        encode: encode,
                        object: object,
                        keyForm: keyForm
                    )
                }
            }
        }
    }

    /// Runs in a child process: a write that traps the coder fails this test only.
    @Test(
        "Every container at every place the spec writes, with every kind of key, reads as plain plus the version or throws"
    )
    func everyWrite() async {
        await #expect(processExitsWith: .success) {
            SpecTruth.endChildProcess {
                try WritesWhereTheSpecWritesTests.checkAll()
            }
        }
    }
}
