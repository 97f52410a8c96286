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
