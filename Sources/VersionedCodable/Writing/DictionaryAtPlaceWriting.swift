/// A dictionary a type writes where the spec writes an object (its root, or `_metadata`).
///
/// Its keys come from data, so an entry under a key the spec writes would be lost: it is
/// refused. Otherwise the dictionary is written as the coder writes it, with the spec's part
/// merged into the same object: with keys that are strings, as one `[String: …]` whose keys
/// the coder writes as they are, the spec's among them; with other keys (integers,
/// `CodingKeyRepresentable` values), by Swift's own encoding of the dictionary, after which the
/// spec's part is written into the same encoder, through the coder's key strategy, as the
/// dictionary's keys are.
protocol DictionaryAtPlaceWriting {
    func merging(_ place: SpecPlace, by writer: SpecWriter) throws -> any Encodable
}

extension Dictionary: DictionaryAtPlaceWriting where Key: Encodable, Value: Encodable {
    func merging(_ place: SpecPlace, by writer: SpecWriter) throws -> any Encodable {
        guard Self.isWrittenAsObject else {
            // Swift writes a dictionary with keys of any other type as an array, even when empty.
            throw writer.refuse(.notAnObject(path: place.path))
        }
        for key in keys {
            guard let name = Self.name(of: key) else {
                throw writer.refuse(.notAnObject(path: place.path))
            }
            // Keys that are not strings go through the coder's key strategy, which may make
            // `Version` the spec's `version`: one that differs from a spec key only in case and
            // separators is refused too.
            if writer.role(of: name, at: place) != nil
                || (Key.self != String.self && place.entries.contains { folded($0.key) == folded(name) })
            {
                throw writer.refuse(.entry(path: place.path + [name]))
            }
        }
        guard let strings = self as? [String: Value] else {
            return DictionaryWithSpec(dictionary: self, place: place, writer: writer)
        }
        var merged = [String: MergedEntry](minimumCapacity: count + place.entries.count)
        for (key, value) in strings {
            merged[key] = .value(value)
        }
        for (key, entry) in writer.entries(at: place) {
            switch entry {
            case .value(let value):
                merged[key] = .value(value)
            case .object(let child):
                merged[key] = .object(child, writer)
            }
        }
        writer.markWritten(place)
        return merged
    }

    /// Whether Swift writes the dictionary as an object: for keys that are strings, integers or
    /// `CodingKeyRepresentable` values.
    private static var isWrittenAsObject: Bool {
        if Key.self == String.self || Key.self == Int.self {
            return true
        }
        if #available(macOS 12.3, iOS 15.4, tvOS 15.4, watchOS 8.5, *) {
            return Key.self is any CodingKeyRepresentable.Type
        }
        return false
    }

    /// The key's name in a document, as Swift's encoding of a dictionary makes it.
    private static func name(of key: Key) -> String? {
        if let string = key as? String {
            return string
        }
        if let integer = key as? Int {
            return String(integer)
        }
        if #available(macOS 12.3, iOS 15.4, tvOS 15.4, watchOS 8.5, *), let key = key as? any CodingKeyRepresentable {
            return key.codingKey.stringValue
        }
        return nil
    }
}

/// A value of a dictionary with string keys merged with the spec's part.
enum MergedEntry: Encodable {
    case value(any Encodable)
    case object(SpecPlace, SpecWriter)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .value(let value):
            // Through a single-value container, so that the coder applies its strategies for
            // dates, data and the like, as it does to a dictionary's own values.
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .object(let place, let writer):
            writer.markWritten(place)
            var container = encoder.container(keyedBy: PathKey.self)
            try writer.write(place, into: &container)
        }
    }
}

/// A dictionary with keys other than strings, written by Swift's own encoding, with the spec's
/// part written into the same encoder after it.
struct DictionaryWithSpec<Key: Hashable & Encodable, Value: Encodable>: Encodable {
    let dictionary: [Key: Value]
    let place: SpecPlace
    let writer: SpecWriter

    func encode(to encoder: any Encoder) throws {
        try dictionary.encode(to: encoder)
        try writer.finish(place, into: encoder)
    }
}

/// A key without case or word separators, as key strategies write words differently.
func folded(_ key: String) -> String {
    key.lowercased().filter { $0 != "_" && $0 != "-" }
}
