import VersionedCodable

/// An enum that keeps raw values it does not know, whose known ones the schema can name.
protocol RecordedOpenEnum {
    /// The raw values of the known cases, or `nil` when they are neither strings nor integers.
    static var knownRawValues: [JSONValue]? { get }
}

// An open enum accepts any raw value of its type, so its schema lists no `enum`: the known
// values are named in the description for readers, where no validator refuses the others.
extension OpenEnum: RecordedOpenEnum where Known: CaseIterable {
    static var knownRawValues: [JSONValue]? { SchemaRecorder.rawValues(listing: Known.self) }
}
