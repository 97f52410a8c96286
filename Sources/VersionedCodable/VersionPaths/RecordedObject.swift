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
