/// A decoder for reading a spec whose keys are written in snake case (`schema_version`) from
/// a decoder that converts keys from snake case: such a decoder has turned the document's
/// `schema_version` into `schemaVersion`, which the spec would not find.
///
/// Each key the spec asks for is looked up as it is, then as the key strategy would have
/// converted it. Only the spec is read this way, and only when it found no version as it is.
struct KeyConvertingDecoder: Decoder {
    let base: any Decoder

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyConvertingContainer<Key>(base: try base.container(keyedBy: ForwardedKey.self)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try base.unkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try base.singleValueContainer()
    }

    /// Whether a key has an underscore between two other characters, so that a key strategy
    /// converting from snake case would have changed it.
    static func isSnakeCase(_ key: String) -> Bool {
        key.trimmingCharacters(in: ["_"]).contains("_")
    }

    /// `schema_version` as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` turns it into
    /// `schemaVersion`: leading and trailing underscores kept, the words between joined in
    /// camel case.
    static func camelCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else {
            return key
        }
        guard let last = key.lastIndex(where: { $0 != "_" }) else {
            return key
        }
        let words = key[first...last].split(separator: "_")
        guard words.count > 1 else {
            return key
        }
        let joined = ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }
}

private struct KeyConvertingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<ForwardedKey>

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys.compactMap { Key(stringValue: $0.stringValue) } }

    private func converted(_ key: Key) -> ForwardedKey {
        let asIs = ForwardedKey(key)
        if base.contains(asIs) || !KeyConvertingDecoder.isSnakeCase(key.stringValue) {
            return asIs
        }
        let camel = ForwardedKey(stringValue: KeyConvertingDecoder.camelCase(key.stringValue))
        return base.contains(camel) ? camel : asIs
    }

    func contains(_ key: Key) -> Bool { base.contains(converted(key)) }
    func decodeNil(forKey key: Key) throws -> Bool { try base.decodeNil(forKey: converted(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try base.decode(type, forKey: converted(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try base.decode(type, forKey: converted(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A nested spec struct is read through this decoder too, so its keys are converted.
        try T(from: KeyConvertingDecoder(base: try base.superDecoder(forKey: converted(key))))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(
            KeyConvertingContainer<NestedKey>(
                base: try base.nestedContainer(keyedBy: ForwardedKey.self, forKey: converted(key))
            )
        )
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try base.nestedUnkeyedContainer(forKey: converted(key))
    }

    func superDecoder() throws -> any Decoder { try base.superDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder { try base.superDecoder(forKey: converted(key)) }
}
