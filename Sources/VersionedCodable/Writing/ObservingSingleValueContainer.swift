/// The single-value container of a place where the spec writes an object.
///
/// A value written through it stands at that place, so it is followed (a type that forwards
/// its encoding to a nested struct); a single value there is not the object the spec needs.
struct ObservingSingleValueContainer: SingleValueEncodingContainer {
    var base: any SingleValueEncodingContainer
    let observer: SpecMergingObserver
    let object: SpecObject
    var codingPath: [any CodingKey] { base.codingPath }

    private func wroteSingleValue() {
        _ = observer.shouldWrite(.other, at: .object(object))
    }

    mutating func encodeNil() throws {
        if observer.shouldWrite(.null, at: .object(object)) {
            try base.encodeNil()
        }
    }
    mutating func encode(_ value: Bool) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: String) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: Double) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: Float) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: Int) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: Int8) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: Int16) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: Int32) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: Int64) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt8) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt16) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt32) throws {
        wroteSingleValue()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt64) throws {
        wroteSingleValue()
        try base.encode(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let dictionary = value as? any StringKeyedDictionary {
            observer.check(dictionary, at: object)
            return try base.encode(value)
        }
        try base.encode(MergingSpec(value: value, observer: observer, object: object))
    }
}
