import Foundation
import VersionedCodable

/// The version's place in a document, found by writing the type's own spec with a version no
/// document holds and looking for it, and added to the version's schema as a constant.
enum VersionPlace {
    /// A version number that stands out in the spec's output.
    private static let marker = 7_391_042_615

    /// The keys from the root to the version, or `nil` when the spec does not write it where
    /// JSON can show it.
    static func path<V: VersionedCodable>(of type: V.Type) -> [String]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(V.VersionSpec(withVersion: marker)),
            let object = try? JSONSerialization.jsonObject(with: data)
        else { return nil }
        return find(in: object)
    }

    private static func find(in value: Any) -> [String]? {
        if let number = value as? NSNumber, number.int64Value == Int64(marker) {
            return []
        }
        guard let object = value as? [String: Any] else { return nil }
        for key in object.keys.sorted() {
            if let rest = find(in: object[key]!) {
                return [key] + rest
            }
        }
        return nil
    }

    /// Adds the version of `type` to `schema`, an object schema of the version's own fields.
    static func add<V: VersionedCodable>(_ type: V.Type, to schema: inout JSONSchema) {
        guard let path = path(of: V.self), !path.isEmpty else {
            schema.addIncompleteNote("\(V.VersionSpec.self) writes the version nowhere JSON shows it")
            return
        }
        var leaf: JSONSchema
        if let version = V.version {
            leaf = JSONSchema(type: "integer")
            leaf.constValue = .number(Decimal(version))
        } else {
            // A document from before versioning has no version: the key is absent, or null.
            leaf = JSONSchema(type: "null")
        }
        place(leaf, along: path[...], in: &schema, required: V.version != nil)
    }

    private static func place(
        _ leaf: JSONSchema,
        along path: ArraySlice<String>,
        in schema: inout JSONSchema,
        required: Bool
    ) {
        guard let key = path.first else { return }
        var properties = schema.properties ?? [:]
        if path.count == 1 {
            properties[key] = leaf
        } else {
            // The spec's object beside the version may hold more than the version: left open.
            var inner = properties[key] ?? JSONSchema(type: "object")
            place(leaf, along: path.dropFirst(), in: &inner, required: required)
            properties[key] = inner
        }
        schema.properties = properties
        if schema.type == nil {
            schema.type = ["object"]
        }
        if required {
            schema.required = Array(Set((schema.required ?? []) + [key])).sorted()
        }
    }
}
