import Foundation
import VersionedCodableSchema

/// An older and a newer version's schemas walked side by side, for what an older build does with
/// the newer version's documents: reads them with its own type (`forward`), and writes them back
/// for the newer version to read (`backward`). Each problem is one line, with the field's path.
///
/// References are followed on both sides; a pair of them is compared once, so that a type used
/// twice, or one that holds itself, adds no second walk. An optional's value, array elements
/// (`items[]`) and dictionary values (`scores{}`) are compared as fields are. Where a field has
/// several kinds of value (`anyOf`), only a ``Versioned`` part's are compared beyond their JSON
/// types: the version each side writes is the newest of its options.
struct CompatibilityWalk {
    let oldRoot: JSONSchema
    let newRoot: JSONSchema
    let names: (old: String, new: String)
    /// The document's version: its constant is the one value that differs between the two sides
    /// by design.
    let version: Int
    let forward: Bool
    let backward: Bool
    private(set) var problems: [String] = []
    private var compared: Set<String> = []

    init(
        oldRoot: JSONSchema,
        newRoot: JSONSchema,
        names: (old: String, new: String),
        version: Int,
        forward: Bool,
        backward: Bool
    ) {
        self.oldRoot = oldRoot
        self.newRoot = newRoot
        self.names = names
        self.version = version
        self.forward = forward
        self.backward = backward
    }

    /// Compares what the two sides allow at `field`; `keeping` holds the paths of the objects
    /// whose keys an older build writes back when it does not read them.
    mutating func compare(_ oldSite: JSONSchema, _ newSite: JSONSchema, field: String, keeping: Set<String>) {
        if oldSite.ref != nil || newSite.ref != nil {
            // Whether the place keeps the keys an older build does not read changes what counts.
            let pair = "\(oldSite.ref ?? "")|\(newSite.ref ?? "")|\(keeping.contains(field))"
            guard compared.insert(pair).inserted else { return }
        }
        let old = oldSite.followingReferences(in: oldRoot)
        let new = newSite.followingReferences(in: newRoot)
        guard old.anyOf != nil || new.anyOf != nil else {
            return compareOne(old, new, field: field, keeping: keeping)
        }
        let oldOptions = old.anyOf ?? [old]
        let newOptions = new.anyOf ?? [new]
        let oldValues = oldOptions.filter { !isNull($0, in: oldRoot) }
        let newValues = newOptions.filter { !isNull($0, in: newRoot) }
        if oldValues.count == 1, newValues.count == 1 {
            // An optional (or a value that is one on one side): whether it may be `null`, then
            // its value.
            let oldTypes: Set<String> = oldValues.count < oldOptions.count ? ["null"] : []
            let newTypes: Set<String> = newValues.count < newOptions.count ? ["null"] : []
            compareTypes(oldTypes, newTypes, field: field)
            return compare(oldValues[0], newValues[0], field: field, keeping: keeping)
        }
        let oldTypes = types(of: oldOptions, in: oldRoot)
        let newTypes = types(of: newOptions, in: newRoot)
        if !oldTypes.isEmpty, !newTypes.isEmpty {
            compareTypes(oldTypes, newTypes, field: field)
        }
        comparePart(oldValues, newValues, field: field, keeping: keeping)
    }

    /// Compares two schemas that offer one kind of value each.
    private mutating func compareOne(_ old: JSONSchema, _ new: JSONSchema, field: String, keeping: Set<String>) {
        let oldTypes = Set(old.type ?? [])
        let newTypes = Set(new.type ?? [])
        if !oldTypes.isEmpty, !newTypes.isEmpty {
            compareTypes(oldTypes, newTypes, field: field)
        }
        compareValues(old, new, field: field)
        if oldTypes.contains("object"), newTypes.contains("object") {
            compareProperties(old, new, field: field, keeping: keeping)
        }
        if let before = old.items, let after = new.items {
            compare(before, after, field: field + "[]", keeping: keeping)
        }
        if let before = old.additionalProperties, let after = new.additionalProperties, before.boolean == nil,
            after.boolean == nil
        {
            compare(before, after, field: field + "{}", keeping: keeping)
        }
    }

