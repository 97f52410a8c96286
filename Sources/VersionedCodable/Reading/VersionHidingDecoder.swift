/// A decoder for an object below the root that holds places where the spec keeps a version
/// (`_metadata` under a `_metadata.version` spec, or `a` and `a.b` under `a.b.c.version`):
/// the keys at those places are left out of what a dictionary, or a type that lists its keys,
/// reads there.
struct VersionHidingDecoder: Decoder {
    let base: any Decoder
    let places: VersionPlaces

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(VersionHidingContainer(base: try base.container(keyedBy: type), places: places))
    }

    /// `container`, an object that holds places where the spec keeps a version, as a container
    /// that hides them.
    static func container<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>,
        at places: VersionPlaces
    ) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(VersionHidingContainer(base: container, places: places))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        VersionHidingSingleValueContainer(base: try base.singleValueContainer(), hidden: places.keys) { [base] in
            (try? base.container(keyedBy: PathKey.self).allKeys.map(\.stringValue)) ?? []
        }
    }
}

/// A single-value container at an object where the spec keeps a version, the root's among
/// them: a dictionary read through it leaves out the version's entries, and keeps its keys as
/// written; anything else is read by the real container.
struct VersionHidingSingleValueContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    /// The keys at this object where the spec keeps a version.
    let hidden: [String]
    /// The object's keys as a keyed container reads them, through the decoder's key strategy.
    let keysAsRead: () -> [String]

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if !hidden.isEmpty, let dictionary = T.self as? any DictionaryWithoutVersion.Type {
            return try dictionary.decode(from: base, hiding: hidden, keysAsRead: keysAsRead) as! T
        }
        return try base.decode(type)
    }
}

private struct VersionHidingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let places: VersionPlaces

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys.filter { !places.keys.contains($0.stringValue) } }

    func contains(_ key: Key) -> Bool { base.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try base.decodeNil(forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try base.decode(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try base.decode(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try base.decode(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try base.decode(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try base.decode(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try base.decode(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try base.decode(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try base.decode(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try base.decode(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try base.decode(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let below = places.below[key.stringValue] else {
            return try base.decode(type, forKey: key)
        }
        return try decodeHidingVersions(type, at: below, from: base, forKey: key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let below = places.below[key.stringValue] else {
            return try base.decodeIfPresent(type, forKey: key)
        }
        return try decodeIfPresentHidingVersions(type, at: below, from: base, forKey: key)
    }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = try base.nestedContainer(keyedBy: type, forKey: key)
        guard let below = places.below[key.stringValue] else {
            return nested
        }
        return VersionHidingDecoder.container(nested, at: below)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try base.nestedUnkeyedContainer(forKey: key)
    }
    func superDecoder() throws -> any Decoder { try base.superDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        let decoder = try base.superDecoder(forKey: key)
        guard let below = places.below[key.stringValue] else {
            return decoder
        }
        return VersionHidingDecoder(base: decoder, places: below)
    }
}

/// Decodes a `T` at `key`, an object that holds places where the spec keeps a version: a
/// dictionary without the version's entries, an object with places further down through a
/// decoder that hides them there too, and anything else as it is.
func decodeHidingVersions<T: Decodable, Key: CodingKey>(
    _ type: T.Type,
    at places: VersionPlaces,
    from container: KeyedDecodingContainer<Key>,
    forKey key: Key
) throws -> T {
    if !places.keys.isEmpty, let dictionary = T.self as? any DictionaryWithoutVersion.Type {
        return try dictionary.decode(from: container, forKey: key, hiding: places.keys) as! T
    }
    if places.below.isEmpty || isCodedSpecially(T.self) {
        return try container.decode(type, forKey: key)
    }
    return try T(from: VersionHidingDecoder(base: try container.superDecoder(forKey: key), places: places))
}

/// ``decodeHidingVersions(_:at:from:forKey:)`` for an optional property: a missing key or
/// `null` is `nil`, and so is an object that holds nothing but the versions the spec wrote
/// there (`{"_metadata": {"version": 2}}` is what the spec wrote for a type whose own
/// `_metadata` was `nil`).
func decodeIfPresentHidingVersions<T: Decodable, Key: CodingKey>(
    _ type: T.Type,
    at places: VersionPlaces,
    from container: KeyedDecodingContainer<Key>,
    forKey key: Key
) throws -> T? {
    guard container.contains(key), try !container.decodeNil(forKey: key) else {
        return nil
    }
    if let object = try? container.nestedContainer(keyedBy: PathKey.self, forKey: key),
        places.holdsOnlyVersions(object.allKeys.map(\.stringValue))
    {
        return nil
    }
    return try decodeHidingVersions(type, at: places, from: container, forKey: key)
}
