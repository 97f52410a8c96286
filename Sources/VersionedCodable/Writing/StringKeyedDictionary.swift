/// A dictionary with `String` keys, which coders write with its keys exactly as they are.
///
/// Such a dictionary is handed to the real encoder unwrapped, so that a key encoding strategy
/// does not rewrite its keys, which are data; its entries are checked here instead.
protocol StringKeyedDictionary {
    func entry(_ key: String) -> (any Encodable)?
    /// The dictionary's entries with the spec's part of `object` in it, which `observer` writes:
    /// what the spec writes there takes the place of the type's mirror or copy of it.
    func merging(_ object: SpecObject, by observer: SpecMergingObserver) -> MergedDictionary
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    func entry(_ key: String) -> (any Encodable)? {
        self[key]
    }

    func merging(_ object: SpecObject, by observer: SpecMergingObserver) -> MergedDictionary {
        var entries = [String: MergedDictionary.Entry](minimumCapacity: count + object.entries.count)
        for (key, value) in self {
            entries[key] = .value(value)
        }
        for (key, node) in object.entries {
            switch node {
            case .leaf(let leaf, _):
                if leaf.value != nil {
                    entries[key] = .spec(leaf, observer)
                }
            case .object(let child):
                if child.hasContent {
                    entries[key] = .object(child, observer)
                }
            }
        }
        return MergedDictionary(entries: entries)
    }
}

/// A dictionary of a type's own with the spec's part merged in, written in one piece.
///
/// Foundation's coders merge an object that is opened a second time, so there the spec's part
/// is written into a dictionary after it. Other coders (Yams among them) replace such an
/// object, so for them the dictionary and the spec's part are written together, as one
/// dictionary, whose keys are written as they are, as a dictionary's are.
struct MergedDictionary: Encodable {
    enum Entry: Encodable {
        case value(any Encodable)
        case spec(SpecLeaf, SpecMergingObserver)
        case object(SpecObject, SpecMergingObserver)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .value(let value):
                try value.encode(to: encoder)
            case .spec(let leaf, let observer):
                guard let value = leaf.value else {
                    return
                }
                if leaf.isVersion && observer.isNested {
                    try LibraryVersion(value: value).encode(to: encoder)
                } else {
                    var container = encoder.singleValueContainer()
                    try value.write(to: &container)
                }
            case .object(let object, let observer):
                var container = encoder.container(keyedBy: PathKey.self)
                try observer.write(object, into: &container)
            }
        }
    }

    let entries: [String: Entry]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
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
                    note(.clash(path: child.path, atVersion: false))
                }
                continue
            }
            _ = shouldWrite(WrittenKind.recorded(entry), at: node)
        }
    }
}
