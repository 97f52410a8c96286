import Foundation

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
internal final class PlaceDecoder: Decoder, SingleValueDecodingContainer {
    let base: any Decoder
    /// A part's root, opened with the library's key type when the decoder is made. `nil` below
    /// the root, and where the root is not an object, whose request throws the real decoder's
    /// error.
    private let root: KeyedDecodingContainer<ForwardedKey>?
    /// What the spec read here, which the type does not see where it lists keys.
    var place: KeysRead
    /// While a spec reads here: where its keys are noted.
    var specKeys: KeyNotes?
    /// The keys the type reads here, noted only for a document newer than this build.
    var typeKeys: KeyNotes?
    /// Whether the version was read by the requested type's own spec, rather than an older one.
    var foundByOwnSpec = true
    /// A document newer than this build that declares it may read it: its version and the
    /// oldest versions that may read and write it.
    @usableFromInline
    var newer: (storedVersion: Int, readableFrom: Int, writableFrom: Int)?

    /// The decoder of a versioned part's root, whose object is opened once here and shared by
    /// the spec and the type (`nil` where the part is no object); its place is the default
    /// spec's until the spec has read the version.
    @usableFromInline
    init(base: any Decoder) {
        self.base = base
        root = try? base.container(keyedBy: ForwardedKey.self)
        place = VersionKeyAtRootVersionPathSpec.keysRead
    }

    /// The decoder of an object below a versioned part's root where the spec read `place`, with
    /// the type's keys noted in `typeKeys`, or, while the spec reads, where it notes its keys in
    /// `specKeys`.
    init(
        base: any Decoder,
        place: KeysRead = VersionKeyAtRootVersionPathSpec.keysRead,
        typeKeys: KeyNotes? = nil,
        specKeys: KeyNotes? = nil
    ) {
        self.base = base
        root = nil
        self.place = place
        self.typeKeys = typeKeys
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
        let container = try base.unkeyedContainer()
        // An array the spec reads is its key's value, as a single value is, not an object it
        // read into.
        specKeys?.readValue = true
        return container
    }

    /// Its own single-value container, for a type that forwards its decoding to another: what is
    /// read through it stands at this object.
    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        // Asked first, so that a decoder without one throws its own error here.
        _ = try base.singleValueContainer()
        return self
    }

    @usableFromInline
    func decodeNil() -> Bool {
        let isNil = (try? base.singleValueContainer().decodeNil()) ?? false
        if isNil {
            specKeys?.readValue = true
        }
        return isNil
    }

    @usableFromInline
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch (Route(T.self, hasPlace: { true }), specKeys) {
        case (.pass, _), (.dictionary, _?):
            // The spec reads a value whole here, through a super decoder at its key.
            specKeys?.readValue = true
            return try base.singleValueContainer().decode(type)
        case (.follow, _?):
            // The spec forwards its decoding to a struct at the same place.
            return try T(from: self)
        case (_, nil):
            // The type forwards its object to another, whose keys are noted as its own.
            return try decodeObject(type, place, from: base, notes: typeKeys)
        }
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

// MARK: - Containers

// Reading an object where a spec reads (the root, or `_metadata` under a `_metadata.version`
// spec), for the spec itself or for the type. While the spec reads (`place` is `nil`), every key
// it reads is noted, and every object it reads is followed, so that what it read is known. While
// the type reads, what the spec read there is the library's: a type that lists the object's
// keys, or reads it as a dictionary, does not see it, and an optional object that holds nothing
// but what the spec wrote is `nil`. Which of these happens to a value is ``Route``'s to say.

