/// What a value writes at one place, as far as merging a spec needs to know.
enum WrittenKind {
    /// `null`, or nothing at all.
    case null
    /// A single value: a string, a bool, a number; an integer of any width at the version's
    /// place mirrors the version. A keyed object or an array, where it is recorded to be
    /// compared with what the spec writes there, is ``SpecValue/encodable(_:integer:)``.
    case value(SpecValue)
    /// A keyed object or an array not recorded, or the version of a nested versioned value.
    case other

    /// Finds out what `value` writes, by encoding it into an encoder that keeps nothing. Only
    /// used for values written where the spec writes a single value, which are few.
    static func of<T: Encodable>(_ value: T) -> WrittenKind {
        if value is LibraryVersion {
            return .other
        }
        let probe = KindProbe()
        try? value.encode(to: probe)
        return probe.kind ?? .null
    }

    /// What `value` writes, with a keyed object or an array recorded whole, so that it can be
    /// compared with what the spec writes at the same place.
    static func recorded<T: Encodable>(_ value: T) -> WrittenKind {
        let kind = of(value)
        guard case .other = kind, !(value is LibraryVersion), let recorded = SpecValue.recording(value) else {
            return kind
        }
        return .value(recorded)
    }
}

/// An encoder that records the kind of the first thing written to it and keeps nothing.
private final class KindProbe: Encoder, SingleValueEncodingContainer {
    var kind: WrittenKind?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private func set(_ kind: WrittenKind) {
        if self.kind == nil {
            self.kind = kind
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        set(.other)
        return KeyedEncodingContainer(DiscardingKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        set(.other)
        return DiscardingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { set(.null) }
    func encode(_ value: Bool) throws { set(.value(.bool(value))) }
    func encode(_ value: String) throws { set(.value(.string(value))) }
    func encode(_ value: Double) throws { set(.value(.double(value))) }
    func encode(_ value: Float) throws { set(.value(.float(value))) }
    func encode(_ value: Int) throws { set(.value(.int(value))) }
    func encode(_ value: Int8) throws { set(.value(.int8(value))) }
    func encode(_ value: Int16) throws { set(.value(.int16(value))) }
    func encode(_ value: Int32) throws { set(.value(.int32(value))) }
    func encode(_ value: Int64) throws { set(.value(.int64(value))) }
    func encode(_ value: UInt) throws { set(.value(.uint(value))) }
    func encode(_ value: UInt8) throws { set(.value(.uint8(value))) }
    func encode(_ value: UInt16) throws { set(.value(.uint16(value))) }
    func encode(_ value: UInt32) throws { set(.value(.uint32(value))) }
    func encode(_ value: UInt64) throws { set(.value(.uint64(value))) }
    func encode<T: Encodable>(_ value: T) throws {
        if value is LibraryVersion {
            set(.other)
        } else {
            try value.encode(to: self)
        }
    }
}

private struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DiscardingUnkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { KindProbe() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { KindProbe() }
}

private struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count = 0
    mutating func encodeNil() throws { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        count += 1
        return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return DiscardingUnkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        count += 1
        return KindProbe()
    }
}
