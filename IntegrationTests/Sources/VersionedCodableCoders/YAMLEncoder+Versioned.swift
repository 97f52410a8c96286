import Foundation
import VersionedCodable
import Yams

extension YAMLEncoder {
    /// Encodes a value as YAML with its current version.
    ///
    /// The version is written at the path of the type's `VersionSpec`, after the type's own
    /// keys. At the root (the default spec) it is merged into the type's mapping. Yams cannot
    /// merge it into a nested mapping the type also writes (such as `_metadata`): it replaces
    /// that mapping, so a nested version path is checked after writing and encoding throws
    /// ``CoderMergeError/coderDroppedFields(coder:paths:)`` instead of losing the type's fields.
    ///
    /// ```swift
    /// let yaml = try YAMLEncoder().encode(versioned: poem)
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The YAML document.
    /// - Throws: `VersionedEncodingError` when the type writes its own value where the version
    ///   goes, ``CoderMergeError`` when Yams dropped a field while merging the version, and
    ///   whatever the value's own encoding throws.
    public func encode<Value: VersionedCodable>(versioned value: Value) throws -> String {
        let data: Data
        do {
            data = try value.encodeTransparently { encodable in
                Data(try self.encode(encodable).utf8)
            }
        } catch EncodingError.invalidValue(_, let context)
            where context.underlyingError is VersionedEncodingError
        {
            // Yams wraps every error thrown while encoding; hand back the library's own error.
            throw context.underlyingError!
        }
        // The data was made from a `String` just above, so it is valid UTF-8.
        let yaml = String(decoding: data, as: UTF8.self)
        if try versionPathIsNested(Value.VersionSpec.self) {
            try checkNothingDropped(from: value, in: yaml)
        }
        return yaml
    }

    private func versionPathIsNested<Spec: VersionPathSpec>(_ spec: Spec.Type) throws -> Bool {
        let node = try compose(yaml: encode(Spec(withVersion: 1)))
        return node?.mapping?.values.contains { $0.mapping != nil } ?? false
    }

    private func checkNothingDropped(from value: some Encodable, in yaml: String) throws {
        guard let plain = try compose(yaml: encode(value)), let written = try compose(yaml: yaml) else {
            return
        }
        let dropped = Self.missing(plain, from: written, path: [])
        if !dropped.isEmpty {
            throw CoderMergeError.coderDroppedFields(coder: "YAMLEncoder", paths: dropped)
        }
    }

    /// The paths of everything in `expected` that `actual` does not hold.
    private static func missing(_ expected: Node, from actual: Node, path: [String]) -> [String] {
        switch (expected, actual) {
        case (.mapping(let expected), .mapping(let actual)):
            return expected.flatMap { key, value -> [String] in
                let keyPath = path + [key.string ?? "\(key)"]
                guard let found = actual[key] else {
                    return [keyPath.joined(separator: ".")]
                }
                return missing(value, from: found, path: keyPath)
            }
        case (.sequence(let expected), .sequence(let actual)) where expected.count == actual.count:
            return zip(expected, actual).enumerated().flatMap { index, pair in
                missing(pair.0, from: pair.1, path: path + ["\(index)"])
            }
        default:
            return expected == actual ? [] : [path.isEmpty ? "the document" : path.joined(separator: ".")]
        }
    }
}