/// A keyed container at an object where a spec reads, over the object opened with the library's
/// key type: at the root, the one container that the spec and the type share.
///
/// Errors that pass through it are given the type's own key back in place of the library's, so
/// that a `DecodingError` reads as it would without versioning.
///
/// A class, though nothing in it changes: the standard library's box copies its container,
/// through generic code, for every field a type reads, and a class is one reference to copy
/// where a struct of these fields is three.
final class PlaceKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<ForwardedKey>
    /// What the spec read here, while the type reads; `nil` while the spec reads.
    let place: KeysRead?
    /// Where the keys read here are noted: the spec's while it reads, the type's in a document
    /// newer than this build.
    let notes: KeyNotes?

    init(base: KeyedDecodingContainer<ForwardedKey>, place: KeysRead?, notes: KeyNotes?) {
        self.base = base
        self.place = place
        self.notes = notes
    }

    var codingPath: [any CodingKey] { base.codingPath }

    var allKeys: [Key] {
        // Listing keys is not reading them. A key whose value is all the spec's is not listed;
        // an object that holds the type's keys beside the spec's is.
        base.allKeys.compactMap { key in
            if let place, place.owns(key.stringValue, in: base) {
                return nil
            }
            return key.intValue.flatMap(Key.init(intValue:)) ?? Key(stringValue: key.stringValue)
        }
    }

    func contains(_ key: Key) -> Bool {
        // An object that holds only what the spec wrote is absent, as `decodeIfPresent`,
        // `decodeNil` and `allKeys` see it.
        place?.ownsObject(key.stringValue, in: base) != true && base.contains(ForwardedKey(key))
    }

    /// What `body` reads at `key`, noted, with the type's own key put back in an error.
    @inline(__always)
    private func read<T>(
        _ key: Key,
        noting isRead: (T) -> Bool = { _ in true },
        _ body: (KeyedDecodingContainer<ForwardedKey>, ForwardedKey) throws -> T
    ) throws -> T {
        do {
            let value = try body(base, ForwardedKey(key))
            // Noted once read: a type may try one kind of value, and fall back to another key.
            if let notes, isRead(value) {
                notes.note(key.stringValue)
            }
            return value
        } catch let error as DecodingError {
            if place == nil {
                noteIfMissing(key, error)
            }
            throw error.restoring(key, atDepth: base.codingPath.count)
        }
    }

    /// What `body` reads at `key` with `decodeIfPresent`: `nil` where the value is an object that
    /// holds only what the spec wrote, as `contains`, `decodeNil` and `allKeys` see it.
    @inline(__always)
    private func readIfPresent<T>(
        _ key: Key,
        _ body: (KeyedDecodingContainer<ForwardedKey>, ForwardedKey) throws -> T?
    ) throws -> T? {
        if let place, !place.objects.isEmpty, place.ownsObject(key.stringValue, in: base) {
            notes?.note(key.stringValue)
            return nil
        }
        return try read(key, body)
    }

    /// Notes that the spec asked for a key that is missing or `null`: a document without it has
    /// no version.
    @inline(never)
    private func noteIfMissing(_ key: Key, _ error: DecodingError) {
        let forwarded = ForwardedKey(key)
        switch error {
        case .keyNotFound where !base.contains(forwarded): notes?.metMissingKey = true
        case .valueNotFound where (try? base.decodeNil(forKey: forwarded)) == true: notes?.metMissingKey = true
        default: break
        }
    }

    // Every overload is forwarded by hand, each to the real container's overload of the same
    // type, rather than all through the generic `decode(_:forKey:)`: the real container's typed
    // overloads are its fast paths (no generic dispatch, no boxing of the value), and a generic
    // fallback would cost every field of every versioned decode.
    func decodeNil(forKey key: Key) throws -> Bool {
        // An object that holds only what the spec wrote is `nil`, as `decodeIfPresent` reads it.
        if place?.ownsObject(key.stringValue, in: base) == true {
            notes?.note(key.stringValue)
            return true
        }
        // Only a `null` is read by asking: any other value is read by decoding it.
        return try read(key, noting: { $0 }) { try $0.decodeNil(forKey: $1) }
    }
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
        // Nested values (versioned parts among them) recurse through this frame, so the common
        // case reads the real container itself, and a place below is decided out of line. It
        // does not go through `read`: a debug build calls that and its closure as frames of their
        // own, and a tree of parts at the nesting limit then overflows a 512 KB stack.
        if let place, place.objects.isEmpty {
            do {
                let value = try base.decode(type, forKey: ForwardedKey(key))
                notes?.note(key.stringValue)
                return value
            } catch let error as DecodingError {
                throw error.restoring(key, atDepth: base.codingPath.count)
            }
        }
        return try decodeRouted(type, forKey: key)
    }

    @inline(never)
    private func decodeRouted<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let place else {
            // The spec follows every object it reads, so that its keys there are noted.
            let forwarded = ForwardedKey(key)
            let present = { self.base.contains(forwarded) && (try? self.base.decodeNil(forKey: forwarded)) == false }
            guard case .follow = Route(T.self, hasPlace: present), let notes else {
                return try read(key) { try $0.decode(type, forKey: $1) }
            }
            let decoder = try read(key) { try $0.superDecoder(forKey: $1) }
            return try T(from: PlaceDecoder(base: decoder, specKeys: notes.object(at: key.stringValue)))
        }
        guard let below = place.child(key.stringValue), Route(T.self, hasPlace: { true }) != .pass else {
            return try read(key) { try $0.decode(type, forKey: $1) }
        }
        return try read(key) { try decode(type, below: below, at: $1, ifPresent: false)! }
    }

    // The real container's own `decodeIfPresent` is forwarded rather than the protocol's
    // default, because a decoder may treat a missing key and `null` in its own way.
    func decodeIfPresent(_ t: Bool.Type, forKey k: Key) throws -> Bool? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: String.Type, forKey k: Key) throws -> String? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Double.Type, forKey k: Key) throws -> Double? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Float.Type, forKey k: Key) throws -> Float? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int.Type, forKey k: Key) throws -> Int? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int8.Type, forKey k: Key) throws -> Int8? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int16.Type, forKey k: Key) throws -> Int16? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int32.Type, forKey k: Key) throws -> Int32? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: Int64.Type, forKey k: Key) throws -> Int64? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt.Type, forKey k: Key) throws -> UInt? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt8.Type, forKey k: Key) throws -> UInt8? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt16.Type, forKey k: Key) throws -> UInt16? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt32.Type, forKey k: Key) throws -> UInt32? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent(_ t: UInt64.Type, forKey k: Key) throws -> UInt64? {
        try readIfPresent(k) { try $0.decodeIfPresent(t, forKey: $1) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        // As in `decode`, the common case reads the real container itself.
        if let place, place.objects.isEmpty {
            do {
                let value = try base.decodeIfPresent(type, forKey: ForwardedKey(key))
                notes?.note(key.stringValue)
                return value
            } catch let error as DecodingError {
                throw error.restoring(key, atDepth: base.codingPath.count)
            }
        }
        return try decodeIfPresentRouted(type, forKey: key)
    }

    @inline(never)
    private func decodeIfPresentRouted<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let place else {
            // While the spec reads, a missing key or `null` is no value, and anything else is
            // read as `decode` reads it, objects followed.
            guard base.contains(ForwardedKey(key)), try !read(key, { try $0.decodeNil(forKey: $1) }) else {
                return nil
            }
            return try decodeRouted(type, forKey: key)
        }
        guard let below = place.child(key.stringValue), Route(T.self, hasPlace: { true }) != .pass else {
            return try readIfPresent(key) { try $0.decodeIfPresent(type, forKey: $1) }
        }
        return try read(key) { try decode(type, below: below, at: $1, ifPresent: true) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        // A type that opens the spec's object by hand and lists its keys does not see the spec's.
        guard let (place, notes) = below(key.stringValue) else {
            return try read(key) { try $0.nestedContainer(keyedBy: type, forKey: $1) }
        }
        let object = try read(key) { try $0.nestedContainer(keyedBy: ForwardedKey.self, forKey: $1) }
        return KeyedDecodingContainer(PlaceKeyedDecodingContainer<NestedKey>(base: object, place: place, notes: notes))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try read(key) { try $0.nestedUnkeyedContainer(forKey: $1) }
    }

    func superDecoder() throws -> any Decoder {
        // Foundation's coders read a key-less super decoder under "super".
        placed(try base.superDecoder(), at: "super")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        placed(try read(key) { try $0.superDecoder(forKey: $1) }, at: key.stringValue)
    }

    /// A `T` at `key`, where the spec read the object `below`: a missing key or `null` is the
    /// container's to answer, as in a plain decode, and an object that holds nothing but what the
    /// spec wrote is nothing (`{"_metadata": {"version": 2}}`, written for a `nil` object).
    private func decode<T: Decodable>(
        _ type: T.Type,
        below: KeysRead,
        at key: ForwardedKey,
        ifPresent: Bool
    ) throws -> T? {
        guard base.contains(key), try !base.decodeNil(forKey: key) else {
            return ifPresent ? nil : try base.decode(type, forKey: key)
        }
        if ifPresent || nilValue(of: T.self) != nil, let place, place.owns(key.stringValue, in: base) {
            return ifPresent ? nil : nilValue(of: T.self)
        }
        return try decodeObject(
            type,
            below,
            from: base.superDecoder(forKey: key),
            notes: notes?.object(at: key.stringValue)
        )
    }

    /// `decoder`, standing at `key`, through the place below it if there is one.
    private func placed(_ decoder: any Decoder, at key: String) -> any Decoder {
        notes?.note(key)
        guard let (place, notes) = below(key) else {
            return decoder
        }
        return place.map { PlaceDecoder(base: decoder, place: $0, typeKeys: notes) }
            ?? PlaceDecoder(base: decoder, specKeys: notes)
    }

    /// The place of the object at `key`, while the type reads, if the spec read one there, with
    /// where the type's keys there are noted; while the spec reads, where it notes its keys there.
    private func below(_ key: String) -> (place: KeysRead?, notes: KeyNotes?)? {
        guard let place else {
            return notes.map { (nil, $0.object(at: key)) }
        }
        return place.child(key).map { ($0, notes?.object(at: key)) }
    }
}

