/// What a value wrote along the version's path while it was encoded, and whether the version
/// has been written.
///
/// The observer is also the encoder the value writes its root into, so that watching a value
/// costs one allocation; deeper positions on the path get an ``ObservingEncoder``.
final class VersionPathObserver: Encoder {
    enum Finding: Equatable {
        /// Nothing in the way: the version can be merged in.
        case clear
        /// The value wrote something at the version's exact path.
        case clash
        /// The value wrote something other than a keyed object at `path[..<depth]`.
        case notAnObject(depth: Int)
    }

    let path: [String]
    let version: Int?
    /// The real encoder at the root of the versioned value.
    let base: any Encoder
    private(set) var finding = Finding.clear
    /// Set once the version has been merged into an object the value wrote on the path.
    var versionWritten = false

    init(path: [String], version: Int?, base: any Encoder) {
        self.path = path
        self.version = version
        self.base = base
    }

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        container(of: base, atDepth: 0, keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        unkeyedContainer(of: base, atDepth: 0)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        singleValueContainer(of: base, atDepth: 0)
    }

    func container<Key: CodingKey>(
        of encoder: any Encoder,
        atDepth depth: Int,
        keyedBy type: Key.Type
    ) -> KeyedEncodingContainer<Key> {
        if depth >= path.count {
            note(.clash)
            return encoder.container(keyedBy: type)
        }
        return KeyedEncodingContainer(
            ObservingKeyedContainer(base: encoder.container(keyedBy: type), observer: self, depth: depth)
        )
    }

    func unkeyedContainer(of encoder: any Encoder, atDepth depth: Int) -> any UnkeyedEncodingContainer {
        wroteNonObject(atDepth: depth)
        return encoder.unkeyedContainer()
    }

    func singleValueContainer(of encoder: any Encoder, atDepth depth: Int) -> any SingleValueEncodingContainer {
        ObservingSingleValueContainer(base: encoder.singleValueContainer(), observer: self, depth: depth)
    }

    func note(_ finding: Finding) {
        if self.finding == .clear {
            self.finding = finding
        }
    }

    /// Something that is not a keyed object was written at `path[..<depth]`.
    func wroteNonObject(atDepth depth: Int) {
        note(depth >= path.count ? .clash : .notAnObject(depth: depth))
    }

    /// Writes the rest of the path, from `path[depth]` on, and the version into `encoder`,
    /// which stands at `path[..<depth]`.
    func writeVersion(into encoder: any Encoder, atDepth depth: Int) throws {
        var container = encoder.container(keyedBy: PathKey.self)
        for key in path[depth..<(path.count - 1)] {
            container = container.nestedContainer(keyedBy: PathKey.self, forKey: PathKey(key))
        }
        try container.encodeIfPresent(version, forKey: PathKey(path[path.count - 1]))
        versionWritten = true
    }

    func throwIfBlocked() throws {
        switch finding {
        case .clear:
            return
        case .clash:
            throw VersionedEncodingError.typeHasClashingVersionField
        case .notAnObject(let depth):
            throw VersionedEncodingError.versionLocationNotAnObject(codingPath: Array(path[..<depth]))
        }
    }
}

/// A value that the type writes on the version's path, wrapped so that the version is merged
/// into it while its encoder is still open.
///
/// Merging there, rather than by opening the same object again from the root afterwards, is
/// what lets coders that build each object when its encoder is released (Yams, XMLCoder) keep
/// both the type's fields and the version.
struct MergingVersion<Value: Encodable>: Encodable {
    let value: Value
    let observer: VersionPathObserver
    /// The value stands at `path[..<depth]`.
    let depth: Int

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: ObservingEncoder(base: encoder, observer: observer, depth: depth))
        if observer.finding == .clear, !observer.versionWritten {
            try observer.writeVersion(into: encoder, atDepth: depth)
        }
    }
}

