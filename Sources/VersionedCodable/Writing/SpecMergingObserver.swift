/// Watches what a versioned value writes where its spec writes, and merges the spec in.
///
/// The observer is also the encoder the value writes its root into, so that watching a value
/// costs one allocation; deeper places get an ``ObservingEncoder``. Only the objects the spec
/// writes into are watched: everything else goes straight to the real encoder, so the output is
/// exactly what the type writes, plus what the spec writes.
///
/// At a place where the spec keeps the version, an integer or nothing written by the type
/// mirrors the version (1.2 programs keep such a property) and gives way to it. Anything else
/// the type writes where the spec writes would be lost, so it is a clash and encoding throws.
final class SpecMergingObserver: Encoder {
    enum Finding {
        case clear
        /// The type wrote a value of its own where the spec writes one: the version, or another
        /// field of the spec with a different value.
        case clash(path: [String], atVersion: Bool)
        /// The type wrote something other than a keyed object where the spec needs one.
        case notAnObject(path: [String])
    }

    let tree: SpecTree
    /// The real encoder at the root of the versioned value.
    let base: any Encoder
    /// Whether `base` is itself watched by the observer of an enclosing versioned value: then
    /// the version is written so that the enclosing observer can tell it from a mirror.
    let isNested: Bool
    private(set) var finding = Finding.clear
    /// The objects of ``tree`` already written where the type wrote them, one bit each.
    private var merged: UInt64 = 0
    /// Objects of the spec that the value opened as nested containers, with the container
    /// each was opened as: the spec's part is written into it when the value is done.
    private var heldOpen: [HeldObject] = []