    private mutating func compareProperties(
        _ old: JSONSchema,
        _ new: JSONSchema,
        field: String,
        keeping: Set<String>
    ) {
        let oldProperties = old.properties ?? [:]
        let newProperties = new.properties ?? [:]
        let oldRequired = Set(old.required ?? [])
        let newRequired = Set(new.required ?? [])
        let kept = keeping.contains(field)
        for key in Set(oldProperties.keys).union(newProperties.keys).sorted() {
            let path = field.isEmpty ? key : "\(field).\(key)"
            let unknownToOld = oldProperties[key] == nil
            if backward, unknownToOld, !kept {
                note(path, "\(names.old) does not know it, and drops it when it writes the document back")
            } else if backward, newRequired.contains(key), !oldRequired.contains(key), !(kept && unknownToOld) {
                note(path, "required by \(names.new), which \(names.old) does not always write")
            }
            if forward, oldRequired.contains(key), !newRequired.contains(key) {
                note(path, "required by \(names.old), which \(names.new) does not always write")
            }
            guard let before = oldProperties[key], let after = newProperties[key] else { continue }
            // The document's own version differs between the two, as the walk is between versions.
            if kept, after.constValue == .number(Decimal(version)) {
                continue
            }
            compare(before, after, field: path, keeping: keeping)
        }
    }

    private mutating func compareTypes(_ old: Set<String>, _ new: Set<String>, field: String) {
        if backward, let lost = old.sorted().first(where: { !SchemaCheck.accepts(new, $0) }) {
            note(field, "\(names.old) writes \(lost), which \(names.new) does not read")
        }
        if forward, let gained = new.sorted().first(where: { !SchemaCheck.accepts(old, $0) }) {
            note(field, "\(names.new) writes \(gained), which \(names.old) does not read")
        }
    }

    /// Compares the values each side allows, where one lists them (an enumeration's cases, or a
    /// constant).
    private mutating func compareValues(_ old: JSONSchema, _ new: JSONSchema, field: String) {
        let oldValues = old.enumValues ?? old.constValue.map { [$0] }
        let newValues = new.enumValues ?? new.constValue.map { [$0] }
        if backward, let newValues, let lost = (oldValues ?? []).first(where: { !newValues.contains($0) }) {
            note(field, "\(names.old) writes \(lost), which \(names.new) does not read")
        } else if backward, newValues != nil, oldValues == nil {
            note(field, "\(names.old) writes values other than \(list(newValues)), which \(names.new) does not read")
        }
        if forward, let oldValues, let gained = (newValues ?? []).first(where: { !oldValues.contains($0) }) {
            note(field, "\(names.new) writes \(gained), which \(names.old) does not read")
        } else if forward, oldValues != nil, newValues == nil {
            note(field, "\(names.new) writes values other than \(list(oldValues)), which \(names.old) does not read")
        }
    }

