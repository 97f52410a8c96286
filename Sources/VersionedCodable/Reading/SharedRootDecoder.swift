/// A decoder that hands one root keyed container to both the version spec and the versioned
/// type.
///
/// Reading the version and then the type asks the decoder for the root keyed container twice,
/// and the Foundation decoders index the object's keys every time they are asked (JSONDecoder
/// and PropertyListDecoder build a dictionary of them). Through this decoder the root is
/// indexed once: its first keyed container is opened with ``SharedRootKey/CodingKeys`` and every later
/// request gets a view of it with its own key type. Unkeyed and single-value containers, and
/// everything below the root, come from the real decoder as they would without versioning.
@usableFromInline
internal final class SharedRootDecoder: Decoder {
    let base: any Decoder
    @exclusivity(unchecked) private var root: KeyedDecodingContainer<ForwardedKey>?
    /// What the spec read in this document, hidden from the type where it lists keys: the
    /// default spec's `version` until another spec reads.
    var places = SpecPlace.versionAtRoot
    /// Whether the version was read by the requested type's own spec, rather than an older one.
    var foundByOwnSpec = true
    /// The version read from the document, kept here so that the frame of the versioned
    /// decode that nested parts recurse through need not hold it twice.
    @usableFromInline
    var storedVersion: Int?
    /// Whether ``storedVersion`` was read, for describing a failure.
    var versionWasRead = false
    /// A document newer than this build that declares it may read it: its version and the
    /// oldest versions that may read and write it.
    @usableFromInline
    var newer: (storedVersion: Int, readableFrom: Int, writableFrom: Int)?
    /// The keys the type reads at the root, noted only for a newer document.
    var readKeys: ReadKeys?

    @usableFromInline
    init(base: any Decoder) {
        self.base = base
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
        let made = try base.container(keyedBy: ForwardedKey.self)
        root = made
        return made
    }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(
            SharedRootKeyedContainer<Key>(root: try sharedRoot(), places: places, readKeys: readKeys)
        )
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try base.unkeyedContainer()
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PlaceSingleValueDecodingContainer(
            base: try base.singleValueContainer(),
            decoder: base,
            places: places,
            readKeys: readKeys
        )
    }
}

/// The keys of the shared root container.
///
/// Named `CodingKeys` and printed the way synthesized keys print, so that a coding path that
/// passes through the root reads as it would without versioning. It fits in an existential's
/// inline storage (a string and one word), so decoders that keep keys in coding paths do not
/// allocate for it.
@usableFromInline
internal enum SharedRootKey {
    @usableFromInline
    struct CodingKeys: CodingKey {
        @usableFromInline
        let stringValue: String
        /// `Int.min` stands for no integer value, to keep the key within three words.
        private let storedIntValue: Int

        @usableFromInline
        var intValue: Int? { storedIntValue == .min ? nil : storedIntValue }

        @inline(__always)
        init<Key: CodingKey>(_ key: Key) {
            stringValue = key.stringValue
            storedIntValue = key.intValue ?? .min
        }

        @usableFromInline
        init(stringValue: String) {
            self.stringValue = stringValue
            storedIntValue = .min
        }

        @usableFromInline
        init?(intValue: Int) {
            stringValue = String(intValue)
            storedIntValue = intValue
        }
    }
}

@usableFromInline
internal typealias ForwardedKey = SharedRootKey.CodingKeys

