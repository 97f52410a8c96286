import Foundation

/// An object of one document where its spec wrote or read: the keys the spec used there, in
/// the order it used them, each holding a value or an object below.
///
/// A place records what the spec's own code did with this document, as it did it: reading
/// notes each key the spec's decode read (see ``SpecReadingDecoder``), writing keeps what its
/// encode wrote for the version being written (see ``SpecRecorder``). Nothing is inferred from
/// other documents, and a place lives only as long as the decode or encode that made it.
// `@unchecked Sendable`: a place is filled in by the one decode or encode that made it, before
// anything else reads it; the shared default places are never changed after they are made.
final class SpecPlace: @unchecked Sendable {
    enum Entry {
        /// What the spec wrote here; when reading, a key the spec read a value at.
        case value(any Encodable)
        case object(SpecPlace)
    }

    /// The keys from the root to this object.
    let path: [String]
    private(set) var entries: [(key: String, entry: Entry)] = []
    /// Whether the spec used objects inside this one.
    private(set) var hasObjects = false
    /// Whether the spec opened a keyed container here, so that what it wrote here is an object.
    var opened = false
    /// The root place: the one this place is below, or itself.
    private(set) unowned var root: SpecPlace! = nil
    /// Whether the spec, reading, asked for a key that is missing or `null` in the document.
    var metMissingKey = false

    init(path: [String], _ entries: [(key: String, entry: Entry)] = []) {
        self.path = path
        defer { root = root ?? self }
        for (key, entry) in entries {
            set(key, entry)
        }
    }

    /// The default spec's place when reading: a `version` key at the root.
    static let versionAtRoot = SpecPlace(path: [], [("version", .value(true))])
    /// The same, in a document that names the older builds that may read it.
    static let versionAtRootNamingOlderBuilds =
        SpecPlace(path: [], ["version", "versionReadableFrom", "versionWritableFrom"].map { ($0, .value(true)) })

    func set(_ key: String, _ entry: Entry) {
        if case .object = entry {
            hasObjects = true
        }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].entry = entry
        } else {
            entries.append((key, entry))
        }
    }

    func entry(_ key: String) -> Entry? {
        entries.first { $0.key == key }?.entry
    }

    /// The object at `key`, made if the spec has not used one there yet.
    func object(at key: String) -> SpecPlace {
        if let existing = child(key) {
            return existing
        }
        let made = SpecPlace(path: path + [key])
        made.root = root
        made.opened = true
        set(key, .object(made))
        return made
    }

    func child(_ key: String) -> SpecPlace? {
        if case .object(let child)? = entry(key) { child } else { nil }
    }

    /// Whether the spec used `key` here.
    func owns(_ key: String) -> Bool {
        entry(key) != nil
    }

    /// Whether a container keyed by `Key` can write any key the spec owns here: synthesized
    /// keys cannot be made from a string they do not list, and such a container needs no
    /// watching. Any container can write "super", through its key-less super encoder.
    func canBeWritten<Key: CodingKey>(with key: Key.Type) -> Bool {
        entries.contains { $0.key == "super" || Key(stringValue: $0.key) != nil }
    }

    /// Whether `objectKeys`, the keys of an object in a document, are all single values the
    /// spec used: such an object, empty ones included, holds only what the spec wrote.
    func ownsAll(_ objectKeys: [String]) -> Bool {
        objectKeys.allSatisfy { if case .value? = entry($0) { true } else { false } }
    }

    /// The paths, depth first in the order the spec used them, of the single values here and
    /// below; with `integers`, only of the integers.
    func valuePaths(integers: Bool) -> [[String]] {
        entries.flatMap { key, entry -> [[String]] in
            switch entry {
            case .object(let child): return child.valuePaths(integers: integers)
            case .value(let value): return !integers || integer(value) != nil ? [path + [key]] : []
            }
        }
    }

    /// Adds, beside each single value the spec read, the keys that would name the older builds
    /// that may read and write the document if it were the version: in a document that may
    /// hold them, they are the spec's too.
    func addOlderBuildsKeys() {
        for (key, entry) in entries {
            switch entry {
            case .object(let child):
                child.addOlderBuildsKeys()
            case .value:
                let keys = declarationKeys(besideVersionKey: key)
                set(keys.readable, .value(true))
                set(keys.writable, .value(true))
            }
        }
    }
}

/// The value as an `Int`, when it is an integer that fits.
func integer(_ value: any Encodable) -> Int? {
    (value as? any BinaryInteger).flatMap { Int(exactly: $0) }
}
