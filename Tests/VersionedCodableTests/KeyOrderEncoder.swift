/// An encoder that writes nothing and lists the keyed paths in the order a value writes them,
/// to check what is written after what; Foundation's encoders do not keep key order.
final class KeyOrderEncoder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    private(set) var writes: [String] = []

    static func keys<T: Encodable>(writtenBy value: T) throws -> [String] {
        let encoder = KeyOrderEncoder()
        try value.encode(to: encoder)
        return encoder.writes
    }

    fileprivate func log(_ path: [String]) {
        writes.append(path.joined(separator: "."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(encoder: self, path: []))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fatalError("not used by these tests")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        fatalError("not used by these tests")
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: KeyOrderEncoder
        let path: [String]
        var codingPath: [any CodingKey] { [] }

        func encodeNil(forKey key: Key) throws { encoder.log(path + [key.stringValue]) }
        func encode<T: Encodable>(_ value: T, forKey key: Key) throws { encoder.log(path + [key.stringValue]) }
        func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(encoder: encoder, path: path + [key.stringValue]))
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            fatalError("not used by these tests")
        }
        func superEncoder() -> any Encoder { encoder }
        func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}
