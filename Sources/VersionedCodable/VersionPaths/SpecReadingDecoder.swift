import Foundation

/// The decoder a spec reads a document through: everything is read from the real decoder, and
/// each key the spec reads is noted at its ``SpecPlace``, so that the type reading the same
/// document does not see it among the keys of an object or the entries of a dictionary, and an
/// older build does not keep it as a field it does not know.
struct SpecReadingDecoder: Decoder {
    let base: any Decoder
    /// The document's root, when the spec reads there: its object is opened once, and shared
    /// with the type.
    var shared: SharedRootDecoder? = nil
    let place: SpecPlace

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // Every object is opened with the library's own key type, whose containers are made
        // once per process rather than once per spec key type.
        let object = try shared?.sharedRoot() ?? base.container(keyedBy: ForwardedKey.self)
        return KeyedDecodingContainer(SpecReadingContainer<Key>(base: object, place: place))
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

/// A spec's keyed container: each key read is noted.
private struct SpecReadingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<ForwardedKey>
    let place: SpecPlace

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] {
        base.allKeys.compactMap { key in key.intValue.flatMap(Key.init(intValue:)) ?? Key(stringValue: key.stringValue)
        }
    }

    private func noting<T>(_ key: Key, _ read: (ForwardedKey) throws -> T) throws -> T {
        let forwarded = ForwardedKey(key)
        do {
            let value = try read(forwarded)
            place.set(key.stringValue, .value(true))
            return value
        } catch let error as DecodingError {
            switch error {
            case .keyNotFound where !base.contains(forwarded): place.root.metMissingKey = true
            case .valueNotFound where (try? base.decodeNil(forKey: forwarded)) == true: place.root.metMissingKey = true
            default: break
            }
            throw error
        }
    }

    func contains(_ key: Key) -> Bool { base.contains(ForwardedKey(key)) }
    func decodeNil(forKey key: Key) throws -> Bool { try noting(key) { try base.decodeNil(forKey: $0) } }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let forwarded = ForwardedKey(key)
        // A missing key or `null` is the container's to answer, as in a plain decode; so is a
        // value the coder reads in a way of its own, or a dictionary, whose keys it reads as
        // they are.
        if try isCodedSpecially(T.self) || isSingleValue(T.self) || T.self is any DictionaryAtPlace.Type
            || !base.contains(forwarded) || base.decodeNil(forKey: forwarded)
        {
            return try noting(key) { try base.decode(type, forKey: $0) }
        }
        let decoder = try base.superDecoder(forKey: forwarded)
        return try T(from: SpecReadingDecoder(base: decoder, place: place.object(at: key.stringValue)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = try noting(key) { try base.nestedContainer(keyedBy: ForwardedKey.self, forKey: $0) }
        let object = place.object(at: key.stringValue)
        return KeyedDecodingContainer(SpecReadingContainer<NestedKey>(base: nested, place: object))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try noting(key) { try base.nestedUnkeyedContainer(forKey: $0) }
    }

    func superDecoder() throws -> any Decoder {
        SpecReadingDecoder(base: try base.superDecoder(), place: place.object(at: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let decoder = try base.superDecoder(forKey: ForwardedKey(key))
        return SpecReadingDecoder(base: decoder, place: place.object(at: key.stringValue))
    }
}

extension VersionPathSpec {
    /// Reads the version of the document at `shared`'s root as this spec reads it, with the
    /// place the spec read. A key the spec needs that is missing or `null` is no version.
    ///
    /// - Parameter template: A version whose spec has every part the spec's key path may pass
    ///   through (see ``version(comparedWith:)``).
    static func readVersion(from shared: SharedRootDecoder, template: Int?) throws -> (Int?, SpecPlace) {
        let place = SpecPlace(path: [])
        do {
            let spec = try Self(from: SpecReadingDecoder(base: shared, shared: shared, place: place))
            return (spec.version(comparedWith: template), place)
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
    /// only to a spec that has every optional value and array element that the spec written for
    /// `template`, a version of the chain, has: one that lacks any holds no version.
    func version(comparedWith template: Int?) -> Int? {
        if MemoryLayout<Self>.offset(of: Self.keyPathToVersion) != nil
            || !lacksPart(Mirror(reflecting: self), of: Mirror(reflecting: Self(withVersion: template)))
        {
            return self[keyPath: Self.keyPathToVersion]
        }
        return nil
    }

    /// The path of the integer in `written`, what this spec wrote, that the spec's own decode
    /// reads as the version: each integer it wrote is replaced in turn by `marker`, and the
    /// spec is read back from what it wrote, until it reads `marker`. `nil` when none does.
    static func versionPath(
        in written: SpecPlace,
        marker: Int,
        userInfo: [CodingUserInfoKey: Any]
    ) -> [String]? {
        let decoder = JSONDecoder()
        // The spec reads with the encoder's `userInfo`, as it wrote. The decoder declares its
        // values `Sendable`, a marker protocol that is erased at run time, so the two dictionaries
        // are one type to the runtime; the decoder is used here, on this thread, only.
        decoder.userInfo = unsafeBitCast(userInfo, to: [CodingUserInfoKey: any Sendable].self)
        for path in written.valuePaths(integers: true) {
            let probe = WrittenSpec(place: written, replacing: path, with: marker)
            if let data = try? JSONEncoder().encode(probe), let read = try? decoder.decode(Self.self, from: data),
                read.version(comparedWith: marker) == marker
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
struct WrittenSpec: Encodable {
    let place: SpecPlace
    let replacing: [String]
    let marker: Int

    init(place: SpecPlace, replacing: [String] = [], with marker: Int = 0) {
        self.place = place
        self.replacing = replacing
        self.marker = marker
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PathKey.self)
        for (key, entry) in place.entries {
            switch entry {
            case .value where !replacing.isEmpty && replacing == place.path + [key]:
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
