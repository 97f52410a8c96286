/// Passes everything through to the real encoder, at a place where the spec writes an object,
/// and tells the ``SpecMergingObserver`` what the value writes there.
struct ObservingEncoder: Encoder {
    let base: any Encoder
    let observer: SpecMergingObserver
    /// What the spec writes at this place.
    let object: SpecObject

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        observer.container(of: base, at: object, keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        observer.unkeyedContainer(of: base, at: object)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ObservingSingleValueContainer(base: base.singleValueContainer(), observer: observer, object: object)
    }
}

/// A value the type writes where the spec writes an object, wrapped so that the spec's part of
/// that object is merged in while its encoder is still open.
///
/// Merging there, rather than by opening the same object again from the root afterwards, is
/// what lets coders that build each object when its encoder is released (Yams, XMLCoder) keep
/// both the type's fields and the spec's.
struct MergingSpec<Value: Encodable>: Encodable {
    let value: Value
    let observer: SpecMergingObserver
    let object: SpecObject

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: ObservingEncoder(base: encoder, observer: observer, object: object))
        if observer.isClear {
            try observer.writeRemaining(into: encoder, at: object)
        }
    }
}

/// A dictionary with `String` keys, which coders write with its keys exactly as they are.
///
/// Such a dictionary is handed to the real encoder unwrapped, so that a key encoding strategy
/// does not rewrite its keys, which are data; its entries are checked here instead.
protocol StringKeyedDictionary {
    func entry(_ key: String) -> (any Encodable)?
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    func entry(_ key: String) -> (any Encodable)? {
        self[key]
    }
}

extension SpecMergingObserver {
    /// Checks the entries of a dictionary written where the spec writes `object`.
    func check(_ dictionary: any StringKeyedDictionary, at object: SpecObject) {
        for (key, node) in object.entries {
            guard let entry = dictionary.entry(key) else {
                continue
            }
            if case .object(let child) = node {
                if child.hasContent {
                    note(.clash(path: child.path))
                }
                continue
            }
            _ = shouldWrite(WrittenKind.of(entry), at: node)
        }
    }
}
