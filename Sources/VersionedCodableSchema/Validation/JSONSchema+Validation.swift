import Foundation

extension JSONSchema {
    /// Checks a JSON document against this schema.
    ///
    /// The validator knows the keywords the derivation writes: `type`, `properties`, `required`,
    /// `additionalProperties`, `items`, `enum`, `const`, `minimum`, `maximum`, `anyOf`, and `$ref`
    /// to `#` or to `#/$defs/<name>` of this schema. Annotations (`format`, `description`) are not
    /// checked.
    ///
    /// <!-- snippet: schema-validate -->
    /// ```swift
    /// let problems = try schema.violations(in: data)
    /// #expect(problems.isEmpty, "\(name): \(problems)")
    /// ```
    ///
    /// - Parameter document: A JSON document.
    /// - Returns: Every place the document breaks the schema, empty for a document that matches.
    /// - Throws: The decoder's error when `document` is not JSON.
    public func violations(in document: Data) throws -> [SchemaViolation] {
        violations(of: try JSONDecoder().decode(JSONValue.self, from: document))
    }

    /// Checks a JSON value against this schema.
    ///
    /// - Parameter value: The value to check, as the root of the document.
    /// - Returns: Every place the value breaks the schema, empty for a value that matches.
    public func violations(of value: JSONValue) -> [SchemaViolation] {
        var found: [SchemaViolation] = []
        check(value, against: self, at: "$", root: self, references: 0, into: &found)
        return found
    }

    private func check(
        _ value: JSONValue,
        against schema: JSONSchema,
        at path: String,
        root: JSONSchema,
        references: Int,
        into found: inout [SchemaViolation]
    ) {
        func fail(_ message: String) {
            found.append(SchemaViolation(path: path, message: message))
        }
        if let boolean = schema.boolean {
            if !boolean { fail("no value is allowed here") }
            return
        }
        if let reference = schema.ref {
            // A chain of references that never reaches a value would not end.
            guard references < 64, let target = resolve(reference, in: root) else {
                fail("the schema's reference \(reference) leads nowhere")
                return
            }
            check(value, against: target, at: path, root: root, references: references + 1, into: &found)
        }
        if let anyOf = schema.anyOf {
            // The option that comes closest, the first of those with the fewest violations, tells
            // where a document that matches none is damaged: for a versioned part, usually the
            // version it carries.
            var closest: [SchemaViolation]?
            for option in anyOf {
                var inner: [SchemaViolation] = []
                check(value, against: option, at: path, root: root, references: references, into: &inner)
                if inner.isEmpty {
                    closest = nil
                    break
                }
                if closest == nil || inner.count < closest!.count {
                    closest = inner
                }
            }
            if let closest, let first = closest.first {
                fail("matches none of the allowed schemas; the closest fails at \(first)")
            }
        }
        if let types = schema.type, !types.contains(where: { Self.value(value, is: $0) }) {
            fail("expected \(types.joined(separator: " or ")), found \(value.typeName) \(value)")
            return
        }
        if let constant = schema.constValue, value != constant {
            fail("expected \(constant), found \(value)")
        }
        if let allowed = schema.enumValues, !allowed.contains(value) {
            fail("expected one of \(allowed.map(\.description).joined(separator: ", ")), found \(value)")
        }
        if case .number(let number) = value {
            if let minimum = schema.minimum, number < minimum { fail("\(number) is below the minimum \(minimum)") }
            if let maximum = schema.maximum, number > maximum { fail("\(number) is above the maximum \(maximum)") }
        }
        if case .array(let elements) = value, let items = schema.items {
            for (index, element) in elements.enumerated() {
                check(element, against: items, at: "\(path)[\(index)]", root: root, references: 0, into: &found)
            }
        }
        if case .object(let object) = value {
            for key in (schema.required ?? []) where object[key] == nil {
                fail("missing required key \"\(key)\"")
            }
            for key in object.keys.sorted() {
                let inner = "\(path).\(key)"
                if let property = schema.properties?[key] {
                    check(object[key]!, against: property, at: inner, root: root, references: 0, into: &found)
                } else if let additional = schema.additionalProperties {
                    if additional.boolean == false {
                        found.append(SchemaViolation(path: inner, message: "the key is not allowed"))
                    } else {
                        check(object[key]!, against: additional, at: inner, root: root, references: 0, into: &found)
                    }
                }
            }
        }
    }

    private func resolve(_ reference: String, in root: JSONSchema) -> JSONSchema? {
        if reference == "#" { return root }
        let prefix = "#/$defs/"
        guard reference.hasPrefix(prefix) else { return nil }
        return root.definitions?[String(reference.dropFirst(prefix.count))]
    }

    private static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .number):
            true
        case ("integer", .number(let number)): number.isWholeNumber
        default: false
        }
    }
}
