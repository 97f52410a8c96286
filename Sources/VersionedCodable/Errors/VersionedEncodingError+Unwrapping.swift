extension VersionedEncodingError {
    /// Some encoders (`PropertyListEncoder` among them) wrap an error thrown while encoding the
    /// top-level value in `EncodingError.invalidValue`. A versioning error is the caller's to
    /// handle by its case, so it is taken out of that wrapper; every other error is left as it
    /// is.
    static func unwrapping<T>(_ encode: () throws -> T) throws -> T {
        do {
            return try encode()
        } catch {
            throw unwrapped(from: error)
        }
    }

    static func unwrapped(from error: any Error) -> any Error {
        // The coder's wrapper is about the top-level value; an error with a coding path is a
        // versioned part's own, which already says where it is.
        guard case EncodingError.invalidValue(_, let context) = error, context.codingPath.isEmpty else {
            return error
        }
        // A chain or spec that cannot be written with is `invalidVersionChain`.
        if let versioningError = context.underlyingError,
            versioningError is VersionedEncodingError || versioningError is VersionedDecodingError
        {
            return versioningError
        }
        if let partError = context.underlyingError as? EncodingError,
            case EncodingError.invalidValue(_, let partContext) = partError,
            partContext.underlyingError is VersionedEncodingError
        {
            return partError
        }
        return error
    }
}
