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
        if case EncodingError.invalidValue(_, let context) = error,
            let versioningError = context.underlyingError as? VersionedEncodingError
        {
            return versioningError
        }
        return error
    }
}
