/// Lists the fields a version of a type reads, by decoding it from a decoder that has every
/// key and answers with empty values: `""`, `0`, `false`, empty arrays, `nil` for optionals.
///
/// A type whose decoding refuses an empty value (an enum whose raw values do not include `""`
/// or `0` and that is not `CaseIterable`, a `URL`) cannot be listed this way; ``fields(of:userInfo:)``
/// returns `nil` for it rather than the fields it read before it stopped.
enum FieldProbe {
    static func fields(of type: any Decodable.Type, userInfo: [CodingUserInfoKey: Any]) -> [String]? {
        let recorder = Recorder()
        do {
            _ = try type.init(from: ProbeDecoder(recorder: recorder, depth: 0, userInfo: userInfo))
        } catch {
            return nil
        }
        return recorder.keys
    }

    final class Recorder {
        var keys: [String] = []

        func record(_ key: some CodingKey, depth: Int) {
            if depth == 0, !keys.contains(key.stringValue) {
                keys.append(key.stringValue)
            }
        }
    }

    /// A value to return where the decoded type is one the probe cannot make empty, but can
    /// pick a case of.
    static func someCase<T>(of type: T.Type) -> T? {
        guard let cases = type as? any CaseIterable.Type else { return nil }
        return firstCase(cases) as? T
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? {
        type.allCases.first
    }
}

private struct ProbeDecoder: Decoder {
    let recorder: FieldProbe.Recorder
    let depth: Int
    let userInfo: [CodingUserInfoKey: Any]
    var codingPath: [any CodingKey] { [] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ProbeUnkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleValueContainer(decoder: self)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let empty = FieldProbe.someCase(of: type) {
            return empty
        }
        // A type that holds itself without an array or an optional between would recurse for
        // ever; no document could hold one either.
        guard depth < 32 else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The probe nests too deep."))
        }
        return try T(from: ProbeDecoder(recorder: recorder, depth: depth + 1, userInfo: userInfo))
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool {
        decoder.recorder.record(key, depth: decoder.depth)
        return true
    }

    /// Every optional is absent: its type is never asked to decode an empty value.
    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.recorder.record(key, depth: decoder.depth)
        return true
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { record(key, false) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { record(key, "") }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { record(key, 0) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { record(key, 0) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { record(key, 0) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { record(key, 0) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { record(key, 0) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { record(key, 0) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { record(key, 0) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { record(key, 0) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { record(key, 0) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { record(key, 0) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { record(key, 0) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { record(key, 0) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        decoder.recorder.record(key, depth: decoder.depth)
        return try decoder.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        decoder.recorder.record(key, depth: decoder.depth)
        return try nested.container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        decoder.recorder.record(key, depth: decoder.depth)
        return ProbeUnkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.recorder.record(key, depth: decoder.depth)
        return nested
    }

    private var nested: ProbeDecoder {
        ProbeDecoder(recorder: decoder.recorder, depth: decoder.depth + 1, userInfo: decoder.userInfo)
    }

    private func record<T>(_ key: Key, _ value: T) -> T {
        decoder.recorder.record(key, depth: decoder.depth)
        return value
    }
}

/// Every array is empty.
private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    private func end() -> DecodingError {
        DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "The probe's arrays are empty."))
    }

    mutating func decodeNil() throws -> Bool { throw end() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end() }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> { throw end() }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end() }
    mutating func superDecoder() throws -> any Decoder { throw end() }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { false }
    func decode(_ type: String.Type) throws -> String { "" }
    func decode(_ type: Double.Type) throws -> Double { 0 }
    func decode(_ type: Float.Type) throws -> Float { 0 }
    func decode(_ type: Int.Type) throws -> Int { 0 }
    func decode(_ type: Int8.Type) throws -> Int8 { 0 }
    func decode(_ type: Int16.Type) throws -> Int16 { 0 }
    func decode(_ type: Int32.Type) throws -> Int32 { 0 }
    func decode(_ type: Int64.Type) throws -> Int64 { 0 }
    func decode(_ type: UInt.Type) throws -> UInt { 0 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
