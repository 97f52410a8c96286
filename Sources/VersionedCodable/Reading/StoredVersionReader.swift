/// Reads only the version a document is stored with, the way a versioned decode of `Value`
/// reads it: through `Value`'s spec (and the older types' specs, for a custom spec), under the
/// decoder's key strategy, with a missing version read as `nil`.
struct StoredVersionReader<Value: VersionedCodable>: Decodable {
    let version: Int?

    init(from decoder: any Decoder) throws {
        version = try Value.readStoredVersion(from: SharedRootDecoder(base: decoder))
    }
}
