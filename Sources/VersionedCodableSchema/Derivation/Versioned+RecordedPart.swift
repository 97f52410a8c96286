import VersionedCodable

/// A type the derivation records as a reference to another type's current-version schema.
protocol RecordedVersionedPart {
    /// The name of the definition the part refers to.
    static var partDefinitionName: String { get }
    /// Records the part's current version and returns a part holding the value made for it.
    static func recordPart(
        with recorder: SchemaRecorder,
        definitionName: String,
        at path: [any CodingKey]
    ) throws -> (value: Any, schema: JSONSchema)
}

// A versioned part reads the same document as its current version, with its version at its
// spec's place: the part's schema is that version's, kept once in `$defs`.
extension Versioned: RecordedVersionedPart {
    static var partDefinitionName: String { VersionSchemas.typeName(of: Value.self) }

    static func recordPart(
        with recorder: SchemaRecorder,
        definitionName: String,
        at path: [any CodingKey]
    ) throws -> (value: Any, schema: JSONSchema) {
        let (value, schema) = try recorder.recordVersion(Value.self, definitionName: definitionName, at: path)
        return (Versioned(value), schema)
    }
}