    /// Compares a ``Versioned`` part, whose options are the versions its reader reads, each with
    /// its version's constant: the newest on each side is the one it writes. An older build
    /// reads the newer side's part with its own type where the versions are the same, or where
    /// the newer one declares that the older reads it (keeping then the keys it does not read at
    /// the part's root and on the way to its version). Another kind of field with several kinds
    /// of value is left at its JSON types.
    private mutating func comparePart(
        _ oldOptions: [JSONSchema],
        _ newOptions: [JSONSchema],
        field: String,
        keeping: Set<String>
    ) {
        let olds = oldOptions.map { $0.followingReferences(in: oldRoot) }
        let news = newOptions.map { $0.followingReferences(in: newRoot) }
        guard let first = olds.first, let path = versionPath(in: first, root: oldRoot),
            let old = newest(olds, at: path, in: oldRoot), let new = newest(news, at: path, in: newRoot)
        else {
            return
        }
        let place = ([field] + path).filter { !$0.isEmpty }.joined(separator: ".")
        if old.version == new.version {
            return compare(old.schema, new.schema, field: field, keeping: keeping)
        }
        guard new.version > old.version else {
            // A part written at an older version than before, which the older build's chain reads.
            return
        }
        let declaration = Array(path.dropLast()) + [path.last! + "ReadableFrom"]
        guard let readable = member(declaration, of: new.schema, in: newRoot),
            readable.minimum.map({ NSDecimalNumber(decimal: $0).intValue }) ?? new.version - 1 <= old.version
        else {
            if forward {
                note(
                    place,
                    "\(names.new) writes version \(new.version) of this part, which \(names.old) reads only up to "
                        + "version \(old.version)"
                )
            }
            return
        }
        // Read by the older build as its own version, as a document is: its fields are compared,
        // and the keys it does not read are kept at the part's root and on the way to its version.
        var partKeeping = keeping
        for length in 0..<path.count {
            partKeeping.insert(([field] + path.prefix(length)).filter { !$0.isEmpty }.joined(separator: "."))
        }
        let asRead = replacing(path, in: new.schema, root: newRoot, with: member(path, of: old.schema, in: oldRoot))
        compare(old.schema, asRead, field: field, keeping: partKeeping)
    }

    /// The path to an object's integer constant, a part's version in a derived schema, at its
    /// root or in the objects below it.
    private func versionPath(in schema: JSONSchema, root: JSONSchema, depth: Int = 0) -> [String]? {
        guard depth < 8 else { return nil }
        let properties = schema.properties ?? [:]
        for key in properties.keys.sorted() where constant(properties[key]!) != nil {
            return [key]
        }
        for key in properties.keys.sorted() {
            if let below = versionPath(in: properties[key]!.followingReferences(in: root), root: root, depth: depth + 1)
            {
                return [key] + below
            }
        }
        return nil
    }

    /// The option with the highest version at `path`, and that version.
    private func newest(
        _ options: [JSONSchema],
        at path: [String],
        in root: JSONSchema
    ) -> (schema: JSONSchema, version: Int)? {
        options.compactMap { option in member(path, of: option, in: root).flatMap(constant).map { (option, $0) } }
            .max { $0.1 < $1.1 }
    }

    private func member(_ path: [String], of schema: JSONSchema, in root: JSONSchema) -> JSONSchema? {
        var current = schema
        for key in path {
            guard let next = current.followingReferences(in: root).properties?[key] else { return nil }
            current = next
        }
        return current.followingReferences(in: root)
    }

    /// `schema` with the member at `path` replaced, the objects on the way taken out of their
    /// references.
    private func replacing(
        _ path: [String],
        in schema: JSONSchema,
        root: JSONSchema,
        with value: JSONSchema?
    ) -> JSONSchema {
        var copy = schema.followingReferences(in: root)
        guard let key = path.first, let value else { return copy }
        if path.count == 1 {
            copy.properties?[key] = value
        } else if let inner = copy.properties?[key] {
            copy.properties?[key] = replacing(Array(path.dropFirst()), in: inner, root: root, with: value)
        }
        return copy
    }

    private func constant(_ schema: JSONSchema) -> Int? {
        guard case .number(let value)? = schema.constValue else { return nil }
        return Int(exactly: NSDecimalNumber(decimal: value).doubleValue)
    }

    private func isNull(_ site: JSONSchema, in root: JSONSchema) -> Bool {
        site.followingReferences(in: root).type == ["null"]
    }

    /// The JSON types any of the options allows; empty where one allows anything.
    private func types(of options: [JSONSchema], in root: JSONSchema) -> Set<String> {
        var types: Set<String> = []
        for option in options {
            guard let named = option.followingReferences(in: root).type else { return [] }
            types.formUnion(named)
        }
        return types
    }

    private func list(_ values: [JSONValue]?) -> String {
        (values ?? []).map(\.description).joined(separator: ", ")
    }

    private mutating func note(_ field: String, _ problem: String) {
        problems.append("\(field.isEmpty ? "(document)" : field): \(problem)")
    }
}
