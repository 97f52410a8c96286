import Foundation
import VersionedCodable

/// The state of one derivation: the definitions found so far and the types being recorded, made
/// for one call of ``VersionSchemas/init(for:decoder:)`` and dropped with it.
final class SchemaRecorder {
    let options: DerivationOptions
    private(set) var definitions: [String: JSONSchema] = [:]
    /// Definitions that stay in `$defs` even when referenced once: versioned parts and the
    /// versions of their chains.
    private(set) var keptDefinitions: Set<String> = []
    /// The versioned parts met, by the name of their definition.
    private(set) var parts: [String: VersionedPartSchema] = [:]
    private var names: [ObjectIdentifier: String] = [:]
    private var usedNames: Set<String> = []
    private var inProgress: Set<ObjectIdentifier> = []
    private var referencedWhileInProgress: Set<ObjectIdentifier> = []
    /// Types recorded inline, such as arrays, kept so that a second use costs nothing.
    private var inlineSchemas: [ObjectIdentifier: JSONSchema] = [:]
    /// Values made for types already recorded, so that a second use returns one without running
    /// the type's code again.
    private var sampleValues: [ObjectIdentifier: Any] = [:]

    /// Containers, by coding path, that met their own enclosing type: on the next run they are
    /// empty, and keep the schema of the element recorded here.
    var emptiedContainers: [String: JSONSchema] = [:]

    /// Which of two sets of placeholder values the recording hands out: 0 gives empty strings,
    /// zeros, `false` and an enum's first case; 1 gives `"x"`, ones, `true` and its last case.
    /// Code that reads differently for the two has branched on a value.
    let variant: Int

    init(options: DerivationOptions, variant: Int) {
        self.options = options
        self.variant = variant
    }

    /// Records the schema of `type` at `path` and returns a value of it to hand back to the
    /// code that asked for one.
    ///
    /// - Throws: ``RecordingStopped`` with what was recorded when no value can be made.
    func record<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> (value: T, schema: JSONSchema) {
        if let primitive = primitive(T.self) {
            return primitive
        }
        if let part = T.self as? any RecordedVersionedPart.Type {
            return try recordPart(part, as: T.self, at: path)
        }
        let id = ObjectIdentifier(T.self)
        if let name = names[id] {
            if inProgress.contains(id) {
                referencedWhileInProgress.insert(id)
            }
            if let value = sampleValues[id] as? T {
                return (value, inlineSchemas[id] ?? .reference(to: name))
            }
            if inProgress.contains(id) {
                // A type inside itself: the outer recording describes it; no value can be made
                // without running its code again, forever.
                throw RecordingStopped(
                    schema: .reference(to: name),
                    reason: "\(name) contains itself where a value is required",
                    isRecursion: true
                )
            }
        }
        let name = names[id] ?? uniqueName(for: T.self)
        names[id] = name
        inProgress.insert(id)
        defer { inProgress.remove(id) }

        var decoder: RecordingDecoder
        var value: T?
        var stop: String?
        var stopReason: String?
        var stoppedAt: String?
        var attempts = 0
        let listed = listedRawValues(of: T.self, at: path)
        repeat {
            // A container that met its own type again is left empty on the next run, with the
            // element schema it recorded; each run empties one more, so runs are bounded.
            attempts += 1
            decoder = RecordingDecoder(recorder: self, codingPath: path, rawValues: listed?.accepted)
            (stop, stopReason, stoppedAt) = (nil, nil, nil)
            do {
                value = try T(from: decoder)
            } catch let stopped as RecordingStopped {
                stop = stopped.stoppedAt.map { "stopped at \($0): \(stopped.reason)" } ?? stopped.reason
                (stopReason, stoppedAt) = (stopped.reason, stopped.stoppedAt)
                if stopped.retry, attempts < 16 { continue }
            } catch {
                stop = Self.reason(name: name, type: T.self, error: error)
                stopReason = stop
            }
            break
        } while true
        var schema = decoder.node.schema(typeName: name, complete: stop == nil)
        if let allowed = decoder.rawValuesRead, allowed.isEmpty == false {
            schema.enumValues = allowed
        }
        if let refused = listed?.refused, !refused.isEmpty {
            let note =
                "\(name) lists " + refused.map(\.description).joined(separator: ", ")
                + ", which its init(from:) refuses: not allowed"
            schema.description = schema.description.map { $0 + "\n" + note } ?? note
        }
        if let open = T.self as? any RecordedOpenEnum.Type, let known = open.knownRawValues {
            schema.description =
                "an open enum: known values "
                + known.map(\.description).joined(separator: ", ") + "; any other value is kept"
        }
        if let stop {
            schema.addIncompleteNote(stop)
        }
        let isNamedObject = decoder.node.isNamedObject
        if isNamedObject || referencedWhileInProgress.contains(id) {
            definitions[name] = schema
            schema = .reference(to: name)
        } else {
            inlineSchemas[id] = schema
        }
        guard let value else {
            var stopped = RecordingStopped(schema: schema, reason: stopReason ?? "no value")
            stopped.stoppedAt = stoppedAt
            throw stopped
        }
        sampleValues[id] = value
        return (value, schema)
    }

