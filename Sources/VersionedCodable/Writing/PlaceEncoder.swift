// Writing an object where the spec writes (the root, or `_metadata` under a `_metadata.version`
// spec). What the spec writes there is the library's: an integer (or nothing) that the type
// writes where the version goes mirrors it, and anything else the type writes under a key the
// spec writes would be lost, and is refused. Which values are followed into an object below is
// ``Route``'s to say.

/// The encoder of an object below the root where the spec writes, or of a value the type
/// forwards its encoding to; also its own single-value container.
///
/// A value written as a single value stands at the same object, so it is followed (a type that
/// forwards its encoding to a nested struct); a single value there cannot hold what the spec
/// writes, and is refused.
struct PlaceEncoder: Encoder, SingleValueEncodingContainer {
    let base: any Encoder
    let place: SpecWritten
    let writer: SpecWriter

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    /// The keyed container at the place, watched. Every key is checked as it is written: what a
    /// key type's `init?(stringValue:)` accepts says nothing about the keys it writes (a struct's
    /// static members need not be among them).
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let container = base.container(keyedBy: ForwardedKey.self)
        return KeyedEncodingContainer(PlaceEncodingContainer<Key>(base: container, place: place, writer: writer))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if writer.needsObject(at: place) {
            writer.note(.notAnObject(path: place.path))
        }
        return base.unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws {
        // A `null` below the root (an optional parent that is `nil`) gives way to the spec's
        // object; at the root of a versioned value it leaves nowhere to put the version.
        if place.path.isEmpty {
            throw writer.refuse(.notAnObject(path: place.path))
        }
        if !writer.needsObject(at: place) {
            var container = base.singleValueContainer()
            try container.encodeNil()
        }
    }

    func encode<T: Encodable>(_ value: T) throws {
        // A single value is refused by `following`, which sends it nowhere (see ``Route``).
        var container = base.singleValueContainer()
        try container.encode(try writer.following(value, at: place))
    }
}

/// What is written where the spec writes an object, with the spec's part merged in.
enum MergedValue: Encodable {
    /// A value the type writes there: its encoding is watched, and the spec's part is merged in
    /// while its encoder is still open.
    ///
    /// Merging there, rather than by opening the same object again from its parent afterwards,
    /// is what lets coders that build each object when its encoder is released (Yams,
    /// XMLCoder) keep both the type's fields and the spec's.
    case following(any Encodable, SpecWritten, SpecWriter)
    /// A value of a dictionary with string keys, written as it is (see ``DictionaryAtPlace``).
    case value(any Encodable)
    /// An entry of such a dictionary where the spec writes an object, made ready by
    /// ``SpecWriter/following(_:at:)``: read back as the entry only if it holds something of its
    /// own.
    case entry(any Encodable, SpecWritten, SpecWriter)
    /// An object the spec writes where such a dictionary has no entry.
    case object(SpecWritten, SpecWriter)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .following(let value, let place, let writer):
            try value.encode(to: PlaceEncoder(base: encoder, place: place, writer: writer))
            try writer.finish(place, into: encoder)
        case .value(let value):
            // Through a single-value container, so that the coder applies its strategies for
            // dates, data and the like, as it does to a dictionary's own values.
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .entry(let value, let place, let writer):
            var container = encoder.singleValueContainer()
            try container.encode(value)
            try writer.checkHoldsOwnKeys(place)
        case .object(let place, let writer):
            writer.markMerged(place)
            var container = encoder.container(keyedBy: ForwardedKey.self)
            try writer.write(place, into: &container)
        }
    }
}

