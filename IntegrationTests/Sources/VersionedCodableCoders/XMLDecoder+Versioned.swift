import Foundation
import VersionedCodable
import XMLCoder

extension XMLDecoder {
    /// Decodes a versioned XML document into its current version.
    ///
    /// The version stored in the document picks the historical type to decode, and the value
    /// is migrated step by step up to `expectedType`. The XML is parsed once.
    ///
    /// XML has no numbers: the version is read from the text of its element (or attribute)
    /// and converted to an integer by XMLCoder, so `<version>2</version>` and
    /// `version="2"` both read as version 2, and a missing element reads as the `nil` version.
    ///
    /// ```swift
    /// let poem = try XMLDecoder().decode(versioned: Poem.self, from: data)
    /// ```
    ///
    /// - Parameters:
    ///   - expectedType: The current version of the type.
    ///   - data: The XML document, of any version in the type's chain.
    /// - Returns: The document as `expectedType`.
    /// - Throws: `DecodingError` when the XML is malformed or the version is not an integer,
    ///   `VersionedDecodingError` when its version is not in the chain, and any error a
    ///   migration step throws.
    public func decode<ExpectedType: VersionedCodable>(
        versioned expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> ExpectedType {
        try ExpectedType.decodeTransparently(from: data) { type, data in
            try self.decode(type, from: data)
        }
    }

    /// Decodes a versioned XML document and tells which version it was stored as.
    ///
    /// Write the value back when `wasMigrated` is `true` to upgrade stored documents as they
    /// are read.
    ///
    /// - Parameters:
    ///   - expectedType: The current version of the type.
    ///   - data: The XML document, of any version in the type's chain.
    /// - Returns: The migrated value with the version it was stored as.
    /// - Throws: The same errors as ``decode(versioned:from:)``.
    public func decodeWithStoredVersion<ExpectedType: VersionedCodable>(
        _ expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> Versioned<ExpectedType> {
        try decode(Versioned<ExpectedType>.self, from: data)
    }
}
