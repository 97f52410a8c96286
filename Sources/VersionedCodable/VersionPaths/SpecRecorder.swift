import Foundation

/// Records what a ``VersionPathSpec`` writes for one encode: keyed objects are followed, and
/// everything else is kept as the value it is, so that the real coder writes it later, merged
/// into what the type writes, with its own strategies.
///
/// The spec's encoding runs once per encode, with the encoder's `userInfo`, so what is merged
/// is exactly what the spec writes this time, whatever it depends on.
struct SpecRecorder: Encoder {
    /// What the spec wrote that cannot be merged into a type's object: a single value or an
    /// array at its root, or an array written piece by piece.
    final class Problems {
        var found: String?
    }

    /// How deep a spec may nest objects: as deep as JSON's reader reads. A spec that goes deeper
    /// is refused rather than followed, so that it cannot make the library recurse without end.
    static let maximumDepth = 512

    let slot: SpecPlace
    let problems: Problems
    let userInfo: [CodingUserInfoKey: Any]
    var codingPath: [any CodingKey] { [] }

    /// Records what `spec` writes at the root of a document.
    static func record(_ spec: some Encodable, userInfo: [CodingUserInfoKey: Any]) throws -> SpecPlace {
        let root = SpecPlace(path: [])
        let problems = Problems()
        try spec.encode(to: SpecRecorder(slot: root, problems: problems, userInfo: userInfo))
        if let found = problems.found {
            throw SpecRecordingError(description: found)
        }
        return root
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.opened = true
        return KeyedEncodingContainer(RecordingContainer<Key>(object: slot, recorder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.path.isEmpty {
            problems.found = "writes an array at the root of the document"
        }
        return DiscardingContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueRecorder(recorder: self)
    }

    /// What `value` writes at one place: an object, followed, or the value itself.
    func entry<T: Encodable>(for value: T, at key: String) throws -> SpecPlace.Entry {
        if isCodedSpecially(T.self) || isSingleValue(T.self) {
            return .value(value)
        }
        let object = SpecPlace(path: slot.path + [key])
        try value.encode(to: SpecRecorder(slot: object, problems: problems, userInfo: userInfo))
        return object.opened ? .object(object) : .value(value)
    }
}

/// Why a spec's encoding cannot be merged into a document.
struct SpecRecordingError: Error, CustomStringConvertible {
    let description: String
}

private struct RecordingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: SpecPlace
    let recorder: SpecRecorder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .value(Int?.none)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if object.path.count >= SpecRecorder.maximumDepth {
            throw SpecRecordingError(description: "nests objects more than \(SpecRecorder.maximumDepth) deep")
        }
        let recorder = SpecRecorder(slot: object, problems: recorder.problems, userInfo: recorder.userInfo)
        object.set(key.stringValue, try recorder.entry(for: value, at: key.stringValue))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        subrecorder(key.stringValue).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        recorder.problems.found =
            "writes an array with nestedUnkeyedContainer(forKey:); write it with encode(_:forKey:)"
        return DiscardingContainer()
    }

    // The default key of a super encoder is "super", whether or not `Key` can name it.
    mutating func superEncoder() -> any Encoder { subrecorder("super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { subrecorder(key.stringValue) }

    private func subrecorder(_ key: String) -> SpecRecorder {
        SpecRecorder(slot: object.object(at: key), problems: recorder.problems, userInfo: recorder.userInfo)
    }
}

/// A spec's single-value container: a value that is not a single value itself (a struct the
/// spec forwards its encoding to) is followed at the same place; a single value there is
/// recorded as the place's whole value.
private struct SingleValueRecorder: SingleValueEncodingContainer {
    let recorder: SpecRecorder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { try encode(Int?.none) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if !isCodedSpecially(T.self), !isSingleValue(T.self), !(value is any NilRepresentable) {
            return try value.encode(to: recorder)
        }
        if recorder.slot.path.isEmpty {
            recorder.problems.found = "writes a single value at the root of the document"
        }
    }
}

/// Takes anything and keeps nothing: what a spec writes as an array is recorded whole by the
/// container above it.
private struct DiscardingContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count = 0
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        SpecRecorder(slot: SpecPlace(path: ["-"]), problems: .init(), userInfo: [:]).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder {
        SpecRecorder(slot: SpecPlace(path: ["-"]), problems: .init(), userInfo: [:])
    }
}
