import Foundation

/// A dictionary that a versioned type reads where its spec keeps a version: it is decoded
/// without the entries at the version's places.
///
/// The entries are decoded through the coder as a `[String: …]` dictionary, the way a plain
/// decode of the dictionary reads them, so that a key strategy does not rewrite its keys
/// (Foundation's JSON decoder leaves the keys of string-keyed dictionaries as they are), and
/// each value with the coder's own strategies.
protocol DictionaryWithoutVersion {
    /// Decodes the dictionary at `key` of `container`, leaving out the entries at `hidden`.
    static func decode<Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>,
        forKey key: Key,
        hiding hidden: [String]
    ) throws -> Self

    /// Decodes the dictionary `container` holds, leaving out the entries at `hidden`;
    /// `keysAsRead` gives the object's keys as a keyed container reads them.
    static func decode(
        from container: any SingleValueDecodingContainer,
        hiding hidden: [String],
        keysAsRead: () -> [String]
    ) throws -> Self
}

extension Dictionary: DictionaryWithoutVersion where Key: Decodable, Value: Decodable {
    static func decode<ContainerKey: CodingKey>(
        from container: KeyedDecodingContainer<ContainerKey>,
        forKey key: ContainerKey,
        hiding hidden: [String]
    ) throws -> Self {
        let entries = try container.decode([String: DecodedEntry<Value>].self, forKey: key)
        let hidden = writtenNames(of: hidden, among: entries) {
            (try? container.nestedContainer(keyedBy: PathKey.self, forKey: key).allKeys.map(\.stringValue)) ?? []
        }
        return try keeping(entries, hiding: hidden, codingPath: container.codingPath + [key])
    }

    static func decode(
        from container: any SingleValueDecodingContainer,
        hiding hidden: [String],
        keysAsRead: () -> [String]
    ) throws -> Self {
        let entries = try container.decode([String: DecodedEntry<Value>].self)
        let hidden = writtenNames(of: hidden, among: entries, keysAsRead: keysAsRead)
        return try keeping(entries, hiding: hidden, codingPath: container.codingPath)
    }

    /// The names under which the spec's keys `hidden` stand among the entries as written.
    ///
    /// A dictionary's keys are read as written, but the spec's keys were written through the
    /// coder's key strategy: under `.convertToSnakeCase` a spec key `schemaVersion` is written
    /// `schema_version`. When the key strategy of the decoder turns a written key into the
    /// spec's key (`keysAsRead`, the object's keys read through a keyed container, hold it and
    /// the entries do not), that written key is the spec's.
    private static func writtenNames(
        of hidden: [String],
        among entries: [String: DecodedEntry<Value>],
        keysAsRead: () -> [String]
    ) -> [String] {
        var names: [String] = []
        var asRead: [String]?
        for key in hidden {
            if entries[key] != nil {
                names.append(key)
                continue
            }
            asRead = asRead ?? keysAsRead()
            guard asRead!.contains(key) else {
                continue
            }
            names += entries.keys.filter { $0 != key && KeyConvertingDecoder.camelCase($0) == key }
        }
        return names
    }

    private static func keeping(
        _ entries: [String: DecodedEntry<Value>],
        hiding hidden: [String],
        codingPath: [any CodingKey]
    ) throws -> Self {
        var dictionary = Self(minimumCapacity: entries.count)
        for (name, entry) in entries where !hidden.contains(name) {
            let value = try entry.result.get()
            guard let key = dictionaryKey(name) else {
                throw DecodingError.typeMismatch(
                    Key.self,
                    DecodingError.Context(
                        codingPath: codingPath + [PathKey(name)],
                        debugDescription: "Expected \(Key.self) key but found String key instead."
                    )
                )
            }
            dictionary[key] = value
        }
        return dictionary
    }

    /// The key the standard library's decoding of the dictionary makes of `name`.
    private static func dictionaryKey(_ name: String) -> Key? {
        if let key = name as? Key {
            return key
        }
        if Key.self == Int.self {
            return Int(name) as? Key
        }
        if #available(macOS 12.3, iOS 15.4, tvOS 15.4, watchOS 8.5, *),
            let representable = Key.self as? any CodingKeyRepresentable.Type
        {
            return representable.init(codingKey: PathKey(name)) as? Key
        }
        return nil
    }
}

/// One entry of such a dictionary: its value, or the error decoding it threw, which is thrown
/// only if the entry is kept (the version's entry is not a value of the dictionary's type).
struct DecodedEntry<Value: Decodable>: Decodable {
    let result: Result<Value, any Error>

    init(from decoder: any Decoder) throws {
        // Through a single-value container, so that the coder applies its strategies for dates,
        // data and the like, as it would to the dictionary's own values.
        result = Result { try decoder.singleValueContainer().decode(Value.self) }
    }
}