/// Decodes a `T` from `decoder`, which stands at an object where the spec reads: a dictionary
/// without what the spec read, anything else through a ``PlaceDecoder``. In a document newer than
/// this build, the keys read are noted in `notes`.
func decodeObject<T: Decodable>(
    _ type: T.Type,
    _ place: KeysRead,
    from decoder: any Decoder,
    notes: KeyNotes? = nil
) throws -> T {
    if let dictionary = T.self as? any DictionaryReadAtPlace.Type {
        let value = try dictionary.decode(from: decoder, leavingOut: place) as! T
        notes?.readAll = true
        return value
    }
    return try T(from: PlaceDecoder(base: decoder, place: place, typeKeys: notes))
}

// MARK: - What was read at a place

/// The keys a spec read at one object of a document, and the objects below it where it read:
/// what the type reading the same object does not see there.
///
/// Made once the spec is done reading, from its ``KeyNotes``, or the default spec's constants
/// (see ``VersionKeyAtRootVersionPathSpec``), and never changed after, so tasks share those.
final class KeysRead: Sendable {
    let keys: [String]
    /// Keys beside the values read that name the older builds that may read the document: not
    /// read, but the spec's all the same.
    let declarations: [String]
    let objects: [(key: String, keys: KeysRead)]

    init(_ keys: [String], declarations: [String] = [], objects: [(key: String, keys: KeysRead)] = []) {
        self.keys = keys
        self.declarations = declarations
        self.objects = objects
    }

