import Foundation

/// One difference between a committed schema and the one derived now, at one field.
public struct SchemaChange: Hashable, Sendable, CustomStringConvertible {
    /// What changed at the field.
    public enum Kind: Hashable, Sendable {
        /// The field is new.
        case added
        /// The field is gone.
        case removed
        /// The field's JSON type changed, as `integer` to `string`.
        case typeChanged(from: String, to: String)
        /// The field became required (`true`) or optional (`false`).
        case requiredChanged(nowRequired: Bool)
        /// Something else about the field changed: its allowed values, its bounds, whether it
        /// is closed, whether the derivation could see all of it.
        case constraintChanged(String)
    }

    /// The field, as a path of keys from the document's root: `author.born`; `[]` stands for an
    /// array's elements and `{}` for a dictionary's values. `(document)` is the root itself.
    public let field: String
    /// What changed.
    public let kind: Kind

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - field: The field's path of keys.
    ///   - kind: What changed.
    public init(field: String, kind: Kind) {
        self.field = field
        self.kind = kind
    }

    /// The field and the change: `author.born: added`.
    public var description: String {
        switch kind {
        case .added: "\(field): added"
        case .removed: "\(field): removed"
        case .typeChanged(let old, let new): "\(field): type changed from \(old) to \(new)"
        case .requiredChanged(let nowRequired): "\(field): \(nowRequired ? "now required" : "no longer required")"
        case .constraintChanged(let what): "\(field): \(what)"
        }
    }
}

extension JSONSchema {
    /// The fields that differ between an earlier schema and this one.
    ///
    /// References are followed on both sides, so a type moved between `$defs` and its place is
    /// no change; a type that contains itself is compared once. When two schemas differ only
    /// outside their fields (a title, a note), the one change says so, so that unequal schemas
    /// never give an empty list.
    ///
    /// - Parameter old: The earlier schema, such as a committed file's.
    /// - Returns: The changes, in the order of the fields' paths.
    public func changes(since old: JSONSchema) -> [SchemaChange] {
        var comparison = SchemaComparison(oldRoot: old, newRoot: self)
        comparison.compare(old, self, field: "(document)")
        if comparison.changes.isEmpty && old != self {
            comparison.changes.append(
                SchemaChange(
                    field: "(document)",
                    kind: .constraintChanged("the schemas differ outside their fields (titles, notes or definitions)")
                )
            )
        }
        return comparison.changes
    }
}

/// The walk of two schemas side by side, field by field.
private struct SchemaComparison {
    let oldRoot: JSONSchema
    let newRoot: JSONSchema
    var changes: [SchemaChange] = []
    private var compared: Set<String> = []

    init(oldRoot: JSONSchema, newRoot: JSONSchema) {
        self.oldRoot = oldRoot
        self.newRoot = newRoot
    }

