/// The keyed container of an object where the spec writes: each key the type writes is looked
/// up among the keys the spec owns there.
///
/// A single value at the version's key that is an integer (or nothing) mirrors the version:
/// it is left out, and the version is written in its place. Any other value at a key the spec
/// writes would be lost, and is refused. An object at a key where the spec writes an object is
/// followed, so that the spec's part is merged into it.
///
/// The object is opened with the library's key type, and the type's keys are written through
/// it as they are (string and integer value), so that the spec's part is written into this
/// same container when the type is done with it: opening the object a second time would merge
/// with Foundation's coders but replace it with those that build each object when its encoder is
/// released (Yams).
struct PlaceEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<PathKey>
    let place: SpecPlace
    let writer: SpecWriter

    var codingPath: [any CodingKey] { base.codingPath }

    /// What the spec writes at `key`, with an entry there refused: a container keyed by Swift's
    /// own dictionary key type writes a dictionary's entries (its encoding called by the type
    /// itself), where nothing mirrors the version and an entry under a spec key would be lost,
    /// as would one that the coder's key strategy turns into a spec key.
    private func role(of key: Key) throws -> SpecPlace.Entry? {
        let role = writer.role(of: key.stringValue, at: place)
        if String(reflecting: Key.self) == "Swift._DictionaryCodingKey",
            role != nil || place.entries.contains(where: { folded($0.key) == folded(key.stringValue) })
        {
            throw writer.refuse(.entry(path: place.path + [key.stringValue]))
        }
        return role
    }

    /// Whether `value`, a single value written at `key`, goes to the real encoder.
    private func passes<T>(_ value: T, at key: Key, isNil: Bool = false) throws -> Bool {
        switch try role(of: key) {
        case nil:
            return true
        case .value(let spec)?:
            let path = place.path + [key.stringValue]
            // A copy of what the spec writes there is left out, since the spec writes it.
            if isSame(value, spec) {
                return false
            }
            if !isNil, writer.givesWay(spec, at: path) {
                return true
            }
            // An integer (or nothing) where the version goes mirrors it, if its type can hold it.
            let atVersion = writer.isVersion(path)
            if atVersion, isNil || fits(writer.version, in: T.self) {
                return false
            }
            throw writer.refuse(.clash(path: path, atVersion: atVersion))
        case .object(let child)?:
            // A `null` where the spec writes an object (an optional parent written with `encode`)
            // holds nothing: the spec's object takes its place.
            if isNil {
                return false
            }
            throw writer.refuse(.notAnObject(path: child.path))
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        if try passes(Int?.none, at: key, isNil: true) { try base.encodeNil(forKey: PathKey(key)) }
    }

    // A `nil` written with `encodeIfPresent` writes nothing, but tells the property's type: a
    // property that is not an integer where the version goes would not read the version back,
    // so it is a clash even while it is `nil` (an integer's `nil` mirrors a `nil` version); and
    // a `nil` where the spec writes another value would read back as the spec's value.
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
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value {
            return try encode(value, forKey: key)
        }
        // A `nil` where the spec writes a value would read back as the spec's value, unless it
        // is an integer's `nil` at the version's place, which mirrors a `nil` version.
        guard case .value? = try role(of: key) else {
            return
        }
        let path = place.path + [key.stringValue]
        let atVersion = writer.isVersion(path)
        if !atVersion || !(innermostWrappedType(of: T.self) is any BinaryInteger.Type) {
            throw writer.refuse(.clash(path: path, atVersion: atVersion))
        }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard case .object(let child)? = try role(of: key) else {
            if try passes(value, at: key) {
                try base.encode(value, forKey: PathKey(key))
            }
            return
        }
        if let optional = value as? any NilRepresentable, optional.isNil {
            return
        }
        try base.encode(try writer.following(value, at: child), forKey: PathKey(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        guard let role = writer.role(of: key.stringValue, at: place) else {
            return base.nestedContainer(keyedBy: keyType, forKey: PathKey(key))
        }
        guard case .object(let child) = role else {
            if case .value(let spec) = role, writer.givesWay(spec, at: place.path + [key.stringValue]) {
                return base.nestedContainer(keyedBy: keyType, forKey: PathKey(key))
            }
            writer.note(.clash(path: place.path + [key.stringValue], atVersion: isVersion(key.stringValue)))
            return base.nestedContainer(keyedBy: keyType, forKey: PathKey(key))
        }
        let shared = base.nestedContainer(keyedBy: PathKey.self, forKey: PathKey(key))
        writer.hold(child, .container(shared))
        return KeyedEncodingContainer(PlaceEncodingContainer<NestedKey>(base: shared, place: child, writer: writer))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        switch writer.role(of: key.stringValue, at: place) {
        case nil:
            break
        case .object(let child)?:
            writer.note(.notAnObject(path: child.path))
        case .value?:
            writer.note(.clash(path: place.path + [key.stringValue], atVersion: isVersion(key.stringValue)))
        }
        return base.nestedUnkeyedContainer(forKey: PathKey(key))
    }

    // Foundation's coders write a key-less super encoder under "super".
    mutating func superEncoder() -> any Encoder {
        watched(base.superEncoder(), at: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        watched(base.superEncoder(forKey: PathKey(key)), at: key.stringValue)
    }

    private func watched(_ encoder: any Encoder, at key: String) -> any Encoder {
        switch writer.role(of: key, at: place) {
        case nil:
            return encoder
        case .object(let child)?:
            writer.hold(child, .encoder(encoder))
            return PlaceEncoder(base: encoder, place: child, writer: writer)
        case .value?:
            // What a value writes through a super encoder is not seen here, so it is taken for a
            // clash rather than risk losing it.
            writer.note(.clash(path: place.path + [key], atVersion: isVersion(key)))
            return encoder
        }
    }

    private func isVersion(_ key: String) -> Bool {
        writer.isVersion(place.path + [key])
    }
}

/// Whether `value` is what the spec writes: the same integer, of any width, or an equal value.
private func isSame(_ value: Any, _ spec: any Encodable) -> Bool {
    if let own = value as? any BinaryInteger, let spec = integer(spec) {
        return Int(exactly: own) == spec
    }
    guard let own = value as? AnyHashable else { return false }
    return own == spec as? AnyHashable
}

/// Whether `type` is an integer (or an optional of one) that can hold `version`.
private func fits(_ version: Int?, in type: Any.Type) -> Bool {
    guard let integer = innermostWrappedType(of: type) as? any BinaryInteger.Type else {
        return false
    }
    return version.map { fits($0, in: integer) } ?? true
}

private func fits<Integer: BinaryInteger>(_ version: Int, in type: Integer.Type) -> Bool {
    Integer(exactly: version) != nil
}
