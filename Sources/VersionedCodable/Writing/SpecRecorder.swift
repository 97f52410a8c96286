/// Records what a ``VersionPathSpec`` writes for one encode, and makes a ``SpecWritten`` of it
/// once the spec is done: keyed objects are followed, and everything else is kept as the value it
/// is, so that the real coder writes it later, merged into what the type writes, with its own
/// strategies.
///
/// The spec's encoding runs once per encode, with the encoder's `userInfo`, so what is merged is
/// exactly what the spec writes this time, whatever it depends on. It is also its own
/// single-value container: a value written there is followed at the same place. A discarding
/// recorder (see ``discarding()``) is also the unkeyed container of what a spec writes as an array,
/// whose elements it takes and keeps nowhere.
struct SpecRecorder: Encoder, SingleValueEncodingContainer, UnkeyedEncodingContainer {
    /// How deep a spec may nest objects: as deep as JSON's reader reads. A spec that goes deeper
    /// is refused rather than followed, so that it cannot make the library recurse without end.
    static let maximumDepth = 512

    let node: Recording
    /// Where a problem is noted.
    let root: Recording
    let userInfo: [CodingUserInfoKey: Any]
    var codingPath: [any CodingKey] { [] }

    /// Records what `spec` writes at the root of a document.
    ///
    /// - Throws: ``VersionedDecodingError/invalidVersionChain(_:)`` when what it writes cannot
    ///   be merged into a document, and whatever the spec's encoding throws.
    static func record(_ spec: some VersionPathSpec, userInfo: [CodingUserInfoKey: Any]) throws -> SpecWritten {
        let root = Recording(path: [])
        try spec.encode(to: SpecRecorder(node: root, root: root, userInfo: userInfo))
        if let problem = root.problem {
            throw VersionedDecodingError.invalidVersionChain(.unsupportedSpec(type(of: spec), reason: problem))
        }
        return root.written
    }

    /// What a spec has written at one object so far: it ends with the recording, once a
    /// ``SpecWritten`` is made of it.
    final class Recording {
        let path: [String]
        /// Whether the spec reached this object through `nestedContainer` or `superEncoder` at
        /// its key, rather than by following a value it wrote there.
        let isOpenedAtKey: Bool
        /// What the spec wrote here: the keys, what was written under each (an object recorded
        /// whole as what it stays), and the objects opened with `nestedContainer` or
        /// `superEncoder`, which the spec may still write into, made what they stay once the spec
        /// is done. One stored value, so that recording a key is one checked access.
        private var recorded: Recorded = ([], [], [])
        private typealias Recorded = (
            keys: [String], values: [SpecWritten.Entry], opening: [(index: Int, object: Recording)]
        )
        /// Whether the spec opened a keyed container here, so that what it wrote here is an
        /// object.
        var opened = false
        /// A single value written here through a super encoder: the key's value, where no keyed
        /// container was opened.
        var single: (any Encodable)?
        /// What makes the spec's part impossible to merge into a document, found while
        /// recording: kept at the root.
        var problem: String?

        init(path: [String], isOpenedAtKey: Bool = false) {
            self.path = path
            self.isOpenedAtKey = isOpenedAtKey
        }

        func set(_ key: String, _ entry: SpecWritten.Entry) {
            Self.set(key, entry, in: &recorded)
        }

        private static func set(_ key: String, _ entry: SpecWritten.Entry, in recorded: inout Recorded) {
            if let index = recorded.keys.firstIndex(of: key) {
                recorded.values[index] = entry
                recorded.opening.removeAll { $0.index == index }
            } else {
                recorded.keys.append(key)
                recorded.values.append(entry)
            }
        }

        /// The object opened at `key`, made if the spec has not opened one there yet, with what
        /// it wrote there already as an object.
        func object(at key: String) -> Recording {
            let index = recorded.keys.firstIndex(of: key)
            if let index, let existing = recorded.opening.first(where: { $0.index == index }) {
                return existing.object
            }
            let made = Recording(path: path + [key], isOpenedAtKey: true)
            if let index, case .object(let written) = recorded.values[index] {
                made.recorded.keys = written.keys
                made.recorded.values = written.values
            }
            // Its place in the order is taken now; what stands there is replaced once the spec
            // is done, by ``written``.
            set(key, .value(Int?.none))
            recorded.opening.append((recorded.keys.firstIndex(of: key)!, made))
            return made
        }

