import Foundation
import VersionedCodable

/// The format a store's documents are written in: how to find a document's version, decode
/// it through its chain and encode it as a given version.
///
/// ``JSONDocumentCoder`` and ``PropertyListDocumentCoder`` cover Foundation's coders; another
/// coder conforms by calling its own versioned API (or
/// `VersionedCodable/decodeTransparently(from:using:)`).
public protocol DocumentCoder: Sendable {
    /// Reads the version a document stores, without decoding the rest of it.
    ///
    /// - Parameters:
    ///   - type: The current version of the document's type, whose spec says where the
    ///     version is.
    ///   - data: The encoded document.
    /// - Returns: The stored version; `nil` when the document has none.
    /// - Throws: `DecodingError` when the version cannot be read.
    func storedVersion<Value: VersionedCodable>(of type: Value.Type, from data: Data) throws -> Int?

    /// Decodes a document through its version chain and tells which version it stored.
    ///
    /// - Parameters:
    ///   - type: The current version of the document's type.
    ///   - data: The encoded document.
    /// - Returns: The migrated value with its stored version.
    /// - Throws: `DecodingError`, `VersionedDecodingError` and a migration step's errors.
    func decode<Value: VersionedCodable>(_ type: Value.Type, from data: Data) throws -> Versioned<Value>

    /// Encodes a value as one version of its type.
    ///
    /// - Parameters:
    ///   - value: The value, of the current version.
    ///   - version: The version to write: the current one or an older one of the chain.
    /// - Returns: The encoded document.
    /// - Throws: `EncodingError` and `VersionedEncodingError`.
    func encode<Value: VersionedCodable>(_ value: Value, asVersion version: Int?) throws -> Data
}
