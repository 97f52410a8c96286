/// A keyed container under the key type a value asked for, writing into a container opened
/// with ``PathKey``.
///
/// Where a type opens a nested container at an object the spec also writes into (`_metadata`
/// holding the version), the object is opened once, with ``PathKey``, and the type writes
/// through this view of it, so that the spec's part can be written into the same container
/// afterwards. Opening the object a second time would merge with Foundation's coders but
/// replace it with those that build each object when its encoder is released (Yams).
struct RetypedKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<PathKey>

    var codingPath: [any CodingKey] { base.codingPath }

    private func converted(_ key: Key) -> PathKey {
        PathKey(key)
    }

    mutating func encodeNil(forKey key: Key) throws { try base.encodeNil(forKey: converted(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try base.encode(value, forKey: converted(key)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try base.encode(value, forKey: converted(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        base.nestedContainer(keyedBy: keyType, forKey: converted(key))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        base.nestedUnkeyedContainer(forKey: converted(key))
    }

    mutating func superEncoder() -> any Encoder {
        base.superEncoder()
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        base.superEncoder(forKey: converted(key))
    }
}