    func child(_ key: String) -> KeysRead? {
        objects.first { $0.key == key }?.keys
    }

    /// Whether `key` was read here.
    func owns(_ key: String) -> Bool {
        keys.contains(key) || declarations.contains(key)
    }

    /// Whether the value at `key` of `object`, the object in a document where these keys were
    /// read, is all the spec's: a single value read here, or an object read into that holds
    /// nothing else (what a `nil` of the type's there is written as). An object that holds the
    /// type's own keys beside the spec's (`_metadata` with `createdBy`) is the type's too.
    func owns(_ key: String, in object: KeyedDecodingContainer<ForwardedKey>) -> Bool {
        guard let below = child(key) else {
            return owns(key)
        }
        return below.holdsOnlyOwnKeys(at: key, in: object)
    }

    /// Whether the value at `key` of `object` is an object these keys read into that holds nothing
    /// else: the type's `nil` there, absent to whatever the type asks.
    func ownsObject(_ key: String, in object: KeyedDecodingContainer<ForwardedKey>) -> Bool {
        child(key)?.holdsOnlyOwnKeys(at: key, in: object) == true
    }

    /// Whether the object at `key` of `object`, where these keys were read, holds only them.
    private func holdsOnlyOwnKeys(at key: String, in object: KeyedDecodingContainer<ForwardedKey>) -> Bool {
        let forwarded = ForwardedKey(stringValue: key)
        guard let inner = try? object.nestedContainer(keyedBy: ForwardedKey.self, forKey: forwarded) else {
            return false
        }
        return inner.allKeys.allSatisfy { owns($0.stringValue, in: inner) }
    }
}

