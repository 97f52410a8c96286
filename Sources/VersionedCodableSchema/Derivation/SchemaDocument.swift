/// Puts a derivation's definitions together into one document: the root version's schema at
/// the root, definitions used once written where they are used, the rest in `$defs`.
enum SchemaDocument {
    static func assemble(root: String, recorder: SchemaRecorder) -> JSONSchema {
        var definitions = recorder.definitions
        for part in recorder.parts.values {
            definitions[part.name] = part.schema(definitions: recorder.definitions)
        }
        guard var document = definitions.removeValue(forKey: root) else {
            var empty = JSONSchema()
            empty.addIncompleteNote("\(root) could not be recorded")
            return empty
        }
        let rootReference = JSONSchema.reference(to: root).ref!
        func pointingAtRoot(_ schema: JSONSchema) -> JSONSchema {
            rewrite(schema) { $0 == rootReference ? "#" : nil }
        }
        document = pointingAtRoot(document)
        definitions = definitions.mapValues(pointingAtRoot)

        // Inline each definition used once that does not contain itself, until none is left.
        var changed = true
        while changed {
            changed = false
            var counts: [String: Int] = [:]
            for schema in [document] + Array(definitions.values) {
                countReferences(in: schema, into: &counts)
            }
            for name in definitions.keys.sorted() where !recorder.keptDefinitions.contains(name) {
                let reference = JSONSchema.reference(to: name).ref!
                guard counts[reference, default: 0] <= 1, let body = definitions[name] else { continue }
                var own: [String: Int] = [:]
                countReferences(in: body, into: &own)
                guard own[reference] == nil else { continue }
                definitions[name] = nil
                document = inline(reference, with: body, in: document)
                definitions = definitions.mapValues { inline(reference, with: body, in: $0) }
                changed = true
            }
        }
        if !definitions.isEmpty {
            document.definitions = definitions
        }
        return document
    }

    private static func inline(_ reference: String, with body: JSONSchema, in schema: JSONSchema) -> JSONSchema {
        transform(schema) { $0.ref == reference ? merged(body, over: $0) : nil }
    }

    /// The body in place of a reference, keeping what the reference site added (a description).
    static func merged(_ body: JSONSchema, over site: JSONSchema) -> JSONSchema {
        var result = body
        if let note = site.description {
            result.description = body.description.map { $0 + "\n" + note } ?? note
        }
        return result
    }

    private static func rewrite(_ schema: JSONSchema, _ change: (String) -> String?) -> JSONSchema {
        transform(schema) { site in
            guard let reference = site.ref, let new = change(reference) else { return nil }
            var result = site
            result.ref = new
            return result
        }
    }

    /// Applies `replace` to every schema inside `schema`, outermost first; a replaced schema is
    /// not looked into again.
    static func transform(_ schema: JSONSchema, _ replace: (JSONSchema) -> JSONSchema?) -> JSONSchema {
        if let replaced = replace(schema) {
            return replaced
        }
        var result = schema
        result.properties = schema.properties?.mapValues { transform($0, replace) }
        result.items = schema.items.map { transform($0, replace) }
        result.additionalProperties = schema.additionalProperties.map { transform($0, replace) }
        result.anyOf = schema.anyOf?.map { transform($0, replace) }
        result.definitions = schema.definitions?.mapValues { transform($0, replace) }
        return result
    }

    static func countReferences(in schema: JSONSchema, into counts: inout [String: Int]) {
        if let reference = schema.ref {
            counts[reference, default: 0] += 1
        }
        for inner in (schema.properties.map { Array($0.values) } ?? [])
            + [schema.items, schema.additionalProperties]
            .compactMap({ $0 }) + (schema.anyOf ?? []) + (schema.definitions.map { Array($0.values) } ?? [])
        {
            countReferences(in: inner, into: &counts)
        }
    }
}
