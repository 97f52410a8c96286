import Foundation

extension VersionedCodable {
    /// Encodes the value with its version, through an encoding function you provide.
    ///
    /// Use it to add versioned encoding to a coder that this package does not extend. `encode`
    /// is called once with a wrapper whose `encode(to:)` writes the value's fields and then its
    /// type's ``VersionedCodable/version`` at the path of ``VersionedCodable/VersionSpec``,
    /// merged into any object the type writes there.
    ///
    /// This is the `Data` form that VersionedCodable 1.2 declared;
    /// ``encodeTransparently(returning:)`` takes a coder whose output is of another type, such
    /// as a `String`.
    ///
    /// ```swift
    /// extension PropertyListEncoder {
    ///     func encodeForArchive(_ value: some VersionedCodable) throws -> Data {
    ///         try value.encodeTransparently { try self.encode($0) }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter encode: A function that encodes the value it is given.
    /// - Returns: What `encode` returns.
    /// - Throws: Whatever `encode` throws, including ``VersionedEncodingError`` when the type
    ///   writes its own value where the version goes: that error is thrown while `encode`
    ///   runs.
    public func encodeTransparently(using encode: (any Encodable) throws -> Data) rethrows -> Data {
        try encodeTransparently(returning: encode)
    }

    /// Encodes the value with its version through a coder whose output is of any type, such
    /// as a YAML or TOML encoder that returns a `String`.
    ///
    /// It works as ``encodeTransparently(using:)`` does, without forcing the coder's output
    /// through `Data`.
    ///
    /// ```swift
    /// extension YAMLEncoder {
    ///     func encode(versioned value: some VersionedCodable) throws -> String {
    ///         try value.encodeTransparently(returning: { try self.encode($0) })
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter encode: A function that encodes the value it is given.
    /// - Returns: What `encode` returns.
    /// - Throws: Whatever `encode` throws, including ``VersionedEncodingError`` when the type
    ///   writes its own value where the version goes.
    public func encodeTransparently<Output>(returning encode: (any Encodable) throws -> Output) rethrows -> Output {
        do {
            return try encode(Versioned(self))
        } catch {
            throw VersionedEncodingError.unwrapped(from: error)
        }
    }

    /// Encodes the value as an older version of its type, through an encoding function you
    /// provide, for readers that only know that version.
    ///
    /// The value is turned into each previous version in turn with
    /// ``VersionedCodable/downgraded()`` until it reaches the type whose version is `version`,
    /// and that value is written with its own version and version path.
    ///
    /// - Parameters:
    ///   - version: The version to write. It must be in the type's chain.
    ///   - encode: A function that encodes the value it is given.
    /// - Returns: What `encode` returns.
    /// - Throws: Whatever `encode` throws, and ``VersionedEncodingError`` when `version` is not
    ///   in the chain, a step has no downgrade, or a step cannot represent the value.
    public func encodeTransparently(
        asVersion version: Int?,
        using encode: (any Encodable) throws -> Data
    ) rethrows -> Data {
        try encodeTransparently(asVersion: version, returning: encode)
    }

    /// Encodes the value as an older version of its type through a coder whose output is of
    /// any type, as ``encodeTransparently(asVersion:using:)`` does for `Data`.
    ///
    /// - Parameters:
    ///   - version: The version to write. It must be in the type's chain.
    ///   - encode: A function that encodes the value it is given.
    /// - Returns: What `encode` returns.
    /// - Throws: Whatever `encode` throws, and ``VersionedEncodingError`` when `version` is not
    ///   in the chain, a step has no downgrade, or a step cannot represent the value.
    public func encodeTransparently<Output>(
        asVersion version: Int?,
        returning encode: (any Encodable) throws -> Output
    ) rethrows -> Output {
        do {
            return try encode(VersionedRoot(value: self, version: version))
        } catch {
            throw VersionedEncodingError.unwrapped(from: error)
        }
    }
}
