import Foundation

/// The decoder a spec reads a document through: everything is read from the real decoder, and
/// each key the spec reads is noted at its ``SpecPlace``, so that the type reading the same
/// document does not see it among the keys of an object or the entries of a dictionary, and an
/// older build does not keep it as a field it does not know.
struct SpecReadingDecoder: Decoder {
    let base: any Decoder
    let place: SpecPlace

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(SpecReadingContainer(base: try base.container(keyedBy: type), place: place))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SpecReadingSingleValueContainer(base: try base.singleValueContainer(), decoder: self)
    }
}

/// A spec's single-value container: a struct the spec forwards its decoding to is read at the
/// same place, through the same noting decoder.
private struct SpecReadingSingleValueContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    let decoder: SpecReadingDecoder

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if isCodedSpecially(T.self) || isSingleValue(T.self) || T.self is any DictionaryAtPlace.Type {
            return try base.decode(type)
        }
        return try T(from: decoder)
    }
}

/// A spec's keyed container: each key read is noted, with the integer read there, if any.
private struct SpecReadingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let place: SpecPlace

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }

    private func noting<T>(_ key: Key, _ read: () throws -> T) throws -> T {
        do {
            let value = try read()
            place.set(key.stringValue, .value((value as? any BinaryInteger).flatMap { Int(exactly: $0) }))
            return value
        } catch DecodingError.keyNotFound(let missing, let context) where !base.contains(key) {
            place.root.metMissingKey = true
            throw DecodingError.keyNotFound(missing, context)
        } catch DecodingError.valueNotFound(let type, let context) where (try? base.decodeNil(forKey: key)) == true {
            place.root.metMissingKey = true
            throw DecodingError.valueNotFound(type, context)
        }
    }

    func contains(_ key: Key) -> Bool { base.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try noting(key) { try base.decodeNil(forKey: key) } }
    func decode(_ t: String.Type, forKey key: Key) throws -> String {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: Double.Type, forKey key: Key) throws -> Double {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: Float.Type, forKey key: Key) throws -> Float {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: Int16.Type, forKey key: Key) throws -> Int16 {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: Int32.Type, forKey key: Key) throws -> Int32 {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: Int64.Type, forKey key: Key) throws -> Int64 {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode(_ t: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try noting(key) { try base.decode(t, forKey: key) }
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A missing key or `null` is the container's to answer, as in a plain decode; so is a
        // value the coder reads in a way of its own, or a dictionary, whose keys it reads as they are.
        if try isCodedSpecially(T.self) || isSingleValue(T.self) || T.self is any DictionaryAtPlace.Type
            || !base.contains(key)
            || base.decodeNil(forKey: key)
        {
            return try noting(key) { try base.decode(type, forKey: key) }
        }
        return try T(
            from: SpecReadingDecoder(base: base.superDecoder(forKey: key), place: place.object(at: key.stringValue))
        )
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = try noting(key) { try base.nestedContainer(keyedBy: type, forKey: key) }
        return KeyedDecodingContainer(
            SpecReadingContainer<NestedKey>(base: nested, place: place.object(at: key.stringValue))
        )
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try noting(key) { try base.nestedUnkeyedContainer(forKey: key) }
    }

    func superDecoder() throws -> any Decoder {
        SpecReadingDecoder(base: try base.superDecoder(), place: place.object(at: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        SpecReadingDecoder(base: try base.superDecoder(forKey: key), place: place.object(at: key.stringValue))
    }
}

extension VersionPathSpec {
    /// Reads the version of the document at `shared`'s root as this spec reads it, with the
    /// place the spec read. A key the spec needs that is missing or `null` is no version.
    ///
    /// - Parameter template: A version whose spec has every part the spec's key path may pass
    ///   through (see ``version(comparedWith:)``).
    static func readVersion(from shared: SharedRootDecoder, template: Int?) throws -> (Int?, SpecPlace) {
        if Self.self == VersionKeyAtRootVersionPathSpec.self {
            // Exactly what the default spec's synthesized `init(from:)` reads, without making it.
            return (try shared.sharedRoot().decodeIfPresent(Int.self, forKey: rootVersionKey), .versionAtRoot)
        }
        let place = SpecPlace(path: [])
        do {
            let spec = try Self(from: SpecReadingDecoder(base: shared, place: place))
            return (spec.version(comparedWith: Self(withVersion: template)), place)
        } catch let error as DecodingError where place.metMissingKey {
            // A key the spec needs is missing or `null` (a document without `_metadata`, written
            // before the type was versioned): the document has no version. Anything else the
            // spec cannot read, such as a version that is not a number or a damaged object, is
            // the decoder's error.
            switch error {
            case .keyNotFound, .valueNotFound: return (nil, place)
            default: throw error
            }
        }
    }

    /// The version at ``keyPathToVersion``.
    ///
    /// A key path through a force unwrap or a subscript (`\Self._metadata!.version`,
    /// `\Self.headers[0].version`) would stop the process on a document that lacks what it
    /// reads, so unless it is a path of stored properties, which cannot trap, it is applied
    /// only to a spec that has every optional value and array element `template`, a spec the
    /// chain writes, has: one that lacks any holds no version.
    func version(comparedWith template: Self) -> Int? {
        if MemoryLayout<Self>.offset(of: Self.keyPathToVersion) != nil
            || !lacksPart(Mirror(reflecting: self), of: Mirror(reflecting: template))
        {
            return self[keyPath: Self.keyPathToVersion]
        }
        return nil
    }

    /// The path of the integer in `written`, what this spec wrote, that the spec's own decode
    /// reads as the version: each integer it wrote is replaced in turn by `marker`, and the
    /// spec is read back from what it wrote, until it reads `marker`. `nil` when none does.
    static func versionPath(in written: SpecPlace, marker: Int) -> [String]? {
        for path in written.integerPaths() {
            let probe = WrittenSpec(place: written, replacing: path, with: marker)
            if let data = try? JSONEncoder().encode(probe), let read = try? JSONDecoder().decode(Self.self, from: data),
                read.version(comparedWith: Self(withVersion: marker)) == marker
            {
                return path
            }
        }
        return nil
    }
}

/// Whether `value` lacks an optional's value or an array's element that `template` has.
private func lacksPart(_ value: Mirror, of template: Mirror) -> Bool {
    if template.displayStyle == .optional || template.displayStyle == .collection,
        value.children.count < template.children.count
    {
        return true
    }
    return zip(value.children, template.children).contains {
        lacksPart(Mirror(reflecting: $0.value), of: Mirror(reflecting: $1.value))
    }
}

/// What a spec wrote, with the integer at one path replaced, as a document.
private struct WrittenSpec: Encodable {
    let place: SpecPlace
    let replacing: [String]
    let marker: Int

    init(place: SpecPlace, replacing: [String], with marker: Int) {
        self.place = place
        self.replacing = replacing
        self.marker = marker
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PathKey.self)
        for (key, entry) in place.entries {
            switch entry {
            case .value where replacing == place.path + [key]:
                try container.encode(marker, forKey: PathKey(key))
            case .value(let value):
                try container.encode(value, forKey: PathKey(key))
            case .object(let child):
                try container.encode(
                    WrittenSpec(place: child, replacing: replacing, with: marker),
                    forKey: PathKey(key)
                )
            }
        }
    }
}
