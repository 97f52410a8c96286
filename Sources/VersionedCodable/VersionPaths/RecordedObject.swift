/// An object a spec wrote, as it is being recorded.
final class RecordedObject {
    var entries: [(key: String, node: RecordedNode)] = []

    func set(_ key: String, _ node: RecordedNode) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].node = node
        } else {
            entries.append((key, node))
        }
    }

    /// Whether `other` holds the same keys with the same values, in any order.
    func isSame(as other: RecordedObject) -> Bool {
        guard entries.count == other.entries.count else {
            return false
        }
        for (key, node) in entries {
            guard let otherNode = other.entries.first(where: { $0.key == key })?.node else {
                return false
            }
            switch (node, otherNode) {
            case (.leaf(let a), .leaf(let b)):
                guard a.isSame(as: b) else { return false }
            case (.object(let a), .object(let b)):
                guard a.isSame(as: b) else { return false }
            default:
                return false
            }
        }
        return true
    }

    func object(at key: String) -> RecordedObject {
        if case .object(let existing)? = entries.first(where: { $0.key == key })?.node {
            return existing
        }
        let made = RecordedObject()
        set(key, .object(made))
        return made
    }
}

/// A value a spec wrote at one key: an object, or a single value.
enum RecordedNode {
    case object(RecordedObject)
    case leaf(SpecValue)
}

/// Where one value's recording goes.
final class RecordingSlot {
    var node: RecordedNode?
}