    init(tree: SpecTree, base: any Encoder) {
        self.tree = tree
        self.base = base
        // Compared by metatype rather than cast with `is`: a dynamic cast of an existential
        // cost about 1,500 instructions per encode, a quarter of what versioning adds.
        let baseType = ObjectIdentifier(type(of: base))
        let observing = ObjectIdentifier(ObservingEncoder.self)
        let merging = ObjectIdentifier(SpecMergingObserver.self)
        self.isNested = baseType == observing || baseType == merging
    }

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    var isClear: Bool {
        if case .clear = finding { return true }
        return false
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        container(of: base, at: tree.root, keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        unkeyedContainer(of: base, at: tree.root)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ObservingSingleValueContainer(base: base.singleValueContainer(), observer: self, object: tree.root)
    }

    func container<Key: CodingKey>(
        of encoder: any Encoder,
        at object: SpecObject,
        keyedBy type: Key.Type
    ) -> KeyedEncodingContainer<Key> {
        let container = encoder.container(keyedBy: type)
        guard KeyNaming.canName(object, with: Key.self) else {
            return container
        }
        return watching(container, at: object)
    }

    /// `container`, watched at `object`. Out of line, so that the common path, a container
    /// that needs no watching, does not look up the watching container's generic type.
    @inline(never)
    private func watching<Key: CodingKey>(
        _ container: KeyedEncodingContainer<Key>,
        at object: SpecObject
    ) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ObservingKeyedContainer(base: container, observer: self, object: object))
    }

    func unkeyedContainer(of encoder: any Encoder, at object: SpecObject) -> any UnkeyedEncodingContainer {
        _ = shouldWrite(.other, at: .object(object))
        return encoder.unkeyedContainer()
    }

    func note(_ finding: Finding) {
        if isClear {
            self.finding = finding
        }
    }

    /// Whether a single value the type writes at `node` goes to the real encoder. A mirror of
    /// the version, or a copy of what the spec writes there, is left out, since the spec's own
    /// value is written in its place.
    func shouldWrite(_ kind: WrittenKind, at node: SpecNode) -> Bool {
        switch node {
        case .object(let object):
            if case .null = kind {
                // A `null` where the spec writes an object (an optional parent written with
                // `encode` rather than `encodeIfPresent`) holds nothing: the spec's object takes
                // its place, and an optional parent that holds only the version reads back as nil.
                return !object.hasContent
            }
            if object.hasContent {
                note(.notAnObject(path: object.path))
            }
            return true
        case .leaf(let leaf, let path):
            if leaf.isVersion {
                switch kind {
                case .null:
                    return false
                case .value(let value) where value.isInteger:
                    return false
                default:
                    note(.clash(path: path, atVersion: true))
                    return true
                }
            }
            if case .value(let value) = kind, let own = leaf.value, own.isSame(as: value) {
                return false
            }
            note(.clash(path: path, atVersion: false))
            return true
        }
    }

    func markMerged(_ object: SpecObject) {
        if object.index < 64 {
            merged |= 1 << UInt64(object.index)
        }
    }

    func isMerged(_ object: SpecObject) -> Bool {
        object.index < 64 && merged & (1 << UInt64(object.index)) != 0
    }

    /// Keeps `container`, which the value opened at `object`, to write the spec's part of that
    /// object into when the value is done.
    func holdOpen(_ container: KeyedEncodingContainer<PathKey>, for object: SpecObject) {
        heldOpen.append(HeldObject(object: object, place: .container(container)))
    }

    /// Keeps `encoder`, which the value was given for `object` (a super encoder), to write the
    /// spec's part of that object through when the value is done.
    func holdOpen(_ encoder: any Encoder, for object: SpecObject) {
        heldOpen.append(HeldObject(object: object, place: .encoder(encoder)))
    }

    /// Writes what the spec writes in `object` and below into `encoder`, which stands at that
    /// object, unless it was already written there.
    ///
    /// The objects the value opened as nested containers are written first, into those
    /// containers, and let go of.
    func writeRemaining(into encoder: any Encoder, at object: SpecObject) throws {
        if !heldOpen.isEmpty {
            let held = heldOpen
            heldOpen = []
            // Innermost first: an object opened inside another is written into its own
            // container before the outer one could open it a second time.
            for held in held.reversed() where held.object.hasContent && !isMerged(held.object) {
                markMerged(held.object)
                switch held.place {
                case .container(var container):
                    try write(held.object, into: &container)
                case .encoder(let encoder):
                    var container = encoder.container(keyedBy: PathKey.self)
                    try write(held.object, into: &container)
                }
            }
        }
        guard object.hasContent, !isMerged(object) else {
            return
        }
        markMerged(object)
        var container = encoder.container(keyedBy: PathKey.self)
        if let version = object.onlyVersion, !isNested {
            // The default spec's root, on every encode.
            return try container.encode(version, forKey: .version)
        }
        try write(object, into: &container)
    }

    /// Writes what the spec writes in `object` into `container`, which stands at it.
    func write(_ object: SpecObject, into container: inout KeyedEncodingContainer<PathKey>) throws {
        for (key, node) in object.entries {
            switch node {
            case .leaf(let leaf, _):
                guard let value = leaf.value else {
                    continue
                }
                if leaf.isVersion && isNested {
                    try container.encode(LibraryVersion(value: value), forKey: PathKey(key))
                } else {
                    try value.write(to: &container, forKey: PathKey(key))
                }
            case .object(let child):
                guard child.hasContent, !isMerged(child) else {
                    continue
                }
                markMerged(child)
                var nested = container.nestedContainer(keyedBy: PathKey.self, forKey: PathKey(key))
                try write(child, into: &nested)
            }
        }
    }

    /// Reports to the versioned value this one is a part of a place where both keep a version
    /// and this part writes none (its version is `nil`): a part that writes one is seen there
    /// as it writes it, but a place left empty would be filled with the enclosing value's
    /// version, which the part would then read as its own.
    func checkAbsentVersionsAgainstEnclosing() {
        let enclosing: (observer: SpecMergingObserver, object: SpecObject)
        if let encoder = base as? ObservingEncoder {
            enclosing = (encoder.observer, encoder.object)
        } else if let observer = base as? SpecMergingObserver {
            enclosing = (observer, observer.tree.root)
        } else {
            return
        }
        func visit(_ object: SpecObject, _ outer: SpecObject) {
            for (key, node) in object.entries {
                guard let outerNode = outer.entry(key) else {
                    continue
                }
                switch (node, outerNode) {
                case (.object(let child), .object(let outerChild)):
                    visit(child, outerChild)
                case (.leaf(let leaf, _), .leaf(let outerLeaf, let outerPath)):
                    if leaf.isVersion, leaf.value == nil, outerLeaf.isVersion {
                        enclosing.observer.note(.clash(path: outerPath, atVersion: true))
                    }
                default:
                    continue
                }
            }
        }
        visit(tree.root, enclosing.object)
    }

    /// Throws what the observer found, if anything.
    ///
    /// At the root of a document the error is 1.2's case itself, so that `catch` clauses keep
    /// matching. A versioned part inside a document gets an `EncodingError.invalidValue` that
    /// names the part's type, its coding path and the field, with the versioning error as its
    /// `underlyingError` (its path, for a place that is not an object, from the document's root).
    func throwIfBlocked<Value: VersionedCodable>(writing value: Value) throws {
        if case .clear = finding {
            return
        }
        let partPath = base.codingPath
        let error: VersionedEncodingError
        let description: String
        let part = "\(Value.self) at \(describePath(partPath))"
        switch finding {
        case .clear:
            return
        case .clash(let path, let atVersion):
            error = .typeHasClashingVersionField
            let what = atVersion ? "puts the version" : "writes another value"
            description =
                "\(part) writes its own value at \(describeField(path)), where its VersionPathSpec "
                + "(\(Value.VersionSpec.self)) \(what). Rename that field or choose another version "
                + "path; what the spec writes never overwrites the type's values silently."
        case .notAnObject(let path):
            error = .versionLocationNotAnObject(codingPath: partPath.map(\.stringValue) + path)
            description =
                "\(part) writes something other than a keyed object at \(describeField(path)), where the "
                + "path of its VersionPathSpec (\(Value.VersionSpec.self)) needs an object."
        }
        guard !partPath.isEmpty else {
            throw error
        }
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(codingPath: partPath, debugDescription: description, underlyingError: error)
        )
    }

    private func describeField(_ path: [String]) -> String {
        path.isEmpty ? "its root" : "`\(path.joined(separator: "."))`"
    }
}

