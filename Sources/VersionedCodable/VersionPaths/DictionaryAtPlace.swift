// A dictionary where a spec reads and writes (at the root, or as `_metadata`): its keys come
// from data, so the spec's keys are never among its entries. Read, it is the dictionary without
// what the spec read there; written, an entry under a key the spec writes there would be lost,
// and is refused. Its keys are read and written exactly as a plain decode and encode of the
// dictionary does: keys that are strings as they are, under any key strategy, and others by
// Swift's own coding of the dictionary, through the coder's key strategy.

/// A dictionary written where a spec writes: any dictionary a coder can write, its values
/// `Encodable` only or not.
protocol DictionaryAtPlace {
    func merging(_ place: SpecWritten, by writer: SpecWriter) throws -> any Encodable
}

/// A dictionary read where a spec reads.
protocol DictionaryReadAtPlace {
    static func decode(from decoder: any Decoder, leavingOut place: KeysRead) throws -> Self
}

extension Dictionary: DictionaryReadAtPlace where Key: Codable, Value: Codable {
    static func decode(from decoder: any Decoder, leavingOut place: KeysRead) throws -> Self {
        guard Key.self == String.self else {
            // Swift's own decoding makes the keys (integers, `CodingKeyRepresentable` values) of
            // a keyed container that leaves out the spec's keys.
            return try Self(from: PlaceDecoder(base: decoder, place: place))
        }
        // As the coder reads a `[String: …]`: keys as they are, with no key strategy.
        let entries = try decoder.singleValueContainer().decode([String: DecodedEntry<Value>].self)
        // The same object read as keyed, with the spec's names for its keys, where it is needed:
        // for an object the spec read into, or for a name the spec read that no key has as it is.
        let specNames = place.keys + place.declarations
        let object =
            !place.objects.isEmpty || specNames.contains(where: { entries[$0] == nil })
            ? try decoder.container(keyedBy: ForwardedKey.self) : nil
        let names = try object.map { try namesRead(for: entries.keys, in: $0, specNames, place) } ?? [:]
        var dictionary: [String: Value] = [:]
        for (key, entry) in entries {
            // The spec read each key under the name the coder's key strategy gives it.
            let name = names[key] ?? key
            guard let below = place.child(name), let object else {
                if !place.owns(name) {
                    dictionary[key] = try entry.result.get()
                }
                continue
            }
            // An object the spec read into is the type's entry where it holds the type's keys
            // too, read without the spec's.
            if !place.owns(name, in: object) {
                let forwarded = ForwardedKey(stringValue: name)
                dictionary[key] = try decodeObject(Value.self, below, from: object.superDecoder(forKey: forwarded))
            }
        }
        return dictionary as! Self
    }
}

extension Dictionary: DictionaryAtPlace where Key: Encodable, Value: Encodable {
    func merging(_ place: SpecWritten, by writer: SpecWriter) throws -> any Encodable {
        // Compared by type: an empty dictionary of any key type casts to `[String: Value]`.
        guard Key.self == String.self, let strings = self as? [String: Value] else {
            // Written by Swift's own encoding, whose keyed container refuses an entry under a
            // key the spec writes, with the spec's part merged after it.
            return MergedValue.following(self, place, writer)
        }
        // Written as the coder writes a `[String: …]`, keys as they are, the spec's among them.
        var merged = [String: MergedValue](minimumCapacity: count + place.keys.count)
        for (key, value) in strings {
            switch writer.role(of: key, at: place) {
            case nil where writer.isUndeclaredDeclarationKey(key, at: place):
                throw writer.refuse(.entry(path: place.path + [key]))
            case nil:
                writer.noteReadFirst(value, at: key, in: place, isEntry: true)
                merged[key] = .value(value)
            case .object(let child)? where (value as? any NilRepresentable)?.isNil != true:
                // An object where the spec writes one is followed, as the type's own is, so that
                // the spec's part is merged into it: the entry reads back as written, if it holds
                // something of its own.
                writer.giveWayToObject(at: child)
                merged[key] = .entry(try writer.following(value, at: child), child, writer)
            case .value?, .object?:
                throw writer.refuse(.entry(path: place.path + [key]))
            }
        }
        writer.markMerged(place)
        if !strings.isEmpty {
            writer.noteOwnKey(at: place)
        }
        // A kept field under a key the dictionary writes gives way to the entry.
        writer.forEachEntry(at: place) { key, entry in
            if strings[key] == nil { merged[key] = entry }
        }
        return merged
    }
}

