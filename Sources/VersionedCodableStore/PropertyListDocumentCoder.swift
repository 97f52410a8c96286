import Foundation
import VersionedCodable

/// Documents stored as property lists, read and written with Foundation's property-list coders.
///
/// The coders' settings apply to every document: give the same `userInfo` the
/// program uses, and a `VersionsToWrite` list in the encoder's `userInfo`
/// to write nested `Versioned` parts as older versions too.
///
/// <!-- snippet: store-plist-coder -->
/// ```swift
/// let encoder = PropertyListEncoder()
/// encoder.outputFormat = .binary
/// let coder = PropertyListDocumentCoder(encoder: encoder)
/// ```
public struct PropertyListDocumentCoder: DocumentCoder {
    /// The decoder every document is read with.
    public let decoder: PropertyListDecoder

    /// The encoder every upgraded document is written with.
    public let encoder: PropertyListEncoder

    /// Makes a property-list coder.
    ///
    /// - Parameters:
    ///   - decoder: The decoder to read documents with; not changed afterwards.
    ///   - encoder: The encoder to write documents with; not changed afterwards.
    public init(
        decoder: PropertyListDecoder = PropertyListDecoder(),
        encoder: PropertyListEncoder = PropertyListEncoder()
    ) {
        self.decoder = decoder
        self.encoder = encoder
    }

    /// Reads the version a property list stores.
    ///
    /// - Parameters:
    ///   - type: The current version of the document's type.
    ///   - data: The property list.
    /// - Returns: The stored version; `nil` when the document has none.
    /// - Throws: `DecodingError` when the version cannot be read.
    public func storedVersion<Value: VersionedCodable>(of type: Value.Type, from data: Data) throws -> Int? {
        try decoder.storedVersion(of: type, from: data)
    }

    /// Decodes a property list through its version chain.
    ///
    /// - Parameters:
    ///   - type: The current version of the document's type.
    ///   - data: The property list.
    /// - Returns: The migrated value with its stored version.
    /// - Throws: `DecodingError`, `VersionedDecodingError` and a migration step's errors.
    public func decode<Value: VersionedCodable>(_ type: Value.Type, from data: Data) throws -> Versioned<Value> {
        try decoder.decodeWithStoredVersion(type, from: data)
    }

    /// Encodes a value as a property list, as one version of its type.
    ///
    /// - Parameters:
    ///   - value: The value, of the current version.
    ///   - version: The version to write.
    /// - Returns: The property list.
    /// - Throws: `EncodingError` and `VersionedEncodingError`.
    public func encode<Value: VersionedCodable>(_ value: Value, asVersion version: Int?) throws -> Data {
        try encoder.encode(versioned: value, asVersion: version)
    }
}
