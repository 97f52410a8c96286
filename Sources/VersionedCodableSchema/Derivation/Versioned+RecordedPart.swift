import VersionedCodable

/// A type the derivation records as a reference to the schema of every version its reader
/// accepts.
protocol RecordedVersionedPart {
    /// Records the part's versions and returns a part holding the value made for its current
    /// version, with a reference to the part's schema.
    static func recordPart(
        with recorder: SchemaRecorder,
        at path: [any CodingKey]
    ) throws -> (value: Any, schema: JSONSchema)
}

// A versioned part is read at the version stored with it: any version of its chain, migrated
// up, or a newer one that declares this build may read it. Its schema says exactly that.
extension Versioned: RecordedVersionedPart {
    static func recordPart(
        with recorder: SchemaRecorder,
        at path: [any CodingKey]
    ) throws -> (value: Any, schema: JSONSchema) {
        let (value, schema) = try recorder.recordVersionedPart(Value.self, at: path)
        return (Versioned(value), schema)
    }
}
