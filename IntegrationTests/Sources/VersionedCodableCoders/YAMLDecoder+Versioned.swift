import Foundation
import VersionedCodable
import Yams

extension YAMLDecoder {
    // snippet: yaml-decoder
    /// Decodes a versioned YAML document into its current version.
    ///
    /// The version stored in the document picks the historical type to decode, and the value
    /// is migrated step by step up to `expectedType`. The YAML is parsed once: the version and
    /// the fields are read through the same decoder.
    ///
    /// ```swift
    /// let poem = try YAMLDecoder().decode(versioned: Poem.self, from: yaml)
    /// ```
    ///
    /// - Parameters:
    ///   - expectedType: The current version of the type.
    ///   - data: The YAML document, of any version in the type's chain, in UTF-8.
    /// - Returns: The document as `expectedType`.
    /// - Throws: `DecodingError` when the YAML is malformed, `VersionedDecodingError` when its
    ///   version is not in the chain, and any error a migration step throws, unwrapped from the
    ///   `DecodingError` that Yams puts around it.
    public func decode<ExpectedType: VersionedCodable>(
        versioned expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> ExpectedType {
        try Self.unwrappingTypeErrors {
            try ExpectedType.decodeTransparently(from: data) { type, data in
                try self.decode(type, from: data)
            }
        }
    }
    // end snippet

    /// Decodes a versioned YAML document held in a string into its current version.
    ///
    /// - Parameters:
    ///   - expectedType: The current version of the type.
    ///   - yaml: The YAML document, of any version in the type's chain.
    /// - Returns: The document as `expectedType`.
    /// - Throws: The same errors as ``decode(versioned:from:)-(_,Data)``.
    public func decode<ExpectedType: VersionedCodable>(
        versioned expectedType: ExpectedType.Type,
        from yaml: String
    ) throws -> ExpectedType {
        try decode(versioned: expectedType, from: Data(yaml.utf8))
    }

    /// Decodes a versioned YAML document and tells which version it was stored as.
    ///
    /// Write the value back when `wasMigrated` is `true` to upgrade stored documents as they
    /// are read.
    ///
    /// ```swift
    /// let read = try YAMLDecoder().decodeWithStoredVersion(Poem.self, from: data)
    /// if read.wasMigrated {
    ///     try save(YAMLEncoder().encode(versioned: read.wrappedValue))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - expectedType: The current version of the type.
    ///   - data: The YAML document, of any version in the type's chain, in UTF-8.
    /// - Returns: The migrated value with the version it was stored as.
    /// - Throws: The same errors as ``decode(versioned:from:)-(_,Data)``.
    public func decodeWithStoredVersion<ExpectedType: VersionedCodable>(
        _ expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> Versioned<ExpectedType> {
        try Self.unwrappingTypeErrors {
            try decode(Versioned<ExpectedType>.self, from: data)
        }
    }

    /// Yams wraps every error that is not a `DecodingError` in
    /// `DecodingError.dataCorrupted("The given data was not valid YAML.")`, including
    /// `VersionedDecodingError` and the errors of migration steps, which callers match on.
    /// Those are handed back as they were thrown; errors of Yams's own parser stay wrapped.
    private static func unwrappingTypeErrors<T>(_ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.isEmpty && context.underlyingError != nil
            && !(context.underlyingError is YamlError)
        {
            throw context.underlyingError!
        }
    }
}
