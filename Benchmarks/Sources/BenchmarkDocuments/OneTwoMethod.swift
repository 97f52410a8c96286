import Foundation
import VersionedCodable

/// How VersionedCodable 1.2 decoded and encoded, rebuilt on this package's public protocols, so
/// that the instruction gate can count 1.2's method on the same machine, compiler and coders as
/// the library, instead of comparing instruction counts with 1.2's wall-clock figures.
///
/// 1.2 read a document in two passes: first it decoded the type's version spec from the whole
/// document, then it decoded the type the stored version names, again from the whole document,
/// and ran the migrations from there. It encoded the value, then the spec into the same
/// encoder, with no check for a field of the type's own at the version's place. These functions
/// do the same steps through the same kind of closures 1.2's coder extensions passed; they are
/// not 1.2's code, so read their figures as the cost of 1.2's method, not of its release.
enum OneTwoMethod {
    /// Decodes `type` from `data` in two passes, as 1.2 did.
    static func decode<Value: VersionedCodable>(
        _ type: Value.Type,
        from data: Data,
        using decode: (Decodable.Type, Data) throws -> Decodable
    ) throws -> Value {
        guard let spec = try decode(Value.VersionSpec.self, data) as? Value.VersionSpec else {
            throw WrongBenchmarkResult(description: "the spec decoded as another type")
        }
        return try migrate(Value.self, from: spec[keyPath: Value.VersionSpec.keyPathToVersion], data, decode)
    }

    /// Decodes the type of the stored version, then migrates it up to `Value`, one step per
    /// type, as 1.2's recursion did.
    private static func migrate<Value: VersionedCodable>(
        _ type: Value.Type,
        from version: Int?,
        _ data: Data,
        _ decode: (Decodable.Type, Data) throws -> Decodable
    ) throws -> Value {
        if version == Value.version {
            guard let value = try decode(Value.self, data) as? Value else {
                throw WrongBenchmarkResult(description: "the document decoded as another type")
            }
            return value
        }
        if Value.PreviousVersion.self == NothingEarlier.self {
            throw VersionedDecodingError.unsupportedVersion(tried: Value.self)
        }
        return try Value(from: migrate(Value.PreviousVersion.self, from: version, data, decode))
    }

    /// Encodes `value` followed by its spec, as 1.2 did.
    static func encode<Value: VersionedCodable>(
        _ value: Value,
        using encode: (Encodable) throws -> Data
    ) throws -> Data {
        try encode(ValueThenSpec(value: value))
    }

    /// Encodes `value` followed by its spec, as 1.2 did, with the least check that can keep the
    /// spec from overwriting a value of the type's at the root: every key the type writes there
    /// compared with the one the spec writes there, `specKey` (`version` for the default spec,
    /// `_metadata` for a `_metadata.version` spec), known here in advance. What this costs over
    /// 1.2's method is the cost of any writer that watches keys through the `Codable` API, which
    /// must stand between the type and the coder's container; the library's writer is measured
    /// against it in the gate. A writer that does not know its spec in advance must also ask the
    /// spec what it writes, which this leaves out.
    static func encodeWatchingKeys<Value: VersionedCodable>(
        _ value: Value,
        specKey: String = "version",
        using encode: (Encodable) throws -> Data
    ) throws -> Data {
        try encode(ValueThenSpec(value: value, watchedKey: specKey))
    }

    /// The value and, written after it into the same encoder, the spec with the value's version.
    private struct ValueThenSpec<Value: VersionedCodable>: Encodable {
        let value: Value
        /// The spec's key at the root that the type's keys are compared with, if any.
        var watchedKey: String? = nil

        func encode(to encoder: any Encoder) throws {
            try value.encode(to: watchedKey.map { KeyWatchingEncoder(base: encoder, watchedKey: $0) } ?? encoder)
            try Value.VersionSpec(withVersion: Value.version).encode(to: encoder)
        }
    }
}

/// An encoder whose root keyed container refuses the spec's key and forwards everything else to
/// the coder's own container, with the type's own key type: one comparison per key and one more
/// container between the type and the coder, the least a watching writer adds.
private struct KeyWatchingEncoder: Encoder {
    let base: any Encoder
    let watchedKey: String
    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyWatchingContainer(base: base.container(keyedBy: Key.self), watchedKey: watchedKey))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { base.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { base.singleValueContainer() }
}

private struct KeyWatchingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    let watchedKey: String
    var codingPath: [any CodingKey] { base.codingPath }

    @inline(__always)
    private func check(_ key: Key) throws {
        if key.stringValue == watchedKey {
            throw WrongBenchmarkResult(description: "the type writes the spec's key")
        }
    }

    mutating func encodeNil(forKey key: Key) throws { try check(key); try base.encodeNil(forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try check(key); try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try check(key); try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try check(key); try base.encode(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try check(key); try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try check(key); try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try check(key); try base.encode(value, forKey: key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        base.nestedContainer(keyedBy: keyType, forKey: key)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        base.nestedUnkeyedContainer(forKey: key)
    }
    mutating func superEncoder() -> any Encoder { base.superEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { base.superEncoder(forKey: key) }
}
