/// The keys read at one object of one document, and at the objects below it: by a spec, whose
/// keys the type reading the same document does not see, or, at the root of a document newer
/// than this build, by the type, whose unread keys are kept.
///
/// Made for one decode, filled while its reader reads, and only read after that, or the default
/// spec's constant (see ``VersionKeyAtRootVersionPathSpec``).
final class KeysRead {
    var keys: [String]
    /// Keys beside the values read that name the older builds that may read the document: not
    /// read, but the spec's all the same.
    private(set) var declarations: [String] = []
    private(set) var objects: [(key: String, keys: KeysRead)] = []
    /// Whether the reader asked for a key that is missing or `null` here.
    var metMissingKey = false
    /// Whether the reader read every key at once (a dictionary).
    var readAll = false
    /// Whether the reader forwarded the object to another type, whose keys are not noted.
    var forwarded = false

    init(_ keys: [String] = []) {
        self.keys = keys
    }

    func note(_ key: String) {
        if !keys.contains(key) {
            keys.append(key)
        }
    }

    /// The object below `key`, made if the reader has not read one there yet.
    func object(at key: String) -> KeysRead {
        if let existing = child(key) {
            return existing
        }
        let made = KeysRead()
        objects.append((key, made))
        note(key)
        return made
    }

    func child(_ key: String) -> KeysRead? {
        objects.first { $0.key == key }?.keys
    }

    /// Whether `key` was read here.
    func owns(_ key: String) -> Bool {
        keys.contains(key) || declarations.contains(key)
    }

    /// Whether the reader met a missing key or `null` here or below.
    var metMissingKeyAnywhere: Bool {
        metMissingKey || objects.contains { $0.keys.metMissingKeyAnywhere }
    }

    /// Whether `objectKeys`, the keys of an object in a document, are all single values read
    /// here: such an object holds only what the spec wrote.
    func ownsAll(_ objectKeys: [String]) -> Bool {
        objectKeys.allSatisfy { owns($0) && child($0) == nil }
    }

    /// A copy with, beside each single value read, the keys that name the older builds that
    /// may read and write the document if the value is its version: in a document that may hold
    /// them, they are the spec's too.
    func addingOlderBuildsKeys() -> KeysRead {
        let copy = KeysRead(keys)
        for key in keys {
            if let child = child(key) {
                copy.objects.append((key, child.addingOlderBuildsKeys()))
            } else {
                let declaration = declarationKeys(besideVersionKey: key)
                copy.declarations += [declaration.readable, declaration.writable]
            }
        }
        return copy
    }
}
