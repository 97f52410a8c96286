import Foundation

// Reading an object where the spec writes (the root, or `_metadata` under a
// `_metadata.version` spec). One rule: what the spec wrote there is the library's, so a type
// that lists the object's keys, or reads the object as a dictionary, does not see it; and an
// optional object that holds nothing but what the spec wrote is `nil`.

/// A decoder for an object below the root where the spec writes.
struct PlaceDecoder: Decoder {
    let base: any Decoder
    let places: SpecPlace

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(PlaceDecodingContainer(base: try base.container(keyedBy: type), places: places))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PlaceSingleValueDecodingContainer(base: try base.singleValueContainer(), decoder: base, places: places)
    }
}

/// A single-value container at an object where the spec writes (a type that forwards its
/// decoding to another): what is read through it stands at that object, and is read as a
/// value at that object is, by ``PlaceDecoder``; the coder's specially coded values (dates,
/// data, URLs, decimals) by the real container.
struct PlaceSingleValueDecodingContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    /// The real decoder at the object, for a dictionary that Swift's own decoding reads.
    let decoder: any Decoder
    let places: SpecPlace
    /// Where the keys a type reads are noted, for a document newer than this build: a
    /// dictionary read here reads them all.
    var readKeys: ReadKeys? = nil

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if isCodedSpecially(T.self) || isSingleValue(T.self) {
            return try base.decode(type)
        }
        return try decodeObject(type, places, from: decoder, readKeys: readKeys)
    }
}

/// A keyed container at an object where the spec writes.
struct PlaceDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let places: SpecPlace

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys.filter { !places.owns($0.stringValue) } }

    func contains(_ key: Key) -> Bool { base.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try base.decodeNil(forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard !isSingleValue(T.self), let below = places.child(key.stringValue) else {
            return try base.decode(type, forKey: key)
        }
        return try decodeAtPlace(type, below, from: base, forKey: key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let below = places.child(key.stringValue) else {
            return try base.decodeIfPresent(type, forKey: key)
        }
        return try decodeIfPresentAtPlace(type, below, from: base, forKey: key)
    }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = try base.nestedContainer(keyedBy: type, forKey: key)
        guard let below = places.child(key.stringValue) else {
            return nested
        }
        return KeyedDecodingContainer(PlaceDecodingContainer<NestedKey>(base: nested, places: below))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try base.nestedUnkeyedContainer(forKey: key)
    }
    func superDecoder() throws -> any Decoder { try base.superDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        let decoder = try base.superDecoder(forKey: key)
        guard let below = places.child(key.stringValue) else {
            return decoder
        }
        return PlaceDecoder(base: decoder, places: below)
    }
}

/// Decodes a `T` at `key`, an object where the spec writes: a dictionary without what the
/// spec wrote, the coder's specially coded values as they are, and anything else through a
/// ``PlaceDecoder``, so that a type that lists the object's keys does not see the spec's.
func decodeAtPlace<T: Decodable, Key: CodingKey>(
    _ type: T.Type,
    _ places: SpecPlace,
    from container: KeyedDecodingContainer<Key>,
    forKey key: Key
) throws -> T {
    // A missing key or `null` is the container's to answer, as in a plain decode: a super
    // decoder would read either as an empty value.
    if try isCodedSpecially(T.self) || !container.contains(key) || container.decodeNil(forKey: key) {
        return try container.decode(type, forKey: key)
    }
    return try decodeObject(type, places, from: container.superDecoder(forKey: key))
}

/// Decodes a `T` from `decoder`, which stands at an object where the spec writes: a dictionary
/// without what the spec wrote, anything else through a ``PlaceDecoder``. For a document newer
/// than this build, what was read is noted in `readKeys` once it is read: a type may try one
/// form and fall back to another.
private func decodeObject<T: Decodable>(
    _ type: T.Type,
    _ places: SpecPlace,
    from decoder: any Decoder,
    readKeys: ReadKeys? = nil
) throws -> T {
    if let dictionary = T.self as? any DictionaryAtPlace.Type {
        let value = try dictionary.decode(from: decoder, leavingOut: places) as! T
        readKeys?.all = true
        return value
    }
    let value = try T(from: PlaceDecoder(base: decoder, places: places))
    readKeys?.forwarded = true
    return value
}

/// ``decodeAtPlace(_:_:from:forKey:)`` for an optional property: a missing key or `null` is
/// `nil`, and so is an object that holds nothing but what the spec wrote
/// (`{"_metadata": {"version": 2}}` is what the spec wrote for a type whose `_metadata` was `nil`).
func decodeIfPresentAtPlace<T: Decodable, Key: CodingKey>(
    _ type: T.Type,
    _ places: SpecPlace,
    from container: KeyedDecodingContainer<Key>,
    forKey key: Key
) throws -> T? {
    guard container.contains(key), try !container.decodeNil(forKey: key) else {
        return nil
    }
    if let object = try? container.nestedContainer(keyedBy: PathKey.self, forKey: key),
        places.ownsAll(object.allKeys.map(\.stringValue))
    {
        return nil
    }
    return try decodeAtPlace(type, places, from: container, forKey: key)
}

/// A dictionary read where the spec writes: decoded without the keys the spec owns there.
protocol DictionaryAtPlace {
    static func decode(from decoder: any Decoder, leavingOut places: SpecPlace) throws -> Self
}

extension Dictionary: DictionaryAtPlace where Key: Decodable, Value: Decodable {
    static func decode(from decoder: any Decoder, leavingOut places: SpecPlace) throws -> Self {
        guard Key.self == String.self else {
            // Swift's own decoding makes the keys (integers, `CodingKeyRepresentable` values) of
            // a keyed container that leaves out the spec's keys.
            return try Self(from: PlaceDecoder(base: decoder, places: places))
        }
        // Keys that are strings are read as the coder reads a `[String: …]`, as they are, with no
        // key strategy: as they were written (see `DictionaryAtPlaceWriting`).
        let entries = try decoder.singleValueContainer().decode([String: DecodedEntry<Value>].self)
        var dictionary: [String: Value] = [:]
        for (key, entry) in entries where !places.owns(key) {
            dictionary[key] = try entry.result.get()
        }
        return dictionary as! Self
    }
}

/// One entry of such a dictionary: its value, or the error decoding it threw, thrown only if
/// the entry is kept (the version's entry is not a value of the dictionary's type).
private struct DecodedEntry<Value: Decodable>: Decodable {
    let result: Result<Value, any Error>

    init(from decoder: any Decoder) throws {
        // Through a single-value container, so that the coder applies its strategies for dates,
        // data and the like, as it would to the dictionary's own values.
        result = Result { try decoder.singleValueContainer().decode(Value.self) }
    }
}
