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
    /// whose references point into `definitions`, with what else its spec reads beside the
    /// version on the way to it (a `format` constant in `_metadata`), as the spec reads it.
    static func add<V: VersionedCodable>(
        _ type: V.Type,
        to schema: inout JSONSchema,
        definitions: [String: JSONSchema],
        options: DerivationOptions
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
        let specObjects = specObjects(of: V.self, along: path.dropLast(), options: options)
        // The spec's objects on the way to the version may hold more than the version: left
        // open, unless the type's own object there says what else it holds.
        schema.changeObjects(along: path.dropLast(), definitions: definitions) { object, key, depth in
            var properties = object.properties ?? [:]
            if key == nil {
                properties[path.last!] = leaf
            }
            // The spec's other keys here, unless the type reads the same key (a mirror).
            let spec = depth < specObjects.count ? specObjects[depth] : JSONSchema()
            for (specKey, value) in spec.properties ?? [:] where specKey != (key ?? path.last!) {
                if properties[specKey] == nil {
                    properties[specKey] = value
                }
                if spec.required?.contains(specKey) == true {
                    object.require(specKey)
                }
            }
            object.properties = properties
            if object.type == nil {
                object.type = ["object"]
            }
            if required {
                object.require(key ?? path.last!)
            }
        }
    }
}

extension VersionPlace {
    /// The objects `V`'s spec reads from the root along `path`, as recorded from its own
    /// `init(from:)`, each with the schemas of the keys it reads there that hold no reference to
    /// a definition of its own: none for the default spec, which reads the version alone.
    fileprivate static func specObjects<V: VersionedCodable>(
        of type: V.Type,
        along path: ArraySlice<String>,
        options: DerivationOptions
    ) -> [JSONSchema] {
        guard V.VersionSpec.self != VersionKeyAtRootVersionPathSpec.self else {
            return []
        }
        let recorder = SchemaRecorder(options: options, variant: 0)
        guard let recorded = try? recorder.record(V.VersionSpec.self, at: []) else {
            return []
        }
        var objects: [JSONSchema] = []
        var object: JSONSchema? = recorded.schema.resolved(in: recorder.definitions)
        for key in [nil] + path.map(Optional.some) {
            if let key {
                object = object?.properties?[key]?.resolved(in: recorder.definitions)
            }
            guard var found = object else {
                break
            }
            found.properties = found.properties?.filter { _, value in
                var references: [String: Int] = [:]
                SchemaDocument.countReferences(in: value, into: &references)
                return references.isEmpty
            }
            objects.append(found)
        }
        return objects
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
        depth: Int = 0,
        _ change: (inout JSONSchema, String?, Int) -> Void
    ) {
        guard let key = path.first else {
            change(&self, nil, depth)
            return
        }
        change(&self, key, depth)
        var inner = properties?[key] ?? (holdsSingleValues ? .specsAlone : JSONSchema(type: "object"))
        if let options = inner.anyOf {
            inner.anyOf = options.map { option in
                var option = option.type == ["null"] ? JSONSchema.specsAlone : option.resolved(in: definitions)
                option.changeObjects(along: path.dropFirst(), definitions: definitions, depth: depth + 1, change)
                return option
            }
        } else {
            inner = inner.resolved(in: definitions)
            // An optional dictionary's `nil`, too, is the spec's object alone, never `null`.
            if let types = inner.type, types.count > 1 {
                inner.type = types.filter { $0 != "null" }
            }
            inner.changeObjects(along: path.dropFirst(), definitions: definitions, depth: depth + 1, change)
        }
        properties = (properties ?? [:]).merging([key: inner]) { $1 }
    }

    /// Whether this is a dictionary whose values are single values (`[String: String]`): an
    /// object the spec writes in it is read as an entry where it holds any key besides the
    /// spec's, and no such entry reads, so the object is the spec's alone.
    private var holdsSingleValues: Bool {
        guard let values = additionalProperties, values.boolean == nil, values.ref == nil, values.anyOf == nil,
            let types = values.type
        else {
            return false
        }
        return !types.contains("object")
    }

    /// The definition a reference points to, with the reference's own description, or this
    /// schema where it is no reference into `definitions`.
    func resolved(in definitions: [String: JSONSchema]) -> JSONSchema {
        let prefix = "#/$defs/"
        guard let ref, ref.hasPrefix(prefix), let body = definitions[String(ref.dropFirst(prefix.count))] else {
            return self
        }
        return SchemaDocument.merged(body, over: self)
    }

    /// The spec's object where it holds nothing of the type's (an optional's `nil`, or an object
    /// in a dictionary of single values): a closed object with no keys, which the spec's keys are
    /// added to, said in its description, so that a newer document's schema keeps it closed.
    static var specsAlone: JSONSchema {
        var object = JSONSchema(type: "object")
        object.additionalProperties = .false
        object.description = specsAloneDescription
        return object
    }

    static let specsAloneDescription = "holds only what the version's spec writes there"
}
