import Foundation

extension VersionedCodable {
    /// Decodes a versioned document with any decoder, through a function you provide.
    ///
    /// Use it to add versioned decoding to a coder that this package does not extend. `decode`
    /// is called once, with a wrapper type whose `init(from:)` reads the version and then
    /// decodes the matching historical type from the same decoder, so the document is parsed
    /// once:
    ///
    /// ```swift
    /// extension YAMLDecoder {
    ///     func decode<T: VersionedCodable>(versioned type: T.Type, from data: Data) throws -> T {
    ///         try T.decodeTransparently(from: data) { type, data in
    ///             try self.decode(type, from: data)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The chain that is walked is `ExpectedType`'s, whichever type this is called on.
    ///
    /// - Parameters:
    ///   - data: The encoded document, passed on to `decode`.
    ///   - decode: A function that decodes a value of the given type from the data, and returns
    ///     that value.
    /// - Returns: The document as `ExpectedType`, migrated from the version it was stored as.
    /// - Throws: Whatever `decode` throws, ``VersionedDecodingError`` when the version is not in
    ///   the chain or `decode` returns a value of another type, and any error a migration step
    ///   throws.
    public static func decodeTransparently<ExpectedType: VersionedCodable>(
        from data: Data,
        using decode: (any Decodable.Type, Data) throws -> any Decodable
    ) throws -> ExpectedType {
        let decoded = try decode(Versioned<ExpectedType>.self, data)
        guard let document = decoded as? Versioned<ExpectedType> else {
            throw VersionedDecodingError.decodeFunctionReturnedWrongType(
                expected: Versioned<ExpectedType>.self,
                returned: type(of: decoded)
            )
        }
        return try document.refusingNewer().wrappedValue
    }
}
