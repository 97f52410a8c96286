/// A `Decoder` that hands a type's `init(from:)` placeholder values and records what it reads:
/// which keys, whether each may be absent, and the type of each value.
final class RecordingDecoder: Decoder {
    let recorder: SchemaRecorder
    let codingPath: [any CodingKey]
    let node: RecordedNode
    /// The raw values of the enum being recorded, when it lists its cases: its code gets the
    /// first or the last, as the recorder's variant says, so that `init(rawValue:)` succeeds.
    let rawValues: [JSONValue]?
    /// The raw values, once the code read a raw value of their kind.
    var rawValuesRead: [JSONValue]?

    init(
        recorder: SchemaRecorder,
        codingPath: [any CodingKey],
        node: RecordedNode = RecordedNode(),
        rawValues: [JSONValue]? = nil
    ) {
        self.recorder = recorder
        self.codingPath = codingPath
        self.node = node
        self.rawValues = rawValues
    }

    var userInfo: [CodingUserInfoKey: Any] { recorder.options.userInfo }

    var typeName: String { codingPath.isEmpty ? "the document" : RecordingDecoder.describe(codingPath) }

    static func describe(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "(root)" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    static func pathKey(_ path: [any CodingKey]) -> String {
        path.map(\.stringValue).joined(separator: "\u{1}")
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        node.open(.keyed, typeName: typeName)
        return KeyedDecodingContainer(KeyedRecorder<Key>(decoder: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        node.open(.unkeyed, typeName: typeName)
        return UnkeyedRecorder(decoder: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        node.open(.single, typeName: typeName)
        return SingleRecorder(decoder: self, node: node, codingPath: codingPath)
    }

    /// A decoder for a value inside this one, recording into `node`.
    func child(at path: [any CodingKey], node: RecordedNode) -> RecordingDecoder {
        RecordingDecoder(recorder: recorder, codingPath: path, node: node)
    }
}

/// Records the keys a type reads: `decode` makes a key required, `decodeIfPresent`, `contains`
/// and `decodeNil` make it optional.
struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RecordingDecoder
    let node: RecordedNode
    let codingPath: [any CodingKey]

    private var emptied: JSONSchema? { decoder.recorder.emptiedContainers[RecordingDecoder.pathKey(codingPath)] }

    /// Asked for by dictionaries: one key, whose value's schema is that of every value, or none
    /// on a run after the value turned out to be the enclosing type itself.
    var allKeys: [Key] {
        node.readsAllKeys = true
        if let emptied {
            node.additionalValues = .schema(emptied)
            return []
        }
        return Key(stringValue: Self.anyKey).map { [$0] } ?? []
    }

    /// The key handed to code that lists the keys; its value describes every other key.
    static var anyKey: String { "0" }

    private func documentKey(_ key: Key) -> String {
        let (name, problem) = decoder.recorder.options.documentKey(for: key, at: codingPath)
        if let problem {
            node.notes.append(problem)
        }
        return name
    }

    private func isAnyKey(_ key: Key) -> Bool {
        node.readsAllKeys && key.stringValue == Self.anyKey
    }

    private func store(_ slot: RecordedNode.Slot, for key: Key) {
        if isAnyKey(key) {
            node.additionalValues = slot
        } else {
            node.properties[documentKey(key)] = slot
        }
    }

    func contains(_ key: Key) -> Bool {
        if !isAnyKey(key) {
            node.optionalKeys.insert(documentKey(key))
        }
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if !isAnyKey(key) {
            let name = documentKey(key)
            node.optionalKeys.insert(name)
            node.nullableKeys.insert(name)
        }
        return false
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        do {
            let (value, schema) = try decoder.recorder.record(T.self, at: codingPath + [key])
            store(.schema(schema), for: key)
            return value
        } catch var stopped as RecordingStopped {
            store(.schema(stopped.schema), for: key)
            stopped.stoppedAt = stopped.stoppedAt ?? RecordingDecoder.describe(codingPath + [key])
            if stopped.isRecursion, isAnyKey(key) {
                decoder.recorder.emptiedContainers[RecordingDecoder.pathKey(codingPath)] = stopped.schema
                stopped.retry = true
            }
            throw stopped
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(type, key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        _ = try decodeNil(forKey: key)
        do {
            return try decode(type, key)
        } catch let stopped as RecordingStopped where stopped.isRecursion && !stopped.retry {
            // An optional value of the enclosing type: absent ends the recursion.
            return nil
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let child = RecordedNode()
        store(.node(child), for: key)
        return try decoder.child(at: codingPath + [key], node: child).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let child = RecordedNode()
        store(.node(child), for: key)
        return try decoder.child(at: codingPath + [key], node: child).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(forKey: Key(stringValue: "super") ?? Key(intValue: 0)!)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let child = RecordedNode()
        store(.node(child), for: key)
        return decoder.child(at: codingPath + [key], node: child)
    }
}

/// Records the element of an array: the container holds one element, so that the element's
/// type is recorded, and then ends.
struct UnkeyedRecorder: UnkeyedDecodingContainer {
    let decoder: RecordingDecoder
    let node: RecordedNode
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0
    private let isEmptied: Bool

    init(decoder: RecordingDecoder, node: RecordedNode, codingPath: [any CodingKey]) {
        self.decoder = decoder
        self.node = node
        self.codingPath = codingPath
        if let emptied = decoder.recorder.emptiedContainers[RecordingDecoder.pathKey(codingPath)] {
            node.element = .schema(emptied)
            isEmptied = true
        } else {
            isEmptied = false
        }
    }

    var count: Int? { isEmptied ? 0 : 1 }
    var isAtEnd: Bool { isEmptied || currentIndex >= 1 }

    private var elementPath: [any CodingKey] { codingPath + [AnyCodingKey(intValue: currentIndex)!] }

    private func store(_ slot: RecordedNode.Slot) {
        if node.element == nil {
            node.element = slot
        } else if case .schema(let new) = slot, case .schema(let old) = node.element, new != old {
            node.notes.append("elements at \(RecordingDecoder.describe(codingPath)) are read as different types")
        }
    }

    mutating func decodeNil() throws -> Bool {
        node.elementIsNullable = true
        return false
    }

    mutating func decodeElement<T: Decodable>(_ type: T.Type) throws -> T {
        defer { currentIndex += 1 }
        do {
            let (value, schema) = try decoder.recorder.record(T.self, at: elementPath)
            store(.schema(schema))
            return value
        } catch var stopped as RecordingStopped {
            store(.schema(stopped.schema))
            stopped.stoppedAt = stopped.stoppedAt ?? RecordingDecoder.describe(elementPath)
            if stopped.isRecursion {
                decoder.recorder.emptiedContainers[RecordingDecoder.pathKey(codingPath)] = stopped.schema
                stopped.retry = true
            }
            throw stopped
        }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeElement(type)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeElement(Bool.self) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeElement(String.self) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeElement(Double.self) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeElement(Float.self) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeElement(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeElement(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeElement(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeElement(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeElement(Int64.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeElement(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeElement(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeElement(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeElement(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeElement(UInt64.self) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let child = RecordedNode()
        store(.node(child))
        defer { currentIndex += 1 }
        return try decoder.child(at: elementPath, node: child).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let child = RecordedNode()
        store(.node(child))
        defer { currentIndex += 1 }
        return try decoder.child(at: elementPath, node: child).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let child = RecordedNode()
        store(.node(child))
        defer { currentIndex += 1 }
        return decoder.child(at: elementPath, node: child)
    }
}

/// Records the one value a type reads, such as an enum's raw value.
struct SingleRecorder: SingleValueDecodingContainer {
    let decoder: RecordingDecoder
    let node: RecordedNode
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        node.singleIsNullable = true
        return false
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let rawValues = decoder.rawValues,
            let chosen = decoder.recorder.variant == 0 ? rawValues.first : rawValues.last
        {
            let placeholder: Any? =
                switch chosen {
                case .string(let string): string
                case .number(let number): Int("\(number)")
                default: nil
                }
            if let value = placeholder as? T {
                let (_, schema) = try decoder.recorder.record(T.self, at: codingPath)
                node.single = .schema(schema)
                decoder.rawValuesRead = rawValues
                return value
            }
        }
        do {
            let (value, schema) = try decoder.recorder.record(T.self, at: codingPath)
            node.single = .schema(schema)
            return value
        } catch let stopped as RecordingStopped {
            node.single = .schema(stopped.schema)
            throw stopped
        }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(type)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(Bool.self) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(String.self) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(UInt64.self) }
}