    /// Why a type's code threw, in words that stay the same from one toolchain to the next, so
    /// that a committed schema does not change with them.
    private static func reason<T>(name: String, type: T.Type, error: any Error) -> String {
        if T.self is any RawRepresentable.Type, !(T.self is any CaseIterable.Type) {
            return "\(name) does not list its raw values; conform it to CaseIterable or SchemaRawValues to list them"
        }
        let detail: String
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            detail = context.debugDescription
        default:
            detail = String(describing: Swift.type(of: error))
        }
        return "\(name)'s init(from:) threw on the recording decoder: \(detail)"
    }

    /// Records a versioned part as a reference to its type's current-version schema.
    private func recordPart<T: Decodable>(
        _ part: any RecordedVersionedPart.Type,
        as type: T.Type,
        at path: [any CodingKey]
    ) throws -> (value: T, schema: JSONSchema) {
        let (value, schema) = try part.recordPart(with: self, at: path)
        return (value as! T, schema)
    }

    /// Records every version of a part's chain, each as the definition of its own type, and
    /// returns a value of the newest with a reference to the part's schema, which accepts any
    /// of them (see ``VersionedPartSchema``).
    func recordVersionedPart<Newest: VersionedCodable>(
        _ type: Newest.Type,
        at path: [any CodingKey]
    ) throws -> (value: Newest, schema: JSONSchema) {
        let newestName = definitionName(for: Newest.self, preferred: VersionSchemas.typeName(of: Newest.self))
        let partName = VersionedPartSchema.definitionName(newest: newestName)
        let reference = JSONSchema.reference(to: partName)
        if parts[partName] == nil {
            usedNames.insert(partName)
            keptDefinitions.insert(partName)
            // Registered before the older versions run, so that one that holds the part again
            // finds it and records nothing twice.
            parts[partName] = VersionedPartSchema(
                name: partName,
                versionNames: [],
                newestName: newestName,
                newer: NewerDocumentPlace.find(for: Newest.self)
            )
            var versionNames = [newestName]
            keptDefinitions.insert(newestName)
            for version in VersionChain(for: Newest.self).types.dropFirst() {
                versionNames.append(recordOlderVersion(version, at: path))
            }
            parts[partName]?.versionNames = versionNames
        }
        do {
            let (value, _) = try recordVersion(Newest.self, definitionName: newestName, at: path)
            return (value, reference)
        } catch var stopped as RecordingStopped {
            stopped.schema = reference
            throw stopped
        }
    }

    /// Records one version of a part's chain as the definition of its type, and returns the
    /// definition's name. Its code runs at the part's path, with the containers that the newest
    /// version's code left empty there set aside, since they were emptied for another type.
    private func recordOlderVersion(_ type: any VersionedCodable.Type, at path: [any CodingKey]) -> String {
        func open<V: VersionedCodable>(_ type: V.Type) -> String {
            let name = definitionName(for: V.self, preferred: VersionSchemas.typeName(of: V.self))
            keptDefinitions.insert(name)
            let prefix = RecordingDecoder.pathKey(path)
            let saved = emptiedContainers
            emptiedContainers = saved.filter { $0.key != prefix && !$0.key.hasPrefix(prefix + "\u{1}") }
            defer { emptiedContainers = saved }
            // What the code could not read is noted in the version's definition; the part still
            // accepts the versions that were recorded.
            _ = try? recordVersion(V.self, definitionName: name, at: path)
            return name
        }
        return open(type)
    }

    /// Records the schema of one version, with the version at the place its spec gives, as the
    /// definition `name`, and returns a value of it.
    func recordVersion<V: VersionedCodable>(
        _ type: V.Type,
        definitionName name: String,
        at path: [any CodingKey]
    ) throws -> (value: V, schema: JSONSchema) {
        let id = ObjectIdentifier(V.self)
        let name = definitionName(for: V.self, preferred: name)
        if let value = sampleValues[id] as? V {
            return (value, .reference(to: name))
        }
        var value: V?
        do {
            let recorded = try record(V.self, at: path)
            value = recorded.value
            if definitions[name] == nil {
                definitions[name] = recorded.schema
            }
        } catch var stopped as RecordingStopped {
            if stopped.isRecursion || stopped.retry {
                stopped.schema = .reference(to: name)
                throw stopped
            }
            if definitions[name] == nil, stopped.schema.ref == nil {
                definitions[name] = stopped.schema
            }
        }
        if var body = definitions[name] {
            VersionPlace.add(V.self, to: &body, definitions: definitions, options: options)
            // A version that names the older builds that may read it writes that beside its
            // version, by the rule the library follows when it writes one: at the root of a
            // document and of a part alike.
            if let version = V.version, let olderBuilds = V.olderBuilds,
                let place = NewerDocumentPlace.find(for: V.self)
            {
                body = place.declaring(body, atVersion: version, olderBuilds: olderBuilds)
            }
            definitions[name] = body
        }
        guard let value else {
            throw RecordingStopped(schema: .reference(to: name), reason: "\(name) could not be recorded whole")
        }
        return (value, .reference(to: name))
    }

    /// The name of a type's definition: the one it was given when first met, so that every
    /// reference finds its one definition; else `preferred`, unless another type has it, as
    /// `V1` of two chains whose versions are nested types would, then a name with its context.
    private func definitionName<T>(for type: T.Type, preferred: String) -> String {
        let id = ObjectIdentifier(T.self)
        if let name = names[id] {
            return name
        }
        let name = usedNames.contains(preferred) ? uniqueName(for: T.self) : preferred
        names[id] = name
        usedNames.insert(name)
        return name
    }

    private func uniqueName<T>(for type: T.Type) -> String {
        // A type declared in a function is named with the address of its context, which changes
        // from build to build; a committed schema must not.
        let stable = String(reflecting: T.self)
            .replacingOccurrences(of: #"\(unknown context at [^)]*\)\."#, with: "", options: .regularExpression)
        let base = stable.split(separator: ".", maxSplits: 1).last.map(String.init) ?? "\(T.self)"
        let cleaned = String(base.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" ? $0 : "_" })
        var name = cleaned
        var counter = 2
        while usedNames.contains(name) {
            name = "\(cleaned)_\(counter)"
            counter += 1
        }
        usedNames.insert(name)
        return name
    }

    /// The raw values a type lists, through ``SchemaRawValues`` or as an enum that is
    /// `CaseIterable`, each handed to its code to see whether it is accepted: only those are
    /// claimed. `nil` when the type lists none, or its code reads no raw value.
    private func listedRawValues<T: Decodable>(
        of type: T.Type,
        at path: [any CodingKey]
    ) -> (accepted: [JSONValue], refused: [JSONValue])? {
        let listed: [JSONValue]?
        if let declared = T.self as? any SchemaRawValues.Type {
            listed = declared.schemaRawValues
        } else if let iterable = T.self as? any (CaseIterable & RawRepresentable).Type {
            listed = Self.rawValues(listing: iterable)
        } else {
            listed = nil
        }
        guard let listed, !listed.isEmpty else { return nil }
        var accepted: [JSONValue] = []
        var refused: [JSONValue] = []
        var readsRawValue = false
        for value in listed {
            let probe = RecordingDecoder(recorder: self, codingPath: path, rawValues: [value])
            let isAccepted = (try? T(from: probe)) != nil
            readsRawValue = readsRawValue || probe.rawValuesRead != nil
            if isAccepted, probe.rawValuesRead != nil {
                accepted.append(value)
            } else {
                refused.append(value)
            }
        }
        return readsRawValue ? (accepted, refused) : nil
    }

    static func rawValues<E: CaseIterable & RawRepresentable>(listing type: E.Type) -> [JSONValue]? {
        var values: [JSONValue] = []
        for value in E.allCases {
            switch value.rawValue {
            case let string as String: values.append(.string(string))
            case let int as Int: values.append(.number(Decimal(int)))
            default: return nil
            }
        }
        return values
    }

    /// The placeholder value and schema of a type the JSON coders read as one JSON value.
    private func primitive<T>(_ type: T.Type) -> (value: T, schema: JSONSchema)? {
        func integer<I: FixedWidthInteger>(_ type: I.Type) -> (value: T, schema: JSONSchema) {
            var schema = JSONSchema(type: "integer")
            schema.minimum = Decimal(string: String(I.min))
            schema.maximum = Decimal(string: String(I.max))
            return (I(variant) as! T, schema)
        }
        let one = variant == 1
        switch T.self {
        case is String.Type: return ((one ? "x" : "") as! T, JSONSchema(type: "string"))
        case is Bool.Type: return (one as! T, JSONSchema(type: "boolean"))
        case is Double.Type: return (Double(variant) as! T, options.floatSchema)
        case is Float.Type: return (Float(variant) as! T, options.floatSchema)
        case is Int.Type: return integer(Int.self)
        case is Int8.Type: return integer(Int8.self)
        case is Int16.Type: return integer(Int16.self)
        case is Int32.Type: return integer(Int32.self)
        case is Int64.Type: return integer(Int64.self)
        case is UInt.Type: return integer(UInt.self)
        case is UInt8.Type: return integer(UInt8.self)
        case is UInt16.Type: return integer(UInt16.self)
        case is UInt32.Type: return integer(UInt32.self)
        case is UInt64.Type: return integer(UInt64.self)
        case is Date.Type: return (Date(timeIntervalSinceReferenceDate: Double(variant)) as! T, options.dateSchema)
        case is Data.Type: return (Data(repeating: 0, count: variant) as! T, options.dataSchema)
        case is Decimal.Type:
            var schema = JSONSchema(type: "number")
            schema.description = "Decimal: a JSON number"
            return (Decimal(variant) as! T, schema)
        case is URL.Type:
            var schema = JSONSchema(type: "string")
            schema.format = "uri"
            schema.description = "URL: its absolute string"
            return (URL(string: one ? "https://example.com/x" : "https://example.com")! as! T, schema)
        case is UUID.Type:
            var schema = JSONSchema(type: "string")
            schema.format = "uuid"
            schema.description = "UUID: its uuidString"
            let last = UInt8(variant)
            return (UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last)) as! T, schema)
        default: return nil
        }
    }
}

