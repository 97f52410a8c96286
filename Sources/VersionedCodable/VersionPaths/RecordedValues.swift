/// An array a spec wrote, replayed element by element into the real coder.
final class RecordedArray: Encodable {
    var elements: [SpecValue] = []

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in elements {
            try container.encode(SingleSpecValue(value: element))
        }
    }
}

/// One recorded value, written through a single-value container.
struct SingleSpecValue: Encodable {
    let value: SpecValue

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try value.write(to: &container)
    }
}

/// An object a spec wrote inside an array, replayed whole.
struct RecordedObjectValue: Encodable {
    let object: RecordedObject

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PathKey.self)
        try RecordedObjectValue.write(object, into: &container)
    }

    static func write(_ object: RecordedObject, into container: inout KeyedEncodingContainer<PathKey>) throws {
        for (key, node) in object.entries {
            switch node {
            case .leaf(let value):
                try value.write(to: &container, forKey: PathKey(key))
            case .object(let child):
                var nested = container.nestedContainer(keyedBy: PathKey.self, forKey: PathKey(key))
                try write(child, into: &nested)
            }
        }
    }
}
