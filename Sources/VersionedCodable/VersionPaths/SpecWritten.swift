/// What a spec writes in one encode, object by object, in the order it wrote it: single values
/// kept as they are, for the real coder to write with its own strategies, and objects followed.
///
/// Made for one encode by ``SpecRecorder`` and only read after that, or the default spec's
/// constant (see ``VersionKeyAtRootVersionPathSpec``).
final class SpecWritten {
    // What every encode reads skips dynamic exclusivity checks, which each read would pay: an
    // instance serves the one encode that recorded it, whose accesses never overlap, and the
    // default spec's constant is only read. What only recording touches keeps its checks.
    enum Entry {
        case value(any Encodable)
        /// The version being written, as the default spec writes it: nothing for `nil`.
        case version
        case object(SpecWritten)
    }

    /// The keys from the root to this object.
    let path: [String]
    /// The keys the spec wrote here, in order, and what it wrote under each: kept apart, so that
    /// the type's keys are looked up among the spec's without copying an entry.
    @exclusivity(unchecked) private(set) var keys: [String]
    @exclusivity(unchecked) private(set) var values: [Entry]
    /// Whether the spec opened a keyed container here, so that what it wrote here is an object.
    var opened = false
    /// What makes the spec's part impossible to merge into a document, found while recording:
    /// kept at the root.
    var problem: String?

    init(path: [String], _ entries: [(key: String, entry: Entry)] = []) {
        self.path = path
        keys = entries.map(\.key)
        values = entries.map(\.entry)
    }

    func set(_ key: String, _ entry: Entry) {
        if let index = keys.firstIndex(of: key) {
            values[index] = entry
        } else {
            keys.append(key)
            values.append(entry)
        }
    }

    func entry(_ key: String) -> Entry? {
        keys.firstIndex(of: key).map { values[$0] }
    }

    /// The object at `key`, made if the spec has not written one there yet.
    func object(at key: String) -> SpecWritten {
        if case .object(let existing)? = entry(key) {
            return existing
        }
        let made = SpecWritten(path: path + [key])
        made.opened = true
        set(key, .object(made))
        return made
    }

    /// The paths, depth first in the order the spec wrote them, of the integers here and below,
    /// with their values.
    func integers() -> [(path: [String], value: Int)] {
        zip(keys, values).flatMap { key, entry -> [(path: [String], value: Int)] in
            switch entry {
            case .object(let child): return child.integers()
            case .value(let value): return integer(value).map { [(path + [key], $0)] } ?? []
            case .version: return []
            }
        }
    }
}

/// What the spec wrote, as a document of its own.
extension SpecWritten: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ForwardedKey.self)
        for (key, entry) in zip(keys, values) {
            switch entry {
            case .value(let value): try container.encode(value, forKey: ForwardedKey(stringValue: key))
            case .object(let child): try container.encode(child, forKey: ForwardedKey(stringValue: key))
            case .version: break
            }
        }
    }
}

/// The value as an `Int`, when it is an integer that fits.
func integer(_ value: any Encodable) -> Int? {
    (value as? any BinaryInteger).flatMap { Int(exactly: $0) }
}