/// Thrown through a type's `init(from:)` when the recording decoder cannot hand it a value, with
/// the schema recorded up to there, so that each enclosing type notes where it stopped.
struct RecordingStopped: Error {
    var schema: JSONSchema
    var reason: String
    /// The value could not be made because its type is being recorded further out.
    var isRecursion = false
    /// A container was marked to be empty on the next run: run the type's code again.
    var retry = false
    /// The path of the value that stopped, set by the container that asked for it.
    var stoppedAt: String?
}

extension JSONSchema {
    /// Adds `keys` to the keys an object requires, kept sorted and once each.
    mutating func require(_ keys: String...) {
        required = Array(Set((required ?? []) + keys)).sorted()
    }

    /// Adds a note that the derivation could not see everything, and opens a closed object,
    /// since the keys after the stop are unknown.
    mutating func addIncompleteNote(_ note: String) {
        let line = "\(JSONSchema.incompleteMarker) \(note)"
        guard description?.contains(line) != true else { return }
        description = description.map { $0 + "\n" + line } ?? line
        if additionalProperties?.boolean == false {
            additionalProperties = nil
        }
    }

    /// The schema of a value that may also be absent or `null`, as `decodeIfPresent` reads it.
    var allowingNull: JSONSchema {
        if let type, ref == nil, boolean == nil {
            var schema = self
            if !type.contains("null") {
                schema.type = type + ["null"]
            }
            if let values = schema.enumValues, !values.contains(.null) {
                schema.enumValues = values + [.null]
            }
            return schema
        }
        var schema = JSONSchema()
        schema.anyOf = [self, JSONSchema(type: "null")]
        return schema
    }
}