    mutating func compare(_ oldSite: JSONSchema, _ newSite: JSONSchema, field: String) {
        let old = oldSite.followingReferences(in: oldRoot)
        let new = newSite.followingReferences(in: newRoot)
        if oldSite.ref != nil || newSite.ref != nil {
            let pair = "\(oldSite.ref ?? "")|\(newSite.ref ?? "")"
            guard compared.insert(pair).inserted else { return }
        }
        func note(_ kind: SchemaChange.Kind) {
            changes.append(SchemaChange(field: field, kind: kind))
        }
        let oldType = summary(old, root: oldRoot)
        let newType = summary(new, root: newRoot)
        if oldType != newType {
            note(.typeChanged(from: oldType, to: newType))
            return
        }
        if old.enumValues != new.enumValues {
            note(.constraintChanged("allowed values changed from \(list(old.enumValues)) to \(list(new.enumValues))"))
        }
        if old.constValue != new.constValue {
            note(.constraintChanged("constant changed from \(text(old.constValue)) to \(text(new.constValue))"))
        }
        if old.minimum != new.minimum || old.maximum != new.maximum {
            note(
                .constraintChanged(
                    "bounds changed from \(bounds(old.minimum, old.maximum)) to \(bounds(new.minimum, new.maximum))"
                )
            )
        }
        if old.format != new.format || old.contentEncoding != new.contentEncoding {
            note(.constraintChanged("format changed from \(format(old)) to \(format(new))"))
        }
        if (old.additionalProperties?.boolean == false) != (new.additionalProperties?.boolean == false) {
            let closed = new.additionalProperties?.boolean == false
            note(.constraintChanged(closed ? "now closed to other keys" : "now open to other keys"))
        }
        if old.isIncomplete != new.isIncomplete {
            note(
                .constraintChanged(
                    new.isIncomplete
                        ? "the derivation can no longer see all of it" : "the derivation now sees all of it"
                )
            )
        }
        let oldProperties = old.properties ?? [:]
        let newProperties = new.properties ?? [:]
        let oldRequired = Set(old.required ?? [])
        let newRequired = Set(new.required ?? [])
        for key in Set(oldProperties.keys).union(newProperties.keys).sorted() {
            let inner = field == "(document)" ? key : "\(field).\(key)"
            switch (oldProperties[key], newProperties[key]) {
            case (nil, _?): changes.append(SchemaChange(field: inner, kind: .added))
            case (_?, nil): changes.append(SchemaChange(field: inner, kind: .removed))
            case (let before?, let after?):
                if oldRequired.contains(key) != newRequired.contains(key) {
                    changes.append(
                        SchemaChange(field: inner, kind: .requiredChanged(nowRequired: newRequired.contains(key)))
                    )
                }
                compare(before, after, field: inner)
            case (nil, nil): break
            }
        }
        if let before = old.items, let after = new.items {
            compare(before, after, field: field + "[]")
        }
        if let before = old.additionalProperties, let after = new.additionalProperties, before.boolean == nil,
            after.boolean == nil
        {
            compare(before, after, field: field + "{}")
        }
        if let before = old.anyOf, let after = new.anyOf, before.count == after.count {
            for (earlier, later) in zip(before, after) {
                compare(earlier, later, field: field)
            }
        }
    }

    /// The JSON types a schema allows, in words: `integer`, `string or null`, `object`.
    ///
    /// Each reference among the options is summed up once, so that options that refer to each
    /// other cost no more than the options themselves: one met again inside itself stands for the
    /// types it names directly.
    private func summary(_ schema: JSONSchema, root: JSONSchema) -> String {
        var known: [String: String] = [:]
        return summary(schema, root: root, known: &known)
    }

    private func summary(_ schema: JSONSchema, root: JSONSchema, known: inout [String: String]) -> String {
        if let boolean = schema.boolean { return boolean ? "anything" : "nothing" }
        guard let options = schema.anyOf else {
            return schema.type?.joined(separator: " or ") ?? "anything"
        }
        return options.map { option in
            guard let reference = option.ref else {
                return summary(option, root: root, known: &known)
            }
            if let summed = known[reference] {
                return summed
            }
            let target = option.followingReferences(in: root)
            known[reference] = target.type?.joined(separator: " or ") ?? "anything"
            let summed = summary(target, root: root, known: &known)
            known[reference] = summed
            return summed
        }.joined(separator: " or ")
    }

    private func list(_ values: [JSONValue]?) -> String {
        values.map { "[" + $0.map(\.description).joined(separator: ", ") + "]" } ?? "any"
    }

    private func text(_ value: JSONValue?) -> String {
        value?.description ?? "none"
    }

    private func bounds(_ minimum: Decimal?, _ maximum: Decimal?) -> String {
        "\(minimum.map { "\($0)" } ?? "-∞")...\(maximum.map { "\($0)" } ?? "∞")"
    }

    private func format(_ schema: JSONSchema) -> String {
        [schema.format, schema.contentEncoding].compactMap { $0 }.joined(separator: ", ").nonEmpty ?? "none"
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

extension JSONSchema {
    /// The schema a reference leads to, in `root`'s definitions (`#/$defs/Name`) or `root` itself
    /// (`#`), followed until a schema that is not one, up to 64 steps; a reference elsewhere is
    /// left as it is.
    package func followingReferences(in root: JSONSchema) -> JSONSchema {
        var current = self
        var steps = 0
        while let reference = current.ref, steps < 64 {
            steps += 1
            if reference == "#" {
                current = root
            } else if reference.hasPrefix("#/$defs/"), let target = root.definitions?[String(reference.dropFirst(8))] {
                current = target
            } else {
                break
            }
        }
        return current
    }
}
