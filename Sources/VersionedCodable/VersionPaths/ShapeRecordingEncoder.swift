/// An encoder that writes nothing and records the keyed path of every single value a value
/// writes, with the value when it is an integer.
///
/// It finds where a ``VersionPathSpec`` puts the version, by encoding a spec once (see
/// ``VersionPath``).
final class ShapeRecording {
    struct Entry {
        var path: [String]
        var integer: Int?
    }

    private(set) var entries: [Entry] = []

    func record(_ path: [String], integer: Int?) {
        entries.append(Entry(path: path, integer: integer))
    }

    static func record<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: Any]) throws -> [Entry] {
        let recording = ShapeRecording()
        try value.encode(to: ShapeRecordingEncoder(recording: recording, path: [], userInfo: userInfo))
        return recording.entries
    }
}

struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) {
        stringValue = string
    }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }
}

struct ShapeRecordingEncoder: Encoder {
    let recording: ShapeRecording
    let path: [String]
    let userInfo: [CodingUserInfoKey: Any]

    var codingPath: [any CodingKey] { path.map { PathKey($0) } }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ShapeRecordingKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ShapeRecordingUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ShapeRecordingSingleValueContainer(encoder: self)
    }

    func at(_ key: String) -> ShapeRecordingEncoder {
        ShapeRecordingEncoder(recording: recording, path: path + [key], userInfo: userInfo)
    }
}

struct ShapeRecordingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ShapeRecordingEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func leaf(_ key: Key, _ integer: Int? = nil) {
        encoder.recording.record(encoder.path + [key.stringValue], integer: integer)
    }

    mutating func encodeNil(forKey key: Key) throws { leaf(key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { leaf(key) }
    mutating func encode(_ value: String, forKey key: Key) throws { leaf(key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { leaf(key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { leaf(key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { leaf(key, value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { leaf(key, Int(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { leaf(key, Int(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { leaf(key, Int(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { leaf(key, Int(exactly: value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { leaf(key, Int(exactly: value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { leaf(key, Int(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { leaf(key, Int(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { leaf(key, Int(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { leaf(key, Int(exactly: value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try value.encode(to: encoder.at(key.stringValue))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.at(key.stringValue).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.at(key.stringValue).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder.at("super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.at(key.stringValue) }
}

/// Elements of arrays are not followed: a version path runs through keyed objects only.
struct ShapeRecordingUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ShapeRecordingEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private(set) var count = 0

    init(encoder: ShapeRecordingEncoder) {
        self.encoder = encoder
    }

    private var discarding: ShapeRecordingEncoder {
        ShapeRecordingEncoder(recording: ShapeRecording(), path: [], userInfo: encoder.userInfo)
    }

    mutating func encodeNil() throws { count += 1 }
    mutating func encode(_ value: Bool) throws { count += 1 }
    mutating func encode(_ value: String) throws { count += 1 }
    mutating func encode(_ value: Double) throws { count += 1 }
    mutating func encode(_ value: Float) throws { count += 1 }
    mutating func encode(_ value: Int) throws { count += 1 }
    mutating func encode(_ value: Int8) throws { count += 1 }
    mutating func encode(_ value: Int16) throws { count += 1 }
    mutating func encode(_ value: Int32) throws { count += 1 }
    mutating func encode(_ value: Int64) throws { count += 1 }
    mutating func encode(_ value: UInt) throws { count += 1 }
    mutating func encode(_ value: UInt8) throws { count += 1 }
    mutating func encode(_ value: UInt16) throws { count += 1 }
    mutating func encode(_ value: UInt32) throws { count += 1 }
    mutating func encode(_ value: UInt64) throws { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        count += 1
        return discarding.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return discarding.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        count += 1
        return discarding
    }
}

struct ShapeRecordingSingleValueContainer: SingleValueEncodingContainer {
    let encoder: ShapeRecordingEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func leaf(_ integer: Int? = nil) {
        encoder.recording.record(encoder.path, integer: integer)
    }

    mutating func encodeNil() throws { leaf() }
    mutating func encode(_ value: Bool) throws { leaf() }
    mutating func encode(_ value: String) throws { leaf() }
    mutating func encode(_ value: Double) throws { leaf() }
    mutating func encode(_ value: Float) throws { leaf() }
    mutating func encode(_ value: Int) throws { leaf(value) }
    mutating func encode(_ value: Int8) throws { leaf(Int(value)) }
    mutating func encode(_ value: Int16) throws { leaf(Int(value)) }
    mutating func encode(_ value: Int32) throws { leaf(Int(value)) }
    mutating func encode(_ value: Int64) throws { leaf(Int(exactly: value)) }
    mutating func encode(_ value: UInt) throws { leaf(Int(exactly: value)) }
    mutating func encode(_ value: UInt8) throws { leaf(Int(value)) }
    mutating func encode(_ value: UInt16) throws { leaf(Int(value)) }
    mutating func encode(_ value: UInt32) throws { leaf(Int(value)) }
    mutating func encode(_ value: UInt64) throws { leaf(Int(exactly: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: encoder) }
}
