extension VersionedCodable {
    /// Reads the stored version through `decoder`, then decodes the matching historical type
    /// from the same decoder and migrates it up to `Self`.
    ///
    /// This is the single pass behind every versioned decode: the document is never parsed
    /// twice, and the decoder's own configuration applies to the version and to every field.
    @inlinable
    static func decodeVersioned(from decoder: any Decoder) throws -> (value: Self, storedVersion: Int?) {
        let storedVersion = try VersionSpec(from: decoder)[keyPath: VersionSpec.keyPathToVersion]
        try VersionChain(for: Self.self).checkCanDecode(storedVersion: storedVersion)
        return (try decodeMigrating(storedVersion: storedVersion, from: decoder), storedVersion)
    }

    /// Walks down `PreviousVersion` to the type with `storedVersion`, decodes it and migrates
    /// the value back up. The caller has checked the chain, so the walk ends.
    @inlinable
    static func decodeMigrating(storedVersion: Int?, from decoder: any Decoder) throws -> Self {
        if storedVersion == version {
            return try Self(from: decoder)
        }
        if PreviousVersion.self == NothingEarlier.self {
            throw VersionedDecodingError.unsupportedVersion(tried: Self.self)
        }
        return try Self(from: PreviousVersion.decodeMigrating(storedVersion: storedVersion, from: decoder))
    }
}