/// Passes everything through to the real encoder and tells a ``VersionPathObserver`` what is
/// written along the version's path.
///
/// Only the containers on that path are wrapped; every other value goes straight to the real
/// encoder, so the output is exactly what the type writes without versioning.
struct ObservingEncoder: Encoder {
    let base: any Encoder
    let observer: VersionPathObserver
    /// How many keys of the version's path lead to this encoder's position.
    let depth: Int

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        observer.container(of: base, atDepth: depth, keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        observer.unkeyedContainer(of: base, atDepth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        observer.singleValueContainer(of: base, atDepth: depth)
    }
}

struct ObservingSingleValueContainer: SingleValueEncodingContainer {
    var base: any SingleValueEncodingContainer
    let observer: VersionPathObserver
    let depth: Int
    var codingPath: [any CodingKey] { base.codingPath }

    private func wroteLeaf() {
        observer.wroteNonObject(atDepth: depth)
    }

    mutating func encodeNil() throws {
        wroteLeaf()
        try base.encodeNil()
    }
    mutating func encode(_ value: Bool) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: String) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: Double) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: Float) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: Int) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: Int8) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: Int16) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: Int32) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: Int64) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt8) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt16) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt32) throws {
        wroteLeaf()
        try base.encode(value)
    }
    mutating func encode(_ value: UInt64) throws {
        wroteLeaf()
        try base.encode(value)
    }

    /// A type that encodes itself through another value (a wrapper that forwards to a nested
    /// struct) is followed, since what the inner value writes stands at this position.
    mutating func encode<T: Encodable>(_ value: T) throws {
        guard depth < observer.path.count else {
            observer.note(.clash)
            return try base.encode(value)
        }
        try base.encode(MergingVersion(value: value, observer: observer, depth: depth))
    }
}

struct ObservingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    let observer: VersionPathObserver
    /// This container stands at `path[..<depth]`; `path[depth]` is the key to watch.
    let depth: Int
    /// `path[depth]`, kept here because every field written is compared with it.
    private let watchedKey: String

    init(base: KeyedEncodingContainer<Key>, observer: VersionPathObserver, depth: Int) {
        self.base = base
        self.observer = observer
        self.depth = depth
        self.watchedKey = observer.path[depth]
    }

    var codingPath: [any CodingKey] { base.codingPath }

    @inline(__always)
    private func isOnPath(_ key: Key) -> Bool {
        key.stringValue == watchedKey
    }

    /// A single value written at `key`.
    @inline(__always)
    private func wroteLeaf(at key: Key) {
        if isOnPath(key) {
            observer.wroteNonObject(atDepth: depth + 1)
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encodeNil(forKey: key)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        wroteLeaf(at: key)
        try base.encode(value, forKey: key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard isOnPath(key) else {
            return try base.encode(value, forKey: key)
        }
        guard depth + 1 < observer.path.count else {
            observer.note(.clash)
            return try base.encode(value, forKey: key)
        }
        try base.encode(MergingVersion(value: value, observer: observer, depth: depth + 1), forKey: key)
    }

    // `encodeIfPresent` writes nothing for `nil`, so a `nil` optional at the version's path is
    // not a clash; the real container keeps its own handling of optionals.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if value != nil { wroteLeaf(at: key) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value, isOnPath(key) else {
            return try base.encodeIfPresent(value, forKey: key)
        }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = base.nestedContainer(keyedBy: keyType, forKey: key)
        guard isOnPath(key) else {
            return nested
        }
        guard depth + 1 < observer.path.count else {
            observer.note(.clash)
            return nested
        }
        let observed = ObservingKeyedContainer<NestedKey>(base: nested, observer: observer, depth: depth + 1)
        return KeyedEncodingContainer(observed)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if isOnPath(key) {
            observer.wroteNonObject(atDepth: depth + 1)
        }
        return base.nestedUnkeyedContainer(forKey: key)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = base.superEncoder()
        guard watchedKey == "super" else {
            return encoder
        }
        return ObservingEncoder(base: encoder, observer: observer, depth: depth + 1)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = base.superEncoder(forKey: key)
        guard isOnPath(key) else {
            return encoder
        }
        return ObservingEncoder(base: encoder, observer: observer, depth: depth + 1)
    }
}
