import Foundation

extension PropertyListEncoder {
    /// Encodes a versioned value with its type's version.
    ///
    /// The version is written at the path of the type's `VersionSpec`, after the type's own
    /// fields and merged into any object the type writes there. The encoder's strategies and
    /// `outputFormatting` apply as usual.
    ///
    /// <!-- snippet: property-list-encode -->
    /// ```swift
    /// let data = try PropertyListEncoder().encode(versioned: poem)
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded document.
    /// - Throws: ``VersionedEncodingError/typeHasClashingVersionField`` when the type writes its
    ///   own value where the version goes, another ``VersionedEncodingError`` when the version
    ///   cannot be written beside what the type writes,
    ///   ``VersionedDecodingError/invalidVersionChain(_:)`` when the chain is not sound or its spec
    ///   cannot say where the version goes, and any error the type's or the spec's encoding throws.
    public func encode(versioned value: any VersionedCodable) throws -> Data {
        let versionsToWrite = VersionsToWrite.listed(in: userInfo)
        return try VersionedEncodingError.unwrapping {
            try encode(VersionedRoot(value: value, versionsToWrite: versionsToWrite))
        }
    }

    /// Encodes a versioned value as an older version of its type, for readers that only know
    /// that version.
    ///
    /// Each step down uses the type's ``VersionedCodable/downgraded()``.
    ///
    /// <!-- snippet: property-list-encode-older -->
    /// ```swift
    /// let forOldReaders = try PropertyListEncoder().encode(versioned: poem, asVersion: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to encode, of the current version.
    ///   - version: The older version to write. It must be in the value's chain.
    /// - Returns: The encoded document, as the older version writes it.
    /// - Throws: ``VersionedEncodingError`` when the version is not in the chain, a step has no
    ///   downgrade or cannot represent the value, or the version cannot be written beside what the
    ///   type writes; ``VersionedDecodingError/invalidVersionChain(_:)`` when the chain is not
    ///   sound; and any error the type's or the spec's encoding throws.
    public func encode(versioned value: any VersionedCodable, asVersion version: Int?) throws -> Data {
        try VersionedEncodingError.unwrapping { try encode(VersionedRoot(value: value, version: version)) }
    }
}
