/// The places in a value's encoding where an array holds a `Set` or a `Dictionary`, written in
/// an order of their own: as paths without indexes (`members`, `teams.members`).
///
/// A merge matches the elements of such an array only by what they hold, never by position,
/// since the stored value and the value read back from the client's view list them in different
/// orders. Found by running the value's own `encode(to:)` against an encoder that writes
/// nothing and notes where a set or a dictionary is encoded.
struct UnorderedPaths {
    /// What a pattern's arrays hold.
    enum Kind {
        /// A set's elements.
        case set
        /// A dictionary's keys and values, one after the other.
        case dictionary
    }

    private let patterns: [String: Kind]

    /// No sets or dictionaries: every array keeps its order.
    static let none = UnorderedPaths(patterns: [:])

    private init(patterns: [String: Kind]) {
        self.patterns = patterns
    }

    init(of value: some Encodable, userInfo: [CodingUserInfoKey: Any]) {
        let recorder = Recorder(userInfo: userInfo)
        try? value.encode(to: RecordingEncoder(recorder: recorder, pattern: ""))
        patterns = recorder.patterns
    }

    /// What the arrays at `pattern` hold, when it is a set or a dictionary.
    func kind(at pattern: String) -> Kind? {
        patterns[pattern]
    }

    final class Recorder {
        let userInfo: [CodingUserInfoKey: Any]
        var patterns: [String: Kind] = [:]

        init(userInfo: [CodingUserInfoKey: Any]) {
            self.userInfo = userInfo
        }
    }
}

/// Collections whose encoding lists their elements in an order that is not the value's.
protocol UnorderedCollection {
    static var unorderedKind: UnorderedPaths.Kind { get }
}

extension Set: UnorderedCollection {
    static var unorderedKind: UnorderedPaths.Kind { .set }
}

extension Dictionary: UnorderedCollection {
    static var unorderedKind: UnorderedPaths.Kind { .dictionary }
}

/// The values every coder writes itself: nothing inside them to follow.
protocol EncodedLeaf {}
extension String: EncodedLeaf {}
extension Bool: EncodedLeaf {}
extension Double: EncodedLeaf {}
extension Float: EncodedLeaf {}
extension Int: EncodedLeaf {}
extension Int8: EncodedLeaf {}
extension Int16: EncodedLeaf {}
extension Int32: EncodedLeaf {}
extension Int64: EncodedLeaf {}
extension UInt: EncodedLeaf {}
extension UInt8: EncodedLeaf {}
extension UInt16: EncodedLeaf {}
extension UInt32: EncodedLeaf {}
extension UInt64: EncodedLeaf {}

private struct RecordingEncoder: Encoder {
    let recorder: UnorderedPaths.Recorder
    let pattern: String
    /// Where the elements of an unkeyed container opened here are: a dictionary with keys that
    /// are not strings lists its keys and values there, at its pattern with `{}` after it, so that
    /// a set or a dictionary among its values is not taken for the dictionary itself.
    var elementPattern: String?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { recorder.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordingKeyedContainer<Key>(recorder: recorder, pattern: pattern))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RecordingUnkeyedContainer(recorder: recorder, pattern: elementPattern ?? pattern)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordingSingleValueContainer(recorder: recorder, pattern: pattern)
    }

    /// Notes `value` when it is a set or a dictionary, and follows it.
    func record(_ value: some Encodable) throws {
        if value is any EncodedLeaf {
            return
        }
        if let unordered = value as? any UnorderedCollection {
            let kind = type(of: unordered).unorderedKind
            recorder.patterns[pattern] = kind
            if kind == .dictionary {
                let entries = RecordingEncoder(recorder: recorder, pattern: pattern, elementPattern: pattern + "{}")
                return try value.encode(to: entries)
            }
        }
        try value.encode(to: self)
    }

    func child(_ key: some CodingKey) -> RecordingEncoder {
        RecordingEncoder(
            recorder: recorder,
            pattern: pattern.isEmpty ? key.stringValue : pattern + "." + key.stringValue
        )
    }
}

private struct RecordingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let recorder: UnorderedPaths.Recorder
    let pattern: String
    var codingPath: [any CodingKey] { [] }

    private var encoder: RecordingEncoder { RecordingEncoder(recorder: recorder, pattern: pattern) }

    mutating func encodeNil(forKey key: Key) {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.child(key).record(value)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.child(key).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(key).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.child(key) }
}

private struct RecordingUnkeyedContainer: UnkeyedEncodingContainer {
    let recorder: UnorderedPaths.Recorder
    let pattern: String
    var codingPath: [any CodingKey] { [] }
    var count = 0

    private var encoder: RecordingEncoder { RecordingEncoder(recorder: recorder, pattern: pattern) }

    mutating func encodeNil() { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws {
        count += 1
        try encoder.record(value)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<
        NestedKey
    > {
        count += 1
        return encoder.container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return encoder.unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        count += 1
        return encoder
    }
}

private struct RecordingSingleValueContainer: SingleValueEncodingContainer {
    let recorder: UnorderedPaths.Recorder
    let pattern: String
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() {}
    mutating func encode<T: Encodable>(_ value: T) throws {
        try RecordingEncoder(recorder: recorder, pattern: pattern).record(value)
    }
}
