import Foundation

/// An object a spec wrote: its keys in the order written, each holding a value or an object.
final class RecordedObject {
    enum Entry {
        case value(any Encodable)
        case object(RecordedObject)
    }

    private(set) var entries: [(key: String, entry: Entry)] = []
    /// Whether a keyed container was opened here: the value written here is an object.
    var opened = false

    func set(_ key: String, _ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].entry = entry
        } else {
            entries.append((key, entry))
        }
    }

    func object(at key: String) -> RecordedObject {
        if case .object(let existing)? = entries.first(where: { $0.key == key })?.entry {
            return existing
        }
        let made = RecordedObject()
        made.opened = true
        set(key, .object(made))
        return made
    }

    func entry(_ key: String) -> Entry? {
        entries.first { $0.key == key }?.entry
    }

    /// The object at `path` below this one, if the spec wrote one there.
    func object(atPath path: [String]) -> RecordedObject? {
        var object = self
        for key in path {
            guard case .object(let child)? = object.entry(key) else {
                return nil
            }
            object = child
        }
        return object
    }

    /// Whether anything but empty objects is written here.
    var hasValues: Bool {
        entries.contains {
            if case .object(let child) = $0.entry { return child.hasValues }
            return true
        }
    }
}

/// Records what a ``VersionPathSpec`` writes: keyed objects are followed, everything else is
/// kept as the value it is, so that the real coder writes it later with its own strategies.
///
/// A spec's objects may nest ``maximumDepth`` deep; a spec that goes deeper is refused rather
/// than followed, so that a spec cannot make the library recurse without end.
struct SpecRecorder: Encoder {
    /// How deep a spec may nest objects.
    static let maximumDepth = 32

    /// What recording found that it cannot record: objects too deep, or an array written piece
    /// by piece.
    final class Problems {
        var found: String?
    }

    let slot: RecordedObject?
    let depth: Int
    let problems: Problems
    let userInfo: [CodingUserInfoKey: Any]
    var codingPath: [any CodingKey] { [] }

    /// Records what `spec` writes at the root of a document.
    static func record(_ spec: some Encodable, userInfo: [CodingUserInfoKey: Any] = [:]) throws -> RecordedObject {
        let root = RecordedObject()
        let problems = Problems()
        try spec.encode(to: SpecRecorder(slot: root, depth: 0, problems: problems, userInfo: userInfo))
        if let found = problems.found {
            throw SpecLayoutError(found)
        }
        return root
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard depth <= Self.maximumDepth else {
            problems.found = "nests objects more than \(Self.maximumDepth) deep"
            return KeyedEncodingContainer(RecordingContainer<Key>(object: nil, depth: depth, recorder: self))
        }
        slot?.opened = true
        return KeyedEncodingContainer(RecordingContainer<Key>(object: slot, depth: depth, recorder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { DiscardingContainer() }

    /// What `value` writes at one place: an object, followed, or the value itself.
    func entry<T: Encodable>(for value: T) throws -> RecordedObject.Entry {
        if isCodedSpecially(T.self) {
            return .value(value)
        }
        let object = RecordedObject()
        try value.encode(to: SpecRecorder(slot: object, depth: depth + 1, problems: problems, userInfo: userInfo))
        return object.opened ? .object(object) : .value(value)
    }
}

private struct RecordingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// `nil` past the depth limit: nothing is recorded, and nothing is followed.
    let object: RecordedObject?
    let depth: Int
    let recorder: SpecRecorder
    var codingPath: [any CodingKey] { [] }

    private func set(_ value: some Encodable, _ key: Key) { object?.set(key.stringValue, .value(value)) }

    mutating func encodeNil(forKey key: Key) throws { set(Int?.none, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(value, key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard let object else { return }
        object.set(key.stringValue, try recorder.entry(for: value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        subrecorder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if object != nil {
            recorder.problems.found =
                "writes an array with nestedUnkeyedContainer(forKey:); write it with encode(_:forKey:)"
        }
        return DiscardingContainer()
    }

    // The default key of a super encoder is "super", whether or not `Key` can name it.
    mutating func superEncoder() -> any Encoder { subrecorder("super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { subrecorder(key.stringValue) }

    private func subrecorder(_ key: Key) -> SpecRecorder {
        subrecorder(key.stringValue)
    }

    private func subrecorder(_ key: String) -> SpecRecorder {
        SpecRecorder(
            slot: object?.object(at: key),
            depth: depth + 1,
            problems: recorder.problems,
            userInfo: recorder.userInfo
        )
    }
}

/// Takes anything and keeps nothing: what a spec writes as a single value or an array is
/// recorded whole by the container above it.
private struct DiscardingContainer: SingleValueEncodingContainer, UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count = 0
    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws {}
    mutating func encode(_ value: String) throws {}
    mutating func encode(_ value: Double) throws {}
    mutating func encode(_ value: Float) throws {}
    mutating func encode(_ value: Int) throws {}
    mutating func encode(_ value: Int8) throws {}
    mutating func encode(_ value: Int16) throws {}
    mutating func encode(_ value: Int32) throws {}
    mutating func encode(_ value: Int64) throws {}
    mutating func encode(_ value: UInt) throws {}
    mutating func encode(_ value: UInt8) throws {}
    mutating func encode(_ value: UInt16) throws {}
    mutating func encode(_ value: UInt32) throws {}
    mutating func encode(_ value: UInt64) throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        SpecRecorder(slot: nil, depth: 0, problems: .init(), userInfo: [:]).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { SpecRecorder(slot: nil, depth: 0, problems: .init(), userInfo: [:]) }
}
