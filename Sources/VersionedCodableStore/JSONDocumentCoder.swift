import Foundation
import VersionedCodable

/// Documents stored as JSON, read and written with Foundation's JSON coders.
///
/// The coders' settings apply to every document: give the same key and date strategies the
/// program uses, and a `VersionsToWrite` list in the encoder's `userInfo`
/// to write nested `Versioned` parts as older versions too.
///
/// <!-- snippet: store-json-coder -->
/// ```swift
/// let encoder = JSONEncoder()
/// encoder.outputFormatting = .sortedKeys
/// let coder = JSONDocumentCoder(encoder: encoder)
/// ```
public struct JSONDocumentCoder: DocumentCoder {
    /// The decoder every document is read with.
    public let decoder: JSONDecoder

    /// The encoder every upgraded document is written with.
    public let encoder: JSONEncoder

    /// Makes a JSON coder.
    ///
    /// - Parameters:
    ///   - decoder: The decoder to read documents with; not changed afterwards.
    ///   - encoder: The encoder to write documents with; not changed afterwards.
    public init(decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder()) {
        self.decoder = decoder
        self.encoder = encoder
    }

    /// Reads the version a JSON document stores.
    ///
    /// - Parameters:
    ///   - type: The current version of the document's type.
    ///   - data: The JSON document.
    /// - Returns: The stored version; `nil` when the document has none.
    /// - Throws: `DecodingError` when the version cannot be read.
    public func storedVersion<Value: VersionedCodable>(of type: Value.Type, from data: Data) throws -> Int? {
        try decoder.storedVersion(of: type, from: data)
    }

    /// Decodes a JSON document through its version chain.
    ///
    /// - Parameters:
    ///   - type: The current version of the document's type.
    ///   - data: The JSON document.
    /// - Returns: The migrated value with its stored version.
    /// - Throws: `DecodingError`, `VersionedDecodingError` and a migration step's errors.
    public func decode<Value: VersionedCodable>(_ type: Value.Type, from data: Data) throws -> Versioned<Value> {
        try decoder.decodeWithStoredVersion(type, from: data)
    }

    /// Encodes a value as JSON, as one version of its type.
    ///
    /// - Parameters:
    ///   - value: The value, of the current version.
    ///   - version: The version to write.
    /// - Returns: The JSON document.
    /// - Throws: `EncodingError` and `VersionedEncodingError`.
    public func encode<Value: VersionedCodable>(_ value: Value, asVersion version: Int?) throws -> Data {
        try encoder.encode(versioned: value, asVersion: version)
    }
}
