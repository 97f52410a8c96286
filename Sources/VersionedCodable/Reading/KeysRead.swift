/// The keys a spec read at one object of a document, and the objects below it where it read:
/// what the type reading the same object does not see there.
///
/// Made once the spec is done reading, from its ``KeyNotes``, or the default spec's constants
/// (see ``VersionKeyAtRootVersionPathSpec``), and never changed after, so tasks share those.
final class KeysRead: Sendable {
    let keys: [String]
    /// Keys beside the values read that name the older builds that may read the document: not
    /// read, but the spec's all the same.
    let declarations: [String]
    let objects: [(key: String, keys: KeysRead)]

    init(_ keys: [String], declarations: [String] = [], objects: [(key: String, keys: KeysRead)] = []) {
        self.keys = keys
        self.declarations = declarations
        self.objects = objects
    }

    func child(_ key: String) -> KeysRead? {
        objects.first { $0.key == key }?.keys
    }

    /// Whether `key` was read here.
    func owns(_ key: String) -> Bool {
        keys.contains(key) || declarations.contains(key)
    }

    /// Whether `objectKeys`, the keys of an object in a document, are all single values read
    /// here: such an object holds only what the spec wrote.
    func ownsAll(_ objectKeys: [String]) -> Bool {
        objectKeys.allSatisfy { owns($0) && child($0) == nil }
    }
}

/// The keys read at one object of a document, and at the objects below it, while they are
/// read: by a spec, or, at the root of a document newer than this build, by the type, whose
/// unread keys are kept.
///
/// Made for one decode, filled while its reader reads, and ended with it.
final class KeyNotes {
    private(set) var keys: [String] = []
    private var objects: [(key: String, notes: KeyNotes)] = []
    /// Whether the reader asked for a key that is missing or `null` here.
    var metMissingKey = false
    /// Whether the reader read every key at once (a dictionary).
    var readAll = false
    /// Whether the reader forwarded the object to another type, whose keys are not noted.
    var forwarded = false

    init(capacity: Int = 0) {
        keys.reserveCapacity(capacity)
    }

    func note(_ key: String) {
        if !keys.contains(key) {
            keys.append(key)
        }
    }

    /// The notes of the object below `key`, made if the reader has not read one there yet.
    func object(at key: String) -> KeyNotes {
        if let existing = child(key) {
            return existing
        }
        let made = KeyNotes()
        objects.append((key, made))
        note(key)
        return made
    }

    private func child(_ key: String) -> KeyNotes? {
        objects.first { $0.key == key }?.notes
    }

    /// Whether the reader met a missing key or `null` here or below.
    var metMissingKeyAnywhere: Bool {
        metMissingKey || objects.contains { $0.notes.metMissingKeyAnywhere }
    }

    /// What was read, as the spec's place: `made`, the place of an earlier document of the same
    /// type, where it is the same (so that a decode allocates none), or a new one.
    func read(namingOlderBuilds: Bool, as made: KeysRead) -> KeysRead {
        isRead(as: made, namingOlderBuilds: namingOlderBuilds) ? made : read(namingOlderBuilds: namingOlderBuilds)
    }

    /// Whether `place` is what ``read(namingOlderBuilds:)`` makes of these notes.
    private func isRead(as place: KeysRead, namingOlderBuilds: Bool) -> Bool {
        guard keys == place.keys, objects.count == place.objects.count else {
            return false
        }
        var singleValues = 0
        for key in keys {
            if let child = child(key) {
                guard let other = place.child(key), child.isRead(as: other, namingOlderBuilds: namingOlderBuilds) else {
                    return false
                }
            } else {
                singleValues += 1
            }
        }
        // The keys that name older builds follow from the keys read.
        return place.declarations.count == (namingOlderBuilds ? 2 * singleValues : 0)
    }

    /// What was read, as the spec's place. In a document that may name the older builds that
    /// may read and write it, the keys beside each single value read that would name them, if
    /// the value is its version, are the spec's too.
    func read(namingOlderBuilds: Bool) -> KeysRead {
        var declarations: [String] = []
        var below: [(key: String, keys: KeysRead)] = []
        for key in keys {
            if let child = child(key) {
                below.append((key, child.read(namingOlderBuilds: namingOlderBuilds)))
            } else if namingOlderBuilds {
                let declaration = declarationKeys(besideVersionKey: key)
                declarations += [declaration.readable, declaration.writable]
            }
        }
        return KeysRead(keys, declarations: declarations, objects: below)
    }
}
