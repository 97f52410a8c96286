/// Records what a ``VersionPathSpec`` writes for one encode, object by object, and makes a
/// ``SpecWritten`` of it once the spec is done: keyed objects are followed, and everything else is
/// kept as the value it is, so that the real coder writes it later, merged into what the type
/// writes, with its own strategies.
///
/// The spec's encoding runs once per encode, with the encoder's `userInfo`, so what is merged is
/// exactly what the spec writes this time, whatever it depends on. Each object the spec writes
/// gets a recorder of its own, which is also its single-value container: a value written there is
/// followed at the same place. A discarding recorder (see ``discarding()``) is also the unkeyed
/// container of what a spec writes as an array, whose elements it takes unseen: the array is
/// recorded whole by the container above, and the real coder writes its elements later.
///
/// A recorder and what it records end with the recording, once a ``SpecWritten`` is made of it.
final class SpecRecorder: Encoder, SingleValueEncodingContainer, UnkeyedEncodingContainer {
    /// How deep a spec may nest objects: as deep as JSON's reader reads. A spec that goes deeper
    /// is refused rather than followed, so that it cannot make the library recurse without end.
    static let maximumDepth = 512

    let path: [String]
    /// Whether the spec reached this object through `nestedContainer` or `superEncoder` at its
    /// key, rather than by following a value it wrote there.
    let isOpenedAtKey: Bool
    /// Whether what is written here is kept nowhere and never encoded (see ``discarding()``).
    let discards: Bool
    let userInfo: [CodingUserInfoKey: Any]
    var codingPath: [any CodingKey] { [] }
    /// What the spec wrote here: the keys, what was written under each (an object recorded whole
    /// as what it stays), and the objects opened with `nestedContainer` or `superEncoder`, which
    /// the spec may still write into, made what they stay once the spec is done (at index -1
    /// where a value written at the same key replaced them, for their problems alone). One stored
    /// value, so that recording a key is one checked access.
    private var recorded: Recorded = ([], [], [])
    private typealias Recorded = (
        keys: [String], values: [SpecWritten.Entry], opening: [(index: Int, object: SpecRecorder)]
    )
    /// Whether the spec opened a keyed container here, so that what it wrote here is an object.
    private(set) var opened = false
    /// A single value written here through a super encoder: the key's value, where no keyed
    /// container was opened.
    private var single: (any Encodable)?
    /// The first thing found here, or in a value followed from here, that makes the spec's part
    /// impossible to merge into a document; those of the objects opened here, even those a value
    /// replaced since, are gathered by ``made()``.
    private(set) var problem: String?

    init(path: [String], isOpenedAtKey: Bool = false, discards: Bool = false, userInfo: [CodingUserInfoKey: Any]) {
        self.path = path
        self.isOpenedAtKey = isOpenedAtKey
        self.discards = discards
        self.userInfo = userInfo
    }

    /// Records what `spec` writes at the root of a document.
    ///
    /// - Throws: ``VersionedDecodingError/invalidVersionChain(_:)`` when what it writes cannot
    ///   be merged into a document, and whatever the spec's encoding throws.
    static func record(_ spec: some VersionPathSpec, userInfo: [CodingUserInfoKey: Any]) throws -> SpecWritten {
        let root = SpecRecorder(path: [], userInfo: userInfo)
        try spec.encode(to: root)
        let (written, problem) = root.made()
        if let problem {
            throw VersionedDecodingError.invalidVersionChain(.unsupportedSpec(type(of: spec), reason: problem))
        }
        return written
    }

    /// Notes `problem`, unless one was found here before.
    func note(_ problem: String?) {
        if self.problem == nil {
            self.problem = problem
        }
    }

    func set(_ key: String, _ entry: SpecWritten.Entry) {
        Self.set(key, entry, in: &recorded)
    }

    private static func set(_ key: String, _ entry: SpecWritten.Entry, in recorded: inout Recorded) {
        if let index = recorded.keys.firstIndex(of: key) {
            recorded.values[index] = entry
            for opened in recorded.opening.indices where recorded.opening[opened].index == index {
                recorded.opening[opened].index = -1
            }
        } else {
            recorded.keys.append(key)
            recorded.values.append(entry)
        }
    }