/// The keyed container of an object where the spec writes: each key the type writes is looked
/// up among the keys the spec writes there.
///
/// A single value at the version's key that is an integer (or nothing) mirrors the version:
/// it is left out, and the version is written in its place. Any other value at a key the spec
/// writes would be lost, and is refused; so is any entry there of a Swift dictionary the type
/// hands its encoder to, where nothing mirrors the version. An object at a key where the
/// spec writes an object is followed, so that the spec's part is merged into it.
///
/// The object is opened with the library's key type, and the type's keys are written through
/// it as they are (string and integer value), so that the spec's part is written into this
/// same container when the type is done with it: opening the object a second time would merge
/// with Foundation's coders but replace it with those that build each object when its encoder is
/// released (Yams).
struct PlaceEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<ForwardedKey>
    let place: SpecWritten
    let writer: SpecWriter
    /// Whether the values are a Swift dictionary's entries rather than the type's fields: asked
    /// only of a value under a key the spec writes.
    private var writesEntries: Bool { writesDictionaryEntries(Key.self) }

    /// Whether every key needs a look (under a key strategy, beside kept fields or older builds'
    /// versions, or where the `nil` version's place is not written), rather than only those the
    /// spec writes.
    private let watchesEveryKey: Bool
    /// Whether the keys of the type's own are noted: below the root, where an object that holds
    /// none would read back as the spec's alone. Kept here so that the root's keys, the common
    /// case, skip the call.
    private let notesOwnKeys: Bool

    @inline(__always)
    init(base: KeyedEncodingContainer<ForwardedKey>, place: SpecWritten, writer: SpecWriter) {
        self.base = base
        self.place = place
        self.writer = writer
        notesOwnKeys = !place.path.isEmpty
        watchesEveryKey =
            !writer.unknownFields.isEmpty || writer.olderBuilds != nil || writer.keyStrategy != nil
            || writer.watchesVersionPaths
    }

    /// Whether anything is written at `key` besides what the type writes: the first question
    /// for every key the type writes here, which most keys answer with no.
    @inline(__always)
    private func isWatched(_ key: String) -> Bool {
        watchesEveryKey || place.keys.contains(key) || mayNameOlderBuilds(key)
    }

    var codingPath: [any CodingKey] { base.codingPath }

    /// Notes that the type writes `key` here, where the writer compares its keys later (under a
    /// key strategy, beside kept fields), and returns what the spec writes there: asked once for
    /// each watched key the type writes. A `nil` that `encodeIfPresent` writes as nothing
    /// (`writes` false) is asked, but not noted.
    private func noteWritten(_ key: String, intValue: Int?, isEntry: Bool, writes: Bool = true) -> SpecWritten.Entry? {
        if writes, writer.keyStrategy != nil || !writer.unknownFields.isEmpty {
            writer.noteWritten(key, intValue: intValue, at: place, isEntry: isEntry)
        }
        let role = writer.role(of: key, at: place)
        if role == nil, writer.isUndeclaredDeclarationKey(key, at: place) {
            writer.note(isEntry ? .entry(path: place.path + [key]) : .clash(path: place.path + [key], atVersion: false))
        }
        return role
    }

    /// Whether `value`, a single value written at `key`, goes to the real encoder: for a `nil`
    /// (`isNil`), whether the type wrote nothing the spec's part would change on reading back.
    private func passes<T>(_ value: T, at key: Key, isNil: Bool = false, writes: Bool = true) throws -> Bool {
        guard isWatched(key.stringValue) else {
            if !isNil { noteOwnKey() }
            return true
        }
        guard let role = noteWritten(key.stringValue, intValue: key.intValue, isEntry: writesEntries, writes: writes)
        else {
            if !isNil {
                noteReadFirst(value, key)
                noteOwnKey()
            }
            return true
        }
        return try passes(value, at: key, where: role, isNil: isNil, optional: !writes)
    }

    /// Notes `value`, written at `key` where the spec writes nothing, where a newer type's chain
    /// reads first (see ``SpecWriter/checkReadFirst()``).
    @inline(__always)
    private func noteReadFirst<T>(_ value: T, _ key: Key) {
        writer.noteReadFirst(value, at: key.stringValue, in: place, isEntry: writesEntries)
    }

    /// Whether `value` goes to the real encoder, where the spec writes `role` at `key`; `optional`
    /// says that it is the value of an optional property (written with `encodeIfPresent`).
    private func passes<T>(
        _ value: T,
        at key: Key,
        where role: SpecWritten.Entry,
        isNil: Bool,
        optional: Bool = false
    ) throws -> Bool {
        switch role {
        case .value(let spec):
            let path = place.path + [key.stringValue]
            if writesEntries {
                throw writer.refuse(.entry(path: path))
            }
            // A `null` the spec writes holds nothing: the type's value is written in its place,
            // and the type's `nil` is that `null`.
            if writer.givesWay(spec, at: path) {
                if isNil {
                    return false
                }
                writer.giveWay(at: path)
                return true
            }
            // An integer where the version goes mirrors it, if its type can hold it, and so does
            // an integer property's `nil`; where the `nil` version goes, which holds nothing, so
            // does any `nil`. Anything else is refused, a copy of what the spec writes too: it
            // would be read back by its key, but not listed among the object's keys, so a type
            // that writes and reads its keys one by one (a map of its own) would lose it.
            let atVersion = writer.isVersion(path)
            if atVersion, fits(writer.version, in: T.self, optional: optional) || isNil && writer.version == nil {
                try writeNilVersion(at: key, path, optional: optional)
                return false
            }
            throw writer.refuse(.clash(path: path, atVersion: atVersion))
        case .object(let child):
            guard writer.needsObject(at: child) else {
                return true
            }
            // A `null` where the spec writes an object (an optional parent written with `encode`)
            // holds nothing: the spec's object takes its place.
            if isNil {
                return false
            }
            throw writer.refuse(.notAnObject(path: child.path))
        }
    }

    /// Writes the `null` that a plain encode writes for an optional property's `nil`, where the
    /// property mirrors the `nil` version, which the spec writes as nothing: unless the type
    /// writes it only when present (`optional`).
    private func writeNilVersion(at key: Key, _ path: [String], optional: Bool) throws {
        // The default spec's place for the version, or one where a custom spec writes nothing.
        let specWritesNothing = place.keys.firstIndex(of: key.stringValue).map { $0 == place.versionIndex } ?? true
        if writer.version == nil, !optional, specWritesNothing, writer.isVersion(path) {
            var container = base
            try container.encodeNil(forKey: ForwardedKey(key))
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        if try passes(Int?.none, at: key, isNil: true) {
            noteOwnKey()
            try base.encodeNil(forKey: ForwardedKey(key))
        }
    }

    @inline(__always)
    private func noteOwnKey() {
        if notesOwnKeys { writer.noteOwnKey(at: place) }
    }

    // The coder's typed methods are its fast path: its generic method would find the type again.
    @inline(__always)
    private func pass<T>(_ value: T, _ key: Key) throws -> ForwardedKey? {
        let forwarded = ForwardedKey(key)
        guard isWatched(forwarded.stringValue) else {
            noteOwnKey()
            return forwarded
        }
        return try passes(value, at: key) ? forwarded : nil
    }
    mutating func encode(_ v: Bool, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: String, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: Double, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: Float, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: Int, forKey k: Key) throws { if let k = try pass(v, k) { try base.encode(v, forKey: k) } }
    mutating func encode(_ v: Int8, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: Int16, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: Int32, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: Int64, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: UInt, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: UInt8, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: UInt16, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: UInt32, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }
    mutating func encode(_ v: UInt64, forKey k: Key) throws {
        if let k = try pass(v, k) { try base.encode(v, forKey: k) }
    }

    // A `nil` written with `encodeIfPresent` writes nothing, but tells the property's type: a
    // property that is not an integer where the version goes would not read the version back,
    // so it is a clash even while it is `nil`; and a `nil` where the spec writes another value
    // would read back as the spec's value. Both are decided as for any value (see `passes`).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        // A key the spec does not write goes straight on: an optional part of a tree of parts
        // takes this path on every level, whose stack the nesting limit counts.
        if isWatched(key.stringValue) {
            return try encodeOptional(value, key)
        }
        if let value {
            noteOwnKey()
            try base.encode(value, forKey: ForwardedKey(key))
        }
    }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value {
            return try encode(value, forKey: key, isOptional: true)
        }
        _ = try passes(value, at: key, isNil: true, writes: false)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encode(value, forKey: key, isOptional: false)
    }

    private mutating func encode<T: Encodable>(_ value: T, forKey key: Key, isOptional: Bool) throws {
        guard isWatched(key.stringValue) else {
            noteOwnKey()
            return try base.encode(value, forKey: ForwardedKey(key))
        }
        guard let role = noteWritten(key.stringValue, intValue: key.intValue, isEntry: writesEntries) else {
            noteReadFirst(value, key)
            noteOwnKey()
            return try base.encode(value, forKey: ForwardedKey(key))
        }
        guard case .object(let child) = role else {
            if try passes(value, at: key, where: role, isNil: false, optional: isOptional) {
                try base.encode(value, forKey: ForwardedKey(key))
            }
            return
        }
        let optional = value as? any NilRepresentable
        if let optional, optional.isNil {
            if !writer.needsObject(at: child) {
                try base.encodeNil(forKey: ForwardedKey(key))
            }
            return
        }
        try writer.reopening(child)
        writer.giveWayToObject(at: child)
        try base.encode(try writer.following(value, at: child), forKey: ForwardedKey(key))
        // An optional's value or a dictionary's entry is read back as the type's only where it
        // holds something of its own; a field that is not optional is read whatever it holds.
        if isOptional || optional != nil || writesEntries {
            try writer.checkHoldsOwnKeys(child)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        guard let child = objectOpened(at: key.stringValue, intValue: key.intValue) else {
            return base.nestedContainer(keyedBy: keyType, forKey: ForwardedKey(key))
        }
        let shared = base.nestedContainer(keyedBy: ForwardedKey.self, forKey: ForwardedKey(key))
        writer.hold(child) { shared }
        return KeyedEncodingContainer(PlaceEncodingContainer<NestedKey>(base: shared, place: child, writer: writer))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if let child = objectOpened(at: key.stringValue, intValue: key.intValue), writer.needsObject(at: child) {
            writer.note(.notAnObject(path: child.path))
        }
        return base.nestedUnkeyedContainer(forKey: ForwardedKey(key))
    }

    // Foundation's coders write a key-less super encoder under "super".
    mutating func superEncoder() -> any Encoder {
        placed(base.superEncoder(), at: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        placed(base.superEncoder(forKey: ForwardedKey(key)), at: key.stringValue, intValue: key.intValue)
    }

    private func placed(_ encoder: any Encoder, at key: String, intValue: Int? = nil) -> any Encoder {
        guard let child = objectOpened(at: key, intValue: intValue) else {
            if writer.isReadFirst(key, in: place) {
                writer.note(.clash(path: place.path + [key], atVersion: false))
            }
            return encoder
        }
        // The spec's part is written into the object later, where it writes one: reopened as
        // keyed, which a coder allows only where the type wrote no single value through it.
        if writer.needsObject(at: child) {
            writer.hold(child) { encoder.container(keyedBy: ForwardedKey.self) }
        }
        return PlaceEncoder(base: encoder, place: child, writer: writer)
    }

    /// The spec's object at `key`, where the type opens a container or encoder there. A value
    /// the spec writes there is a clash, unless it is a `null` that gives way, since what is
    /// written through the container is not seen here.
    private func objectOpened(at key: String, intValue: Int? = nil) -> SpecWritten? {
        let path = place.path + [key]
        switch noteWritten(key, intValue: intValue, isEntry: false) {
        case .value(let spec)?:
            if writer.givesWay(spec, at: path) {
                writer.giveWay(at: path)
            } else {
                writer.note(.clash(path: path, atVersion: writer.isVersion(path)))
            }
            return nil
        case .object(let child)?:
            // A coder's error in writing the spec's part into the objects opened there before is
            // thrown again when the same part is written into the object opened now.
            try? writer.reopening(child)
            writer.giveWayToObject(at: child)
            return child
        case nil:
            // A `nil` version's document where a newer type's chain reads a version first
            // reads back only with nothing there (see ``SpecWriter/checkReadFirst()``).
            if writer.version == nil, writer.isReadFirst(key, in: place) {
                writer.note(.clash(path: path, atVersion: false))
            }
            noteOwnKey()
            return nil
        }
    }
}

/// Whether `type` is an integer (or an optional of one) that can hold `version`: the `nil`
/// version only where the property is optional (`optional`, or `type` an optional), as a
/// non-optional one would not read back.
private func fits(_ version: Int?, in type: Any.Type, optional: Bool) -> Bool {
    guard let integer = innermostWrappedType(of: type) as? any BinaryInteger.Type else {
        return false
    }
    guard let version else {
        return optional || type is any NilRepresentable.Type
    }
    return fits(version, in: integer)
}

private func fits<Integer: BinaryInteger>(_ version: Int, in type: Integer.Type) -> Bool {
    Integer(exactly: version) != nil
}
