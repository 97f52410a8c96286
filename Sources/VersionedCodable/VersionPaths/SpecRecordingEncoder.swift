import Foundation

/// An encoder that records what a ``VersionPathSpec`` writes, as a ``SpecTree`` is made of.
///
/// Keyed objects are followed so that the version can be found and merged into the type's
/// objects; everything else is kept as the value it is, so that the real coder writes it later
/// with its own strategies (dates, data, URLs and arrays are kept whole).
struct SpecRecordingEncoder: Encoder {
    let slot: RecordingSlot
    /// The value this encoder records, kept whole if it turns out not to be a keyed object.
    let original: (any Encodable)?
    let codingPath: [any CodingKey]
    /// The `userInfo` of the encoder the document is written with, so that a spec whose
    /// encoding reads it writes what a plain encode of it would.
    let userInfo: [CodingUserInfoKey: Any]

    /// Records `value`, which a spec writes at its root, under the encoder's `userInfo`.
    static func record(_ value: some Encodable, userInfo: [CodingUserInfoKey: Any] = [:]) throws -> RecordedObject {
        let slot = RecordingSlot()
        try value.encode(to: SpecRecordingEncoder(slot: slot, original: value, codingPath: [], userInfo: userInfo))
        if case .object(let root)? = slot.node {
            return root
        }
        return RecordedObject()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: RecordedObject
        if case .object(let existing)? = slot.node {
            object = existing
        } else {
            object = RecordedObject()
            slot.node = .object(object)
        }
        return KeyedEncodingContainer(
            SpecRecordingKeyedContainer<Key>(object: object, codingPath: codingPath, userInfo: userInfo)
        )
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array = RecordedArray()
        slot.node = .leaf(.encodable(array, integer: nil))
        return SpecRecordingUnkeyedContainer(array: array, codingPath: codingPath, userInfo: userInfo)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SpecRecordingSingleValueContainer(slot: slot, codingPath: codingPath, userInfo: userInfo)
    }

    /// Records a value written at one place: whole for the types coders treat specially, or
    /// followed into its own encoding otherwise.
    static func recordNode<T: Encodable>(
        of value: T,
        codingPath: [any CodingKey],
        userInfo: [CodingUserInfoKey: Any]
    ) throws -> RecordedNode {
        if isCodedSpecially(T.self) {
            return .leaf(.encodable(value, integer: nil))
        }
        let slot = RecordingSlot()
        try value.encode(
            to: SpecRecordingEncoder(slot: slot, original: value, codingPath: codingPath, userInfo: userInfo)
        )
        return slot.node ?? .leaf(.encodable(value, integer: nil))
    }
}

struct SpecRecordingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: RecordedObject
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    private func leaf(_ key: Key, _ value: SpecValue) {
        object.set(key.stringValue, .leaf(value))
    }

    mutating func encodeNil(forKey key: Key) throws { leaf(key, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { leaf(key, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { leaf(key, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { leaf(key, .double(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { leaf(key, .float(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { leaf(key, .int(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { leaf(key, .int8(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { leaf(key, .int16(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { leaf(key, .int32(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { leaf(key, .int64(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { leaf(key, .uint(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { leaf(key, .uint8(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { leaf(key, .uint16(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { leaf(key, .uint32(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { leaf(key, .uint64(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(
            key.stringValue,
            try SpecRecordingEncoder.recordNode(of: value, codingPath: codingPath + [key], userInfo: userInfo)
        )
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(
            SpecRecordingKeyedContainer<NestedKey>(
                object: object.object(at: key.stringValue),
                codingPath: codingPath + [key],
                userInfo: userInfo
            )
        )
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let array = RecordedArray()
        leaf(key, .encodable(array, integer: nil))
        return SpecRecordingUnkeyedContainer(array: array, codingPath: codingPath + [key], userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let slot = RecordingSlot()
        slot.node = .object(object.object(at: key.stringValue))
        return SpecRecordingEncoder(slot: slot, original: nil, codingPath: codingPath + [key], userInfo: userInfo)
    }
}

struct SpecRecordingSingleValueContainer: SingleValueEncodingContainer {
    let slot: RecordingSlot
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    private func leaf(_ value: SpecValue) {
        slot.node = .leaf(value)
    }

    mutating func encodeNil() throws { leaf(.null) }
    mutating func encode(_ value: Bool) throws { leaf(.bool(value)) }
    mutating func encode(_ value: String) throws { leaf(.string(value)) }
    mutating func encode(_ value: Double) throws { leaf(.double(value)) }
    mutating func encode(_ value: Float) throws { leaf(.float(value)) }
    mutating func encode(_ value: Int) throws { leaf(.int(value)) }
    mutating func encode(_ value: Int8) throws { leaf(.int8(value)) }
    mutating func encode(_ value: Int16) throws { leaf(.int16(value)) }
    mutating func encode(_ value: Int32) throws { leaf(.int32(value)) }
    mutating func encode(_ value: Int64) throws { leaf(.int64(value)) }
    mutating func encode(_ value: UInt) throws { leaf(.uint(value)) }
    mutating func encode(_ value: UInt8) throws { leaf(.uint8(value)) }
    mutating func encode(_ value: UInt16) throws { leaf(.uint16(value)) }
    mutating func encode(_ value: UInt32) throws { leaf(.uint32(value)) }
    mutating func encode(_ value: UInt64) throws { leaf(.uint64(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        slot.node = try SpecRecordingEncoder.recordNode(of: value, codingPath: codingPath, userInfo: userInfo)
    }
}

/// Arrays in a spec are kept as values: the version is never looked for inside them.
struct SpecRecordingUnkeyedContainer: UnkeyedEncodingContainer {
    let array: RecordedArray
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    var count: Int { array.elements.count }

    private func append(_ value: SpecValue) {
        array.elements.append(value)
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.double(value)) }
    mutating func encode(_ value: Float) throws { append(.float(value)) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Int8) throws { append(.int8(value)) }
    mutating func encode(_ value: Int16) throws { append(.int16(value)) }
    mutating func encode(_ value: Int32) throws { append(.int32(value)) }
    mutating func encode(_ value: Int64) throws { append(.int64(value)) }
    mutating func encode(_ value: UInt) throws { append(.uint(value)) }
    mutating func encode(_ value: UInt8) throws { append(.uint8(value)) }
    mutating func encode(_ value: UInt16) throws { append(.uint16(value)) }
    mutating func encode(_ value: UInt32) throws { append(.uint32(value)) }
    mutating func encode(_ value: UInt64) throws { append(.uint64(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { append(.encodable(value, integer: nil)) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let object = RecordedObject()
        append(.encodable(RecordedObjectValue(object: object), integer: nil))
        return KeyedEncodingContainer(
            SpecRecordingKeyedContainer<NestedKey>(object: object, codingPath: codingPath, userInfo: userInfo)
        )
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = RecordedArray()
        append(.encodable(nested, integer: nil))
        return SpecRecordingUnkeyedContainer(array: nested, codingPath: codingPath, userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        let slot = RecordingSlot()
        let object = RecordedObject()
        slot.node = .object(object)
        append(.encodable(RecordedObjectValue(object: object), integer: nil))
        return SpecRecordingEncoder(slot: slot, original: nil, codingPath: codingPath, userInfo: userInfo)
    }
}