        /// What was recorded here and below, as it stays.
        var written: SpecWritten {
            var recorded = recorded
            for (index, opened) in recorded.opening {
                if !opened.opened, let single = opened.single {
                    recorded.values[index] = .value(single)
                } else {
                    recorded.values[index] = .object(opened.written)
                }
            }
            return SpecWritten(path: path, keys: recorded.keys, values: recorded.values)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.opened = true
        return KeyedEncodingContainer(RecordingContainer<Key>(recorder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.path.isEmpty {
            root.problem = "writes an array at the root of the document"
        } else if node.isOpenedAtKey {
            root.problem = "writes an array through superEncoder(forKey:); write it with encode(_:forKey:)"
        }
        return discarding()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The single value `value` writes, where it writes one and nothing else (a `String`-backed
    /// enum writes its raw value), as the spec's single values are recorded.
    static func singleValue(of value: any Encodable, userInfo: [CodingUserInfoKey: Any]) -> (any Encodable)? {
        let node = Recording(path: ["-"], isOpenedAtKey: true)
        guard (try? value.encode(to: SpecRecorder(node: node, root: node, userInfo: userInfo))) != nil,
            !node.opened, node.problem == nil
        else {
            return nil
        }
        return node.single
    }

    /// A recorder whose recording is kept nowhere: for what a spec writes inside an array, or
    /// past the depth it may nest. The values written there are encoded as they will be when the
    /// real coder writes them, with the same `userInfo`.
    func discarding() -> SpecRecorder {
        let discarded = Recording(path: ["-"])
        return SpecRecorder(node: discarded, root: discarded, userInfo: userInfo)
    }

    // As an array's container, where only a discarding recorder is handed out: an element is
    // taken as a value written here, and a container opened for one is this recorder's own.
    var count: Int { 0 }
    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        container(keyedBy: keyType)
    }
    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    func superEncoder() -> any Encoder { self }

    /// What `value` writes at `key`: an object, followed, or the value itself. A dictionary is a
    /// value, as an array is: its keys are data, which the coder writes as a plain encode does,
    /// and a type's value under its key would change it, so it clashes.
    func entry<T: Encodable>(for value: T, at key: String) throws -> SpecWritten.Entry {
        if Route(T.self, hasPlace: { true }) != .follow {
            return .value(value)
        }
        let object = Recording(path: node.path + [key])
        try value.encode(to: SpecRecorder(node: object, root: root, userInfo: userInfo))
        return object.opened ? .object(object.written) : .value(value)
    }

    func encodeNil() throws { try encode(Int?.none) }

    /// A value that is not a single value itself (a struct the spec forwards its encoding to)
    /// is followed at the same place. A single value there cannot stand at the root; below it,
    /// the container above records the value it was handed whole, and a super encoder's
    /// object stands for this one (`try version.encode(to: container.superEncoder(forKey:))`).
    func encode<T: Encodable>(_ value: T) throws {
        if Route(T.self, hasPlace: { true }) == .follow, !(value is any NilRepresentable) {
            return try value.encode(to: self)
        }
        if node.path.isEmpty {
            root.problem = "writes a single value at the root of the document"
        } else if node.isOpenedAtKey {
            node.single = value
        }
    }
}

private struct RecordingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let recorder: SpecRecorder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { recorder.node.set(key.stringValue, .value(Int?.none)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if !isTooDeep() {
            recorder.node.set(key.stringValue, try recorder.entry(for: value, at: key.stringValue))
        }
    }

    /// Whether an object below this one would nest past ``SpecRecorder/maximumDepth``: then it is
    /// not followed, and the recording is refused with the problem once the spec is done.
    private func isTooDeep() -> Bool {
        guard recorder.node.path.count >= SpecRecorder.maximumDepth else {
            return false
        }
        recorder.root.problem = "nests objects more than \(SpecRecorder.maximumDepth) deep"
        return true
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        subrecorder(key.stringValue).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        recorder.root.problem = "writes an array with nestedUnkeyedContainer(forKey:); write it with encode(_:forKey:)"
        return recorder.discarding()
    }

    // The default key of a super encoder is "super", whether or not `Key` can name it.
    mutating func superEncoder() -> any Encoder { subrecorder("super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { subrecorder(key.stringValue) }

    private func subrecorder(_ key: String) -> SpecRecorder {
        if isTooDeep() {
            return recorder.discarding()
        }
        return SpecRecorder(node: recorder.node.object(at: key), root: recorder.root, userInfo: recorder.userInfo)
    }
}