    /// The recorder of the object opened at `key`, made if the spec has not opened one there yet,
    /// with what it wrote there already as an object.
    func object(at key: String) -> SpecRecorder {
        let index = recorded.keys.firstIndex(of: key)
        if let index, let existing = recorded.opening.first(where: { $0.index == index }) {
            return existing.object
        }
        let made = SpecRecorder(path: path + [key], isOpenedAtKey: true, discards: discards, userInfo: userInfo)
        if let index, case .object(let written) = recorded.values[index] {
            made.recorded.keys = written.keys
            made.recorded.values = written.values
        }
        // Its place in the order is taken now; what stands there is replaced once the spec is
        // done, by ``made()``.
        set(key, .value(Int?.none))
        recorded.opening.append((recorded.keys.firstIndex(of: key)!, made))
        return made
    }

    /// What was recorded here and below, as it stays, with the first problem found here or in an
    /// object opened below.
    func made() -> (SpecWritten, problem: String?) {
        var recorded = recorded
        var problem = problem
        for (index, opened) in recorded.opening {
            if index < 0 {
                problem = problem ?? opened.made().problem
            } else if !opened.opened, let single = opened.single {
                recorded.values[index] = .value(single)
                problem = problem ?? opened.problem
            } else {
                let (written, below) = opened.made()
                recorded.values[index] = .object(written)
                problem = problem ?? below
            }
        }
        return (SpecWritten(path: path, keys: recorded.keys, values: recorded.values), problem)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        opened = true
        return KeyedEncodingContainer(RecordingContainer<Key>(recorder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if path.isEmpty {
            note("writes an array at the root of the document")
        } else if isOpenedAtKey {
            note("writes an array through superEncoder(forKey:); write it with encode(_:forKey:)")
        }
        return discarding()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The single value `value` writes, where it writes one and nothing else (a `String`-backed
    /// enum writes its raw value), as the spec's single values are recorded.
    static func singleValue(of value: any Encodable, userInfo: [CodingUserInfoKey: Any]) -> (any Encodable)? {
        let recorder = SpecRecorder(path: ["-"], isOpenedAtKey: true, userInfo: userInfo)
        guard (try? value.encode(to: recorder)) != nil, !recorder.opened, recorder.problem == nil else {
            return nil
        }
        return recorder.single
    }

    /// A recorder whose recording is kept nowhere, and which encodes none of the values written
    /// to it: for what a spec writes inside an array, or past the depth it may nest.
    func discarding() -> SpecRecorder {
        SpecRecorder(path: ["-"], discards: true, userInfo: userInfo)
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
        if discards || Route(T.self, hasPlace: { true }) != .follow {
            return .value(value)
        }
        let object = SpecRecorder(path: path + [key], userInfo: userInfo)
        try value.encode(to: object)
        let (written, problem) = object.made()
        note(problem)
        return object.opened ? .object(written) : .value(value)
    }

    func encodeNil() throws { try encode(Int?.none) }

    /// A value that is not a single value itself (a struct the spec forwards its encoding to)
    /// is followed at the same place. A single value there cannot stand at the root; below it,
    /// the container above records the value it was handed whole, and a super encoder's
    /// object stands for this one (`try version.encode(to: container.superEncoder(forKey:))`).
    func encode<T: Encodable>(_ value: T) throws {
        if discards {
            return
        }
        if Route(T.self, hasPlace: { true }) == .follow, !(value is any NilRepresentable) {
            return try value.encode(to: self)
        }
        if path.isEmpty {
            note("writes a single value at the root of the document")
        } else if isOpenedAtKey {
            single = value
        }
    }
}

private struct RecordingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let recorder: SpecRecorder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { recorder.set(key.stringValue, .value(Int?.none)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if !notesTooDeep() {
            recorder.set(key.stringValue, try recorder.entry(for: value, at: key.stringValue))
        }
    }

    /// Whether an object below this one would nest past ``SpecRecorder/maximumDepth``, noted as
    /// the recording's problem where it would: then it is not followed, and the recording is
    /// refused once the spec is done.
    private func notesTooDeep() -> Bool {
        guard recorder.path.count >= SpecRecorder.maximumDepth else {
            return false
        }
        recorder.note("nests objects more than \(SpecRecorder.maximumDepth) deep")
        return true
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        subrecorder(key.stringValue).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        recorder.note("writes an array with nestedUnkeyedContainer(forKey:); write it with encode(_:forKey:)")
        return recorder.discarding()
    }

    // The default key of a super encoder is "super", whether or not `Key` can name it.
    mutating func superEncoder() -> any Encoder { subrecorder("super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { subrecorder(key.stringValue) }

    private func subrecorder(_ key: String) -> SpecRecorder {
        if notesTooDeep() {
            return recorder.discarding()
        }
        return recorder.object(at: key)
    }
}
