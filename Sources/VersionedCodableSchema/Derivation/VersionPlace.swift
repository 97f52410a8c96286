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

    /// Adds the version of `type` to `schema`, an object schema of the version's own fields,
    /// whose references point into `definitions`.
    static func add<V: VersionedCodable>(
        _ type: V.Type,
        to schema: inout JSONSchema,
        definitions: [String: JSONSchema]
    ) {
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
        let required = V.version != nil
        // The spec's objects on the way to the version may hold more than the version: left
        // open, unless the type's own object there says what else it holds.
        schema.changeObjects(along: path.dropLast(), definitions: definitions) { object, key in
            if key == nil {
                object.properties = (object.properties ?? [:]).merging([path.last!: leaf]) { $1 }
            }
            if object.type == nil {
                object.type = ["object"]
            }
            if required {
                object.required = Array(Set((object.required ?? []) + [key ?? path.last!])).sorted()
            }
        }
    }
}

extension JSONSchema {
    /// Calls `change` with each object schema on the way along `path`, the keys of the spec's
    /// objects from the root to the one that holds the version: first this one, with the key it
    /// goes on at, and last the one at the end, with `nil`.
    ///
    /// Where the type has an object of its own on the way, it is the type's schema of it that
    /// changes, a copy of its definition in place of a reference, since a reference's schema
    /// allows only its own keys. An optional object's `null` is written as the spec's object
    /// alone: the option becomes a closed object, which the spec's keys are added to, and an
    /// optional dictionary's schema no longer allows `null`.
    mutating func changeObjects(
        along path: ArraySlice<String>,
        definitions: [String: JSONSchema],
        _ change: (inout JSONSchema, String?) -> Void
    ) {
        guard let key = path.first else {
            change(&self, nil)
            return
        }
        change(&self, key)
        var inner = properties?[key] ?? JSONSchema(type: "object")
        if let options = inner.anyOf {
            inner.anyOf = options.map { option in
                var option = option.type == ["null"] ? JSONSchema.closedObject : option.resolved(in: definitions)
                option.changeObjects(along: path.dropFirst(), definitions: definitions, change)
                return option
            }
        } else {
            inner = inner.resolved(in: definitions)
            // An optional dictionary's `nil`, too, is the spec's object alone, never `null`.
            if let types = inner.type, types.count > 1 {
                inner.type = types.filter { $0 != "null" }
            }
            inner.changeObjects(along: path.dropFirst(), definitions: definitions, change)
        }
        properties = (properties ?? [:]).merging([key: inner]) { $1 }
    }

    /// The definition a reference points to, with the reference's own description, or this
    /// schema where it is no reference into `definitions`.
    private func resolved(in definitions: [String: JSONSchema]) -> JSONSchema {
        let prefix = "#/$defs/"
        guard let ref, ref.hasPrefix(prefix), var body = definitions[String(ref.dropFirst(prefix.count))] else {
            return self
        }
        if let description {
            body.description = body.description.map { $0 + "\n" + description } ?? description
        }
        return body
    }

    /// An object with no keys, which the spec's keys are added to.
    private static var closedObject: JSONSchema {
        var object = JSONSchema(type: "object")
        object.additionalProperties = .false
        return object
    }
}
