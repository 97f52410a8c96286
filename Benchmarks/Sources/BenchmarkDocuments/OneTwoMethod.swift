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

    /// The value and, written after it into the same encoder, the spec with the value's version.
    private struct ValueThenSpec<Value: VersionedCodable>: Encodable {
        let value: Value

        func encode(to encoder: any Encoder) throws {
            try value.encode(to: encoder)
            try Value.VersionSpec(withVersion: Value.version).encode(to: encoder)
        }
    }
}
