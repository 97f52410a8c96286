import Foundation

extension PropertyListDecoder {
    /// Decodes a versioned document into its current version.
    ///
    /// The version stored in the document selects the historical type to decode; the value is
    /// then migrated step by step up to `expectedType`. The document is parsed once, and the
    /// decoder's strategies and `userInfo` apply to the version and to every field.
    ///
    /// <!-- snippet: property-list-decode -->
    /// ```swift
    /// let poem = try PropertyListDecoder().decode(versioned: Poem.self, from: data)
    /// ```
    ///
    /// - Parameters:
    ///   - expectedType: The current version of the type.
    ///   - data: The encoded document, of any version in the type's chain.
    /// - Returns: The document as `expectedType`.
    /// - Throws: `DecodingError` when the data is malformed, ``VersionedDecodingError`` when its
    ///   version is not in the chain, and any error a migration step throws. The bytes are read
    ///   by Foundation's property-list reader, exactly as a plain decode reads them: see
    ///   <doc:GettingStarted#Decode-documents-from-untrusted-sources> for what that reader does with hostile input.
    @inlinable
    public func decode<ExpectedType: VersionedCodable>(
        versioned expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> ExpectedType {
        try decodeWithStoredVersion(expectedType, from: data).wrappedValue
    }

    /// Decodes a versioned document and tells which version it was stored as.
    ///
    /// Use it to upgrade stored documents as they are read: when
    /// ``Versioned/wasMigrated`` is `true`, write the value back.
    ///
    /// <!-- snippet: property-list-upgrade-on-read -->
    /// ```swift
    /// let read = try PropertyListDecoder().decodeWithStoredVersion(Poem.self, from: data)
    /// if read.wasMigrated {
    ///     try save(PropertyListEncoder().encode(versioned: read.wrappedValue))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - expectedType: The current version of the type.
    ///   - data: The encoded document, of any version in the type's chain.
    /// - Returns: The migrated value with the version it was stored as.
    /// - Throws: The same errors as ``decode(versioned:from:)``.
    @inlinable
    public func decodeWithStoredVersion<ExpectedType: VersionedCodable>(
        _ expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> Versioned<ExpectedType> {
        // Inlinable, so that the chain walk is compiled here, for the caller's type.
        if #available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *) {
            let walk = ExpectedType.decodeMigrating
            return try decode(VersionedDocument<ExpectedType>.self, from: data, configuration: walk).versioned
        }
        return try decodeWithStoredVersionThroughVersioned(expectedType, from: data)
    }

    /// The decode of systems before macOS 14 and iOS 17, which lack `DecodableWithConfiguration`:
    /// through `Versioned`, refusing a document newer than the type. `package`, so that the
    /// tests run it on the systems that take the other path.
    @inlinable
    package func decodeWithStoredVersionThroughVersioned<ExpectedType: VersionedCodable>(
        _ expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> Versioned<ExpectedType> {
        try decode(Versioned<ExpectedType>.self, from: data).refusingNewer()
    }

    /// Reads the version a document is stored with, without decoding the document.
    ///
    /// The version is found as ``decode(versioned:from:)`` finds it, through `expectedType`'s
    /// ``VersionedCodable/VersionSpec`` and the decoder's key strategy. Use it to say which
    /// version a document has when decoding it threw
    /// ``VersionedDecodingError/unsupportedVersion(tried:)``, whose payload names only the
    /// oldest type of the chain.
    ///
    /// <!-- snippet: property-list-stored-version -->
    /// ```swift
    /// do {
    ///     poem = try PropertyListDecoder().decode(versioned: Poem.self, from: data)
    /// } catch VersionedDecodingError.unsupportedVersion {
    ///     let stored = try PropertyListDecoder().storedVersion(of: Poem.self, from: data)
    ///     log("Poem has no version \(stored.map { String($0) } ?? "(none)")")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - expectedType: The current version of the type, whose spec says where the version is.
    ///   - data: The encoded document.
    /// - Returns: The stored version, or `nil` when the document has none (a document written
    ///   before versioning was adopted). The version need not be one the chain supports.
    /// - Throws: `DecodingError` when the data is malformed or the version is not an integer.
    public func storedVersion<ExpectedType: VersionedCodable>(
        of expectedType: ExpectedType.Type,
        from data: Data
    ) throws -> Int? {
        try decode(StoredVersionReader<ExpectedType>.self, from: data).version
    }
}
