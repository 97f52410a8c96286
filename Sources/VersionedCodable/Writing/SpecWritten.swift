/// What a spec writes in one encode, object by object, in the order it wrote it: single values
/// kept as they are, for the real coder to write with its own strategies, and objects followed.
///
/// Made whole by ``SpecRecorder`` for one encode, or the default spec's constant (see
/// ``VersionKeyAtRootVersionPathSpec``), and never changed after: an encode only reads it. Its
/// root is the one object whose path is empty.
// `@unchecked` because a spec's values are `any Encodable`, which the compiler cannot see are
// not shared: the default spec's constant holds only a `nil` in the version's place, and a
// recorded one is read only by the encode that recorded it.
struct SpecWritten: @unchecked Sendable {
    enum Entry {
        case value(any Encodable)
        indirect case object(SpecWritten)
    }

    /// The keys from the root to this object.
    let path: [String]
    /// The keys the spec wrote here, in order, and what it wrote under each: kept apart, so that
    /// the type's keys are looked up among the spec's without copying an entry.
    let keys: [String]
    let values: [Entry]
    /// Where the value is the version being written rather than the one stored: the default
    /// spec's `version`, whose constant serves every encode (nothing is written for `nil`).
    let versionIndex: Int?

    init(path: [String], keys: [String], values: [Entry], versionIndex: Int? = nil) {
        self.path = path
        self.keys = keys
        self.values = values
        self.versionIndex = versionIndex
    }

    /// The paths, depth first in the order the spec wrote them, of the integers here and below,
    /// with their values.
    func integers() -> [(path: [String], value: Int)] {
        zip(keys, values).enumerated().flatMap { index, item -> [(path: [String], value: Int)] in
            switch item.1 {
            case .object(let child): return child.integers()
            case .value where index == versionIndex: return []
            case .value(let value): return integer(value).map { [(path + [item.0], $0)] } ?? []
            }
        }
    }
}

/// What the spec wrote, as a document of its own.
extension SpecWritten: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ForwardedKey.self)
        for (index, (key, entry)) in zip(keys, values).enumerated() where index != versionIndex {
            switch entry {
            case .value(let value): try container.encode(value, forKey: ForwardedKey(stringValue: key))
            case .object(let child): try container.encode(child, forKey: ForwardedKey(stringValue: key))
            }
        }
    }
}

/// The value as an `Int`, when it is an integer that fits.
func integer(_ value: any Encodable) -> Int? {
    (value as? any BinaryInteger).flatMap { Int(exactly: $0) }
}
