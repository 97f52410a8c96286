/// What a type's code read from one container of the recording decoder, turned into a schema
/// when the code is done.
final class RecordedNode {
    enum Shape {
        case nothing, keyed, unkeyed, single
    }

    /// A schema known now, or a container still being read.
    enum Slot {
        case schema(JSONSchema)
        case node(RecordedNode)
    }

    private(set) var shape = Shape.nothing
    var notes: [String] = []

    // Keyed: the properties by document key, which keys may be absent, which may be null.
    var properties: [String: Slot] = [:]
    var optionalKeys: Set<String> = []
    var nullableKeys: Set<String> = []
    /// Set when the code asked for the container's keys, as a dictionary does.
    var readsAllKeys = false
    var additionalValues: Slot?

    // Unkeyed: the element schema; single value: the value's.
    var element: Slot?
    var elementIsNullable = false
    var single: Slot?
    var singleIsNullable = false

    /// Notes the container the code opened; a second, different one is noted, not followed.
    func open(_ shape: Shape, typeName: String) {
        if self.shape == .nothing {
            self.shape = shape
        } else if self.shape != shape {
            notes.append("\(typeName) opens containers of more than one kind")
        }
    }

    /// An object with named properties, as a struct or a class is written: worth a definition.
    var isNamedObject: Bool { shape == .keyed && !readsAllKeys }

    func schema(typeName: String, complete: Bool) -> JSONSchema {
        var schema: JSONSchema
        var notes = notes
        switch shape {
        case .nothing:
            schema = JSONSchema()
            notes.append("\(typeName) read nothing from the recording decoder")
        case .single:
            schema = single.map { Self.resolve($0, typeName: typeName, complete: complete) } ?? JSONSchema()
            if singleIsNullable {
                schema = schema.allowingNull
            }
        case .unkeyed:
            schema = JSONSchema(type: "array")
            if let element {
                let items = Self.resolve(element, typeName: typeName, complete: complete)
                schema.items = elementIsNullable ? items.allowingNull : items
            }
        case .keyed:
            schema = JSONSchema(type: "object")
            var resolved: [String: JSONSchema] = [:]
            for (key, slot) in properties {
                let property = Self.resolve(slot, typeName: typeName, complete: complete)
                resolved[key] = nullableKeys.contains(key) ? property.allowingNull : property
            }
            if !resolved.isEmpty {
                schema.properties = resolved
            }
            let required = properties.keys.filter { !optionalKeys.contains($0) }.sorted()
            if !required.isEmpty {
                schema.required = required
            }
            if readsAllKeys {
                schema.additionalProperties = additionalValues.map {
                    Self.resolve($0, typeName: typeName, complete: complete)
                }
            } else if complete && notes.isEmpty {
                schema.additionalProperties = .false
            }
        }
        for note in notes {
            schema.addIncompleteNote(note)
        }
        return schema
    }

    private static func resolve(_ slot: Slot, typeName: String, complete: Bool) -> JSONSchema {
        switch slot {
        case .schema(let schema): schema
        case .node(let node): node.schema(typeName: typeName, complete: complete)
        }
    }
}