/// A view of the shared root container under the key type a `Decodable` type asked for.
///
/// Errors that pass through it are given the type's own key back in place of the root's key,
/// so that a `DecodingError` reads as it would without versioning.
///
/// The standard library's box copies the view for every field a type reads, so it holds few
/// references.
struct SharedRootKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let root: KeyedDecodingContainer<ForwardedKey>
    let places: SpecPlace
    /// Where the keys the type reads are noted, for a document newer than this build.
    let readKeys: ReadKeys?

    @inline(__always)
    init(root: KeyedDecodingContainer<ForwardedKey>, places: SpecPlace, readKeys: ReadKeys?) {
        self.root = root
        self.places = places
        self.readKeys = readKeys
    }

    var codingPath: [any CodingKey] { root.codingPath }

    var allKeys: [Key] {
        readKeys?.all = true
        return root.allKeys.compactMap { key in
            if places.owns(key.stringValue) {
                return nil
            }
            return key.intValue.flatMap(Key.init(intValue:)) ?? Key(stringValue: key.stringValue)
        }
    }

    func contains(_ key: Key) -> Bool {
        readKeys?.keys.append(key.stringValue)
        return root.contains(ForwardedKey(key))
    }

    /// What `body` reads from the root at `key`, with the type's own key put back in place of
    /// the root's in an error.
    @inline(__always)
    private func read<T>(
        _ key: Key,
        _ body: (KeyedDecodingContainer<ForwardedKey>, ForwardedKey) throws -> T
    ) throws -> T {
        readKeys?.keys.append(key.stringValue)
        do {
            return try body(root, ForwardedKey(key))
        } catch let error as DecodingError {
            throw error.restoring(key, atDepth: root.codingPath.count)
        }
    }

    // Every overload is forwarded by hand, each to the root's overload of the same type, rather
    // than all through the generic `decode(_:forKey:)`: the real container's typed overloads
    // are its fast paths (no generic dispatch, no boxing of the value), and a generic fallback
    // would cost every field of every versioned decode. Each also puts the type's own key back
    // into an error (see `read(_:_:)`).
    func decodeNil(forKey key: Key) throws -> Bool { try read(key) { try $0.decodeNil(forKey: $1) } }
    func decode(_ t: Bool.Type, forKey key: Key) throws -> Bool { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: String.Type, forKey key: Key) throws -> String { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: Double.Type, forKey key: Key) throws -> Double { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: Float.Type, forKey key: Key) throws -> Float { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: Int.Type, forKey key: Key) throws -> Int { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: Int8.Type, forKey key: Key) throws -> Int8 { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: Int16.Type, forKey key: Key) throws -> Int16 { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: Int32.Type, forKey key: Key) throws -> Int32 { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: Int64.Type, forKey key: Key) throws -> Int64 { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: UInt.Type, forKey key: Key) throws -> UInt { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode(_ t: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key) { try $0.decode(t, forKey: $1) } }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // Nested values (versioned parts among them) recurse through this frame, so it reads
        // the root itself rather than through `read(_:_:)`'s closure, and the rare case of an
        // object where the spec reads is decided out of line.
        if places.hasObjects, let below = places(below: key) {
            return try read(key) { try decodeAtPlace(type, below, from: $0, forKey: $1) }
        }
        readKeys?.keys.append(key.stringValue)
        do {
            return try root.decode(type, forKey: ForwardedKey(key))
        } catch let error as DecodingError {
            throw error.restoring(key, atDepth: root.codingPath.count)
        }
    }

    /// The places where the spec keeps a version inside the object at `key`, if any.
    @inline(never)
    private func places(below key: Key) -> SpecPlace? {
        places.child(key.stringValue)
    }

    // The real container's own `decodeIfPresent` is forwarded rather than the protocol's
    // default, because a decoder may treat a missing key and `null` in its own way.
    func decodeIfPresent(_ t: Bool.Type, forKey k: Key) throws -> Bool? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: String.Type, forKey k: Key) throws -> String? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Double.Type, forKey k: Key) throws -> Double? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Float.Type, forKey k: Key) throws -> Float? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int.Type, forKey k: Key) throws -> Int? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int8.Type, forKey k: Key) throws -> Int8? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int16.Type, forKey k: Key) throws -> Int16? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int32.Type, forKey k: Key) throws -> Int32? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int64.Type, forKey k: Key) throws -> Int64? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt.Type, forKey k: Key) throws -> UInt? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt8.Type, forKey k: Key) throws -> UInt8? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt16.Type, forKey k: Key) throws -> UInt16? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt32.Type, forKey k: Key) throws -> UInt32? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt64.Type, forKey k: Key) throws -> UInt64? {
        try read(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if places.hasObjects, let below = places(below: key) {
            return try read(key) { try decodeIfPresentAtPlace(type, below, from: $0, forKey: $1) }
        }
        readKeys?.keys.append(key.stringValue)
        do {
            return try root.decodeIfPresent(type, forKey: ForwardedKey(key))
        } catch let error as DecodingError {
            throw error.restoring(key, atDepth: root.codingPath.count)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = try read(key) { try $0.nestedContainer(keyedBy: type, forKey: $1) }
        guard places.hasObjects, let below = places(below: key) else {
            return nested
        }
        // A type that opens the object by hand and lists its keys does not see the version.
        return KeyedDecodingContainer(PlaceDecodingContainer(base: nested, places: below))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try read(key) { try $0.nestedUnkeyedContainer(forKey: $1) }
    }

    func superDecoder() throws -> any Decoder {
        // Foundation's coders read a key-less super decoder under "super".
        readKeys?.keys.append("super")
        return try root.superDecoder()
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let decoder = try read(key) { try $0.superDecoder(forKey: $1) }
        guard places.hasObjects, let below = places(below: key) else {
            return decoder
        }
        return PlaceDecoder(base: decoder, places: below)
    }
}

extension DecodingError {
    /// The same error with `key` in place of the shared root's key at `depth` of the coding
    /// path, and as the missing key.
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

/// The keys a type reads at the root of a document newer than this build: the others are kept.
final class ReadKeys {
    /// A list rather than a set: a type reads few keys, and the list is searched once per key of
    /// the document.
    var keys: [String] = []
    /// Whether the type listed the keys, and so read them all.
    var all = false
    /// Whether the type forwarded its root to another type, whose keys are not noted.
    var forwarded = false
}
