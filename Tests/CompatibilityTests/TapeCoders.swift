import Foundation
import VersionedCodable

// Coders that VersionedCodable does not extend, extended by the program the way the 1.2
// documentation shows: forward `decodeTransparently` and `encodeTransparently` to the coder's
// own generic methods.

/// A stand-in for a third-party decoder with its own API. It reads JSON.
struct TapeDecoder {
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}

/// A stand-in for a third-party encoder with its own API. It writes JSON with sorted keys.
struct TapeEncoder {
    func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}

extension TapeDecoder {
    /// Decodes a versioned document, as 1.2's guide to other coders writes it.
    func decode<ExpectedType: VersionedCodable>(
        versioned expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> ExpectedType {
        try ExpectedType.decodeTransparently(
            from: data,
            using: { try self.decode($0, from: $1) }
        )
    }
}

extension TapeEncoder {
    /// Encodes a versioned value, as 1.2's guide to other coders writes it.
    func encode(versioned value: any VersionedCodable) throws -> Data {
        try value.encodeTransparently { try self.encode($0) }
    }
}

extension JSONDecoder {
    /// A program's own name for a versioned decode, with named closure parameters.
    func decodeArchived<T: VersionedCodable>(_ type: T.Type, from data: Data) throws -> T {
        try T.decodeTransparently(from: data) { type, data in
            try self.decode(type, from: data)
        }
    }
}

extension JSONEncoder {
    /// A program's own name for a versioned encode.
    func encodeArchived<T: VersionedCodable>(_ value: T) throws -> Data {
        try value.encodeTransparently { try self.encode($0) }
    }
}

/// Functions stored with 1.2's spelling of the closure types, as a program that keeps its
/// coder behind a function value does.
enum StoredCoderFunctions {
    static func decodeFunction(for decoder: TapeDecoder) -> (Decodable.Type, Data) throws -> Decodable {
        return { type, data in try decoder.decode(type, from: data) }
    }

    static func encodeFunction(for encoder: TapeEncoder) -> (Encodable) throws -> Data {
        return { value in try encoder.encode(value) }
    }
}