/// The keys read at one object of a document, and at the objects below it, while they are
/// read: by a spec, or, in a document newer than this build, by the type, whose unread keys are
/// kept.
///
/// Made for one decode, filled while its reader reads, and ended with it.
final class KeyNotes {
    /// The keys read here, in the order first read, and the notes of the objects read below
    /// them: one stored value, so that noting a key is one checked access.
    private var noted: Noted = ([], [])
    private typealias Noted = (keys: [String], objects: [(key: String, notes: KeyNotes)])
    /// Whether the reader asked for a key that is missing or `null` here.
    var metMissingKey = false
    /// Whether the reader read every key at once (a dictionary).
    var readAll = false
    /// Whether the spec read a single value or an array here, through a super decoder at the key
    /// above: the key's value, not an object.
    var readValue = false

    init(capacity: Int = 0) {
        noted.keys.reserveCapacity(capacity)
    }

    var keys: [String] { noted.keys }

    func note(_ key: String) {
        Self.note(key, in: &noted)
    }

    private static func note(_ key: String, in noted: inout Noted) {
        if !noted.keys.contains(key) {
            noted.keys.append(key)
        }
    }

    /// The notes of the object below `key`, made if the reader has not read one there yet.
    func object(at key: String) -> KeyNotes {
        Self.object(at: key, in: &noted)
    }

    private static func object(at key: String, in noted: inout Noted) -> KeyNotes {
        if let existing = child(key, of: noted) {
            return existing
        }
        let made = KeyNotes()
        noted.objects.append((key, made))
        note(key, in: &noted)
        return made
    }

    /// The notes of the object below `key`, if the reader read one there.
    func child(_ key: String) -> KeyNotes? {
        Self.child(key, of: noted)
    }

    private static func child(_ key: String, of noted: Noted) -> KeyNotes? {
        noted.objects.first { $0.key == key }?.notes
    }

    /// The notes of the object below `key`, where the reader read an object there rather than a
    /// value through a super decoder.
    private static func objectRead(_ key: String, of noted: Noted) -> KeyNotes? {
        child(key, of: noted).flatMap { $0.readValue ? nil : $0 }
    }

    /// Whether the reader met a missing key or `null` here or below.
    var metMissingKeyAnywhere: Bool {
        metMissingKey || noted.objects.contains { $0.notes.metMissingKeyAnywhere }
    }

    /// What was read, as the spec's place: `made`, the place of an earlier document of the same
    /// type, where it is the same (so that a decode allocates none), or a new one.
    func read(namingOlderBuilds: Bool, as made: KeysRead) -> KeysRead {
        isRead(as: made, namingOlderBuilds: namingOlderBuilds) ? made : read(namingOlderBuilds: namingOlderBuilds)
    }

    /// Whether `place` is what ``read(namingOlderBuilds:)`` makes of these notes.
    private func isRead(as place: KeysRead, namingOlderBuilds: Bool) -> Bool {
        let noted = noted
        guard noted.keys == place.keys else {
            return false
        }
        var singleValues = 0
        for key in noted.keys {
            if let child = Self.objectRead(key, of: noted) {
                guard let other = place.child(key), child.isRead(as: other, namingOlderBuilds: namingOlderBuilds) else {
                    return false
                }
            } else {
                singleValues += 1
            }
        }
        // The keys that name older builds follow from the keys read.
        return place.objects.count == noted.keys.count - singleValues
            && place.declarations.count == (namingOlderBuilds ? 2 * singleValues : 0)
    }

    /// What was read, as the spec's place. In a document that may name the older builds that
    /// may read and write it, the keys beside each single value read that would name them, if
    /// the value is its version, are the spec's too.
    func read(namingOlderBuilds: Bool) -> KeysRead {
        var declarations: [String] = []
        var below: [(key: String, keys: KeysRead)] = []
        let noted = noted
        for key in noted.keys {
            if let child = Self.objectRead(key, of: noted) {
                below.append((key, child.read(namingOlderBuilds: namingOlderBuilds)))
            } else if namingOlderBuilds {
                let declaration = declarationKeys(besideVersionKey: key)
                declarations += [declaration.readable, declaration.writable]
            }
        }
        return KeysRead(noted.keys, declarations: declarations, objects: below)
    }
}
