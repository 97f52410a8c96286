/// The decoder of an object where a spec reads: a versioned part's root, which its spec and its
/// type both read through, or an object below it where the spec reads (`_metadata`).
///
/// Reading the version and then the type asks the decoder for the root keyed container twice,
/// and the Foundation decoders index the object's keys every time they are asked (JSONDecoder
/// and PropertyListDecoder build a dictionary of them). Through this decoder a part's root is
/// indexed once: its keyed container is opened with the library's key type when the decoder is
/// made, since the spec reads it first, and every request gets a view of it with its own key
/// type (see ``PlaceKeyedDecodingContainer``). Below the root, where a reader may ask for
/// another kind of container first, each request opens the real container, as it would without
/// versioning.
/// Unkeyed containers, and everything below that the spec does not read, come from the real
/// decoder as they would without versioning.
@usableFromInline
internal final class PlaceDecoder: Decoder {
    let base: any Decoder
    /// A part's root, opened with the library's key type when the decoder is made. `nil` below
    /// the root, and where the root is not an object, whose request throws the real decoder's
    /// error.
    private let root: KeyedDecodingContainer<ForwardedKey>?
    /// What the spec read here, which the type does not see where it lists keys.
    var place: KeysRead
    /// While a spec reads here: where its keys are noted.
    var specKeys: KeyNotes?
    /// The keys the type reads at the root, noted only for a document newer than this build.
    var typeKeys: KeyNotes?
    /// Whether the version was read by the requested type's own spec, rather than an older one.
    var foundByOwnSpec = true
    /// A document newer than this build that declares it may read it: its version and the
    /// oldest versions that may read and write it.
    @usableFromInline
    var newer: (storedVersion: Int, readableFrom: Int, writableFrom: Int)?

    @usableFromInline
    init(base: any Decoder) {
        self.base = base
        root = try? base.container(keyedBy: ForwardedKey.self)
        place = VersionKeyAtRootVersionPathSpec.keysRead
    }

    /// The decoder of an object below a versioned part's root where the spec read `place`, or,
    /// while the spec reads, where it notes its keys in `specKeys`.
    init(base: any Decoder, place: KeysRead = VersionKeyAtRootVersionPathSpec.keysRead, specKeys: KeyNotes? = nil) {
        self.base = base
        root = nil
        self.place = place
        self.specKeys = specKeys
    }

    @usableFromInline
    var codingPath: [any CodingKey] { base.codingPath }
    @usableFromInline
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    @usableFromInline
    func sharedRoot() throws -> KeyedDecodingContainer<ForwardedKey> {
        if let root {
            return root
        }
        return try base.container(keyedBy: ForwardedKey.self)
    }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let root = try sharedRoot()
        if let specKeys {
            return KeyedDecodingContainer(PlaceKeyedDecodingContainer<Key>(base: root, place: nil, notes: specKeys))
        }
        return KeyedDecodingContainer(PlaceKeyedDecodingContainer<Key>(base: root, place: place, notes: typeKeys))
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try base.unkeyedContainer()
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let single = try base.singleValueContainer()
        if let specKeys {
            return PlaceSingleValueDecodingContainer(base: single, decoder: self, place: nil, notes: specKeys)
        }
        return PlaceSingleValueDecodingContainer(base: single, decoder: base, place: place, notes: typeKeys)
    }
}

extension DecodingError {
    /// The same error with `key` in place of the library's key at `depth` of the coding path,
    /// and as the missing key.
    func restoring<Key: CodingKey>(_ key: Key, atDepth depth: Int) -> DecodingError {
        func restored(_ context: Context) -> Context {
            guard depth < context.codingPath.count, context.codingPath[depth] is ForwardedKey else {
                return context
            }
            var path = context.codingPath
            path[depth] = key
            return Context(
                codingPath: path,
                debugDescription: context.debugDescription,
                underlyingError: context.underlyingError
            )
        }
        switch self {
        case .keyNotFound(let missing, let context):
            return .keyNotFound(missing is ForwardedKey ? key : missing, restored(context))
        case .typeMismatch(let type, let context):
            return .typeMismatch(type, restored(context))
        case .valueNotFound(let type, let context):
            return .valueNotFound(type, restored(context))
        case .dataCorrupted(let context):
            return .dataCorrupted(restored(context))
        @unknown default:
            return self
        }
    }
}