/// Whether a key type can name any of the keys the spec writes at a place.
///
/// Synthesized keys cannot be made from a string they do not list, so a container whose keys
/// cannot name any of the spec's keys cannot write where the spec writes, and needs no
/// watching. Trying the spec's keys on a synthesized key type compares them with every case
/// name, so the answer is kept per key type and set of spec keys.
enum KeyNaming {
    private struct Answer {
        let keys: [String]
        let canName: Bool
    }

    private static let answers = LockedDictionary<ObjectIdentifier, [Answer]>()

    static func canName<Key: CodingKey>(_ object: SpecObject, with key: Key.Type) -> Bool {
        if object.holdsOnlyVersionKey {
            // The default spec's root, met on every encode: the answer is kept per thread,
            // without a lock.
            if let known = PerThreadAnswers.answer(.keyTypeNamesVersion, for: Key.self) {
                return known
            }
            let canName = canMake(Key.self, from: "version")
            PerThreadAnswers.keep(canName, .keyTypeNamesVersion, for: Key.self)
            return canName
        }
        let type = ObjectIdentifier(key)
        let known = answers.value(for: type)
        if let known {
            for answer in known where answer.keys.elementsEqual(object.entries.lazy.map(\.key)) {
                return answer.canName
            }
        }
        let canName = object.entries.contains { Key(stringValue: $0.key) != nil }
        let keys = object.entries.map(\.key)
        answers.store((known ?? []) + [Answer(keys: keys, canName: canName)], for: type)
        return canName
    }
}

/// Whether `Key(stringValue: string)` makes a key. Out of line, so that a caller that finds the
/// answer kept does not look up `Optional<Key>`'s generic type first.
@inline(never)
private func canMake<Key: CodingKey>(_ key: Key.Type, from string: String) -> Bool {
    Key(stringValue: string) != nil
}

/// An object of the spec that a value opened as a nested container, with that container.
private struct HeldObject {
    enum Place {
        case container(KeyedEncodingContainer<PathKey>)
        case encoder(any Encoder)
    }

    let object: SpecObject
    let place: Place
}