/// Whether values of `Value` are dictionaries that a spec's keys are read and written beside.
///
/// A dictionary is one word: its size, known where the code is compiled for the type, spares
/// almost every other type the conformance check, which every versioned decode and encode asks.
@inlinable
func isDictionaryAtPlace<Value>(_ type: Value.Type) -> Bool {
    MemoryLayout<Value>.size == MemoryLayout<[String: Int]>.size && conformsToDictionaryAtPlace(type)
}

@usableFromInline
func conformsToDictionaryAtPlace(_ type: Any.Type) -> Bool {
    type is any DictionaryAtPlace.Type
}

/// One entry of such a dictionary: its value, or the error decoding it threw, thrown only if
/// the entry is kept (the version's entry is not a value of the dictionary's type).
private struct DecodedEntry<Value: Decodable>: Decodable {
    let result: Result<Value, any Error>

    init(from decoder: any Decoder) throws {
        // Through a single-value container, so that the coder applies its strategies for dates,
        // data and the like, as it would to the dictionary's own values.
        result = Result { try decoder.singleValueContainer().decode(Value.self) }
    }
}

/// The names `object`, a dictionary's object read as keyed, gives the keys in `raw` that the
/// coder's key strategy renames, where one of those names is the spec's: `version_readable_from`,
/// which a struct wrote under `.convertToSnakeCase`, is read as `versionReadableFrom` under
/// `.convertFromSnakeCase`. They are matched by that strategy's documented conversion, or, where
/// one key is renamed, to the one new name. `specNames` are the names `place` read there.
///
/// - Throws: `DecodingError.dataCorrupted` where a renamed key does not match one of the names
///   that way (another strategy): which entries the spec wrote cannot be told.
private func namesRead(
    for raw: some Collection<String>,
    in object: KeyedDecodingContainer<ForwardedKey>,
    _ specNames: [String],
    _ place: KeysRead
) throws -> [String: String] {
    // Only a name the spec read that the object has, but no key has as it is, was renamed.
    guard specNames.contains(where: { !raw.contains($0) && object.contains(ForwardedKey(stringValue: $0)) }) else {
        return [:]
    }
    let named = Set(object.allKeys.map(\.stringValue))
    let renamed = Set(raw).subtracting(named)
    let newNames = named.subtracting(raw)
    if renamed.count == 1, newNames.count == 1 {
        // One key renamed, to one name: whatever the strategy, they are the same key.
        return [renamed.first!: newNames.first!]
    }
    var names: [String: String] = [:]
    for key in renamed {
        let name = camelCased(snakeCased: key)
        guard newNames.contains(name) else {
            let description =
                "The decoder's key strategy renames keys of this dictionary, where the VersionPathSpec "
                + "reads, and which of them it wrote cannot be told; read the object as a struct, or "
                + "with the key strategy the document was written with."
            throw DecodingError.dataCorrupted(.init(codingPath: object.codingPath, debugDescription: description))
        }
        names[key] = name
    }
    return names
}

/// `key` as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` reads it: the words between
/// underscores joined, each after the first capitalized, with leading and trailing underscores
/// kept.
private func camelCased(snakeCased key: String) -> String {
    guard let first = key.firstIndex(where: { $0 != "_" }), let last = key.lastIndex(where: { $0 != "_" }) else {
        return key
    }
    let words = key[first...last].split(separator: "_")
    guard words.count > 1 else {
        return key
    }
    let joined =
        words[0].lowercased()
        + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
    return String(key[..<first]) + joined + String(key[key.index(after: last)...])
}
