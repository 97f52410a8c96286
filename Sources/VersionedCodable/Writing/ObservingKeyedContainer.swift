/// The keyed container of a place where the spec writes an object.
///
/// Each key the type writes is looked up among the spec's keys at this place: single values
/// there are checked (a mirror of the version is left out, anything else is a clash), and
/// objects there are followed so that the spec's part is merged into them.
struct ObservingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    let observer: SpecMergingObserver
    /// What the spec writes at this place.
    let object: SpecObject

    var codingPath: [any CodingKey] { base.codingPath }

    @inline(__always)
    private func node(_ key: Key) -> SpecNode? {
        object.entry(key.stringValue)
    }

    /// Whether a single value of `kind` written at `key` goes to the real encoder.
    @inline(__always)
    private func shouldWrite(_ kind: @autoclosure () -> WrittenKind, at key: Key) -> Bool {
        guard let node = node(key) else {
            return true
        }
        return observer.shouldWrite(kind(), at: node)
    }

    mutating func encodeNil(forKey key: Key) throws {
        if shouldWrite(.null, at: key) {
            try base.encodeNil(forKey: key)
        }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if shouldWrite(.value(.bool(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        if shouldWrite(.value(.string(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if shouldWrite(.value(.double(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if shouldWrite(.value(.float(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        if shouldWrite(.value(.int(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        if shouldWrite(.value(.int8(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        if shouldWrite(.value(.int16(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        if shouldWrite(.value(.int32(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        if shouldWrite(.value(.int64(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        if shouldWrite(.value(.uint(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        if shouldWrite(.value(.uint8(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        if shouldWrite(.value(.uint16(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        if shouldWrite(.value(.uint32(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        if shouldWrite(.value(.uint64(value)), at: key) {
            try base.encode(value, forKey: key)
        }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard let node = node(key) else {
            return try base.encode(value, forKey: key)
        }
        switch node {
        case .leaf(let leaf, let path):
            // Beside the version, the spec may write any value; the type's own copy of it is
            // compared whole.
            let kind = leaf.isVersion ? WrittenKind.of(value) : WrittenKind.recorded(value)
            if leaf.isVersion, case .null = kind, T.self is any NilRepresentable.Type,
                !(innermostWrappedType(of: T.self) is any BinaryInteger.Type)
            {
                // A `nil` of another type than an integer (`var version: String?` written with
                // `encode`): the version written in its place would not read back into it.
                observer.note(.clash(path: path, atVersion: true))
                return
            }
            if observer.shouldWrite(kind, at: node) {
                try base.encode(value, forKey: key)
            }
        case .object(let child):
            if let dictionary = value as? any StringKeyedDictionary {
                // Written unwrapped so that its keys stay as they are; the spec's part is
                // written into it from the root afterwards, or with it where the coder would
                // replace the dictionary with an object opened again.
                observer.check(dictionary, at: child)
                guard observer.isClear, !ReopenedObjects.areMerged(by: observer) else {
                    return try base.encode(value, forKey: key)
                }
                observer.markMerged(child)
                return try base.encode(dictionary.merging(child, by: observer), forKey: key)
            }
            try base.encode(MergingSpec(value: value, observer: observer, object: child), forKey: key)
        }
    }

    // A `nil` written with `encodeIfPresent` writes nothing, but tells the type of the
    // property: a property of another type than an integer where the spec keeps the version
    // would not read the version back, so it is a clash even while it is `nil`.
    private func checkAbsent<T>(_ type: T.Type, at key: Key) {
        guard case .leaf(let leaf, let path)? = node(key), leaf.isVersion else {
            return
        }
        if !(T.self is any BinaryInteger.Type) {
            observer.note(.clash(path: path, atVersion: true))
        }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(Bool.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(String.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(Double.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(Float.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(Int.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(Int8.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(Int16.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(Int32.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(Int64.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(UInt.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(UInt8.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(UInt16.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(UInt32.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(UInt64.self, at: key)
        }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else {
            return checkAbsent(T.self, at: key)
        }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        guard let node = node(key) else {
            return base.nestedContainer(keyedBy: keyType, forKey: key)
        }
        guard case .object(let child) = node else {
            _ = observer.shouldWrite(.other, at: node)
            return base.nestedContainer(keyedBy: keyType, forKey: key)
        }
        // The object is opened once, and the spec's part is written into that same container
        // when the value is done (see ``RetypedKeyedContainer``).
        let shared = base.nestedContainer(keyedBy: PathKey.self, forKey: key)
        observer.holdOpen(shared, for: child)
        let nested = KeyedEncodingContainer(RetypedKeyedContainer<NestedKey>(base: shared))
        guard KeyNaming.canName(child, with: NestedKey.self) else {
            return nested
        }
        return KeyedEncodingContainer(
            ObservingKeyedContainer<NestedKey>(base: nested, observer: observer, object: child)
        )
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if let node = node(key) {
            _ = observer.shouldWrite(.other, at: node)
        }
        return base.nestedUnkeyedContainer(forKey: key)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = base.superEncoder()
        return observing(encoder, at: object.entry("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = base.superEncoder(forKey: key)
        return observing(encoder, at: node(key))
    }

    private func observing(_ encoder: any Encoder, at node: SpecNode?) -> any Encoder {
        switch node {
        case nil:
            return encoder
        case .object(let child)?:
            // The spec's part is written through this same encoder when the value is done,
            // rather than by opening the object again from the root (see
            // ``RetypedKeyedContainer``).
            observer.holdOpen(encoder, for: child)
            return ObservingEncoder(base: encoder, observer: observer, object: child)
        case .leaf?:
            // What a value writes through a super encoder at a single value of the spec is not
            // seen here, so it is taken for a clash rather than risk losing it.
            _ = observer.shouldWrite(.other, at: node!)
            return encoder
        }
    }
}
