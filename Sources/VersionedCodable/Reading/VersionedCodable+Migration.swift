extension VersionedCodable {
    /// Reads the stored version through `decoder`, then decodes the matching historical type
    /// from the same decoder and migrates it up to `Self`.
    ///
    /// This is the single pass behind every versioned decode: the document is never parsed
    /// twice, and the decoder's own configuration applies to the version and to every field.
    /// The version and the type share one root keyed container (see ``SharedRootDecoder``), so
    /// the root object is indexed once, as in a plain decode.
    ///
    /// Inlinable so that a conforming module specializes it for its own type: decoders reach
    /// it through the conformance, so no step pays for generic metadata lookups.
    ///
    /// - Parameter decoder: The decoder positioned at the document.
    /// - Returns: The document migrated to `Self`, and the version it was stored with.
    /// - Throws: `DecodingError` for malformed data, ``VersionedDecodingError`` when the version
    ///   is not in the chain, and any error a migration step throws.
    @inlinable
    public static func _decodeVersioned(from decoder: any Decoder) throws -> (value: Self, storedVersion: Int?) {
        if Self.self == NothingEarlier.self {
            // An empty chain: decoding the stopper itself throws the type mismatch it documents.
            return (try Self(from: decoder), nil)
        }
        let shared = SharedRootDecoder(base: decoder)
        let storedVersion = try readStoredVersion(from: shared)
        let chain = VersionChain(for: Self.self)
        if chain.problem != nil || !chain.versions.contains(storedVersion) {
            try chain.checkCanDecode(storedVersion: storedVersion)
            throw VersionedDecodingError.unsupportedVersion(tried: chain.oldest)
        }
        if storedVersion == version {
            return (try Self(from: shared), storedVersion)
        }
        return (try _decodeMigrating(storedVersion: storedVersion, from: shared), storedVersion)
    }

    @inlinable
    static func readStoredVersion(from decoder: SharedRootDecoder) throws -> Int? {
        if VersionSpec.self == VersionKeyAtRootVersionPathSpec.self {
            // What the default spec's synthesized `init(from:)` does, without building a spec
            // value and applying its key path.
            return try decoder.sharedRoot().decodeIfPresent(Int.self, forKey: rootVersionKey)
        }
        return try readCustomSpecVersion(from: decoder)
    }

    /// Walks down `PreviousVersion` to the type with `storedVersion`, decodes it and migrates
    /// the value back up. The caller has checked that the chain is sound and has the version,
    /// so the walk ends at it.
    ///
    /// Inlinable so that a conforming module specializes it for its own chain.
    ///
    /// - Parameters:
    ///   - storedVersion: The version found in the document.
    ///   - decoder: The decoder positioned at the document.
    /// - Returns: The document migrated to `Self`.
    /// - Throws: Any error that decoding the stored type or a migration step throws.
    @inlinable
    public static func _decodeMigrating(storedVersion: Int?, from decoder: any Decoder) throws -> Self {
        if storedVersion == version {
            return try Self(from: decoder)
        }
        if PreviousVersion.self == NothingEarlier.self {
            throw VersionedDecodingError.unsupportedVersion(tried: Self.self)
        }
        return try Self(from: PreviousVersion._decodeMigrating(storedVersion: storedVersion, from: decoder))
    }
}

/// The default spec's key. The shared root's keys print as synthesized keys do, so an error
/// about the version reads the same whether or not the spec itself is decoded.
@usableFromInline
let rootVersionKey = ForwardedKey(stringValue: "version")
