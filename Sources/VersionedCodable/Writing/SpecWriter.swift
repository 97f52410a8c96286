import Foundation

/// Writes a versioned value with its spec merged in: the encoder the value writes its root
/// into, and the state of that one encode.
///
/// Only the objects where the spec writes are watched (the root, and `_metadata` under a
/// `_metadata.version` spec); everything else goes straight to the real encoder. At each
/// watched object, a key the spec writes is checked as the type writes it (see
/// ``PlaceEncodingContainer``). When the type is done with an object, or opens or writes it
/// again, the spec's part of it is written into the same encoder or container the type used,
/// after the type's keys.
final class SpecWriter: Encoder {
    /// What the type wrote that the spec's part cannot be merged with.
    enum Finding {
        /// A value of the type's own where the spec writes one (the version, when `atVersion`).
        case clash(path: [String], atVersion: Bool)
        /// A dictionary entry under a key the spec writes.
        case entry(path: [String])
        /// Something other than a keyed object where the spec needs one.
        case notAnObject(path: [String])
        /// An object where the spec writes one that may be absent on reading (an optional's value,
        /// a dictionary's entry, or one the type opened by hand), holding nothing of the type's
        /// own: it would read back as `nil`, or as no entry.
        case empty(path: [String])
    }

    let base: any Encoder
    /// The coding path of the versioned part, as it was when the writer was made: `base`'s
    /// changes while the values below are written.
    let partPath: [any CodingKey]
    // What it is made with is constant; what it notes during the one encode that made it lives
    // here and ends with it.
    /// What the spec writes in this encode.
    let spec: SpecWritten
    let version: Int?
    /// The versioned type being written, whose spec is asked where the version is.
    let valueType: any VersionedCodable.Type
    /// The oldest versions that may read and write the document, written beside the version
    /// when they are older than it.
    let olderBuilds: (readableFrom: Int, writableFrom: Int)?
    /// The fields of a newer document that this build did not read, written back where the type
    /// writes no field of the same key: at the root, and in an object where the spec writes, from
    /// the kept object of the same key (see ``keptFields(at:)``).
    let unknownFields: [(key: String, value: UnknownValue)]
    /// The encoder's key strategy, where it changes keys and is known (see
    /// ``checkKeyForms(at:)``).
    let keyStrategy: JSONEncoder.KeyEncodingStrategy?
    /// The newest type whose builds, and those of every type between it and this version, read
    /// this document too, where one of them asks another spec for the version first (see
    /// ``pathsReadFirst``).
    let readFirstBy: (any VersionedCodable.Type)?
    /// Whether an older version of the chain keeps its version with another spec, which its
    /// builds ask first (see ``pathsReadFirst``).
    let readByOlder: Bool
    private(set) var finding: Finding?
    /// Whether the spec's part of the root is merged into the document (written, or carried by
    /// a dictionary the type writes), and of which other objects: the root apart, so that the
    /// common encode allocates no list. `SpecWritten` is what the spec writes; this is what is
    /// done with it.
    private var rootIsMerged = false
    /// The objects below the root where it is merged, by their paths.
    private var merged: [[String]] = []
    /// The objects the type opened with `nestedContainer` or `superEncoder`, and how to reach
    /// them: the spec's part is written there when the enclosing object is done, or when the
    /// type opens or writes the same place again (see ``release(_:isDone:)``).
    private var held: [(place: SpecWritten, container: () -> KeyedEncodingContainer<ForwardedKey>)] = []
    /// The root's container, as the type opened it, where the spec's part of the root is written
    /// rather than into a container opened again.
    private var rootContainer: KeyedEncodingContainer<ForwardedKey>?
    /// The keys the type wrote where the spec writes, with their integer values (which a custom
    /// key strategy may read) and whether each is a dictionary's entry: noted only where they are
    /// compared, under a key strategy or beside kept fields.
    private var keysWritten: [(path: [String], key: String, intValue: Int?, isEntry: Bool)] = []
    /// The paths where the spec's `null` gave way to the type's value.
    private var gaveWay: [[String]] = []
    /// The objects below the root where the type wrote a key the spec does not write, by their
    /// paths: an object on the version's path reads back as the type's only where it, or one
    /// below it, holds one.
    private var ownKeys: [[String]] = []

    init(
        base: any Encoder,
        partPath: [any CodingKey],
        spec: SpecWritten,
        version: Int?,
        valueType: any VersionedCodable.Type,
        olderBuilds: (readableFrom: Int, writableFrom: Int)? = nil,
        unknownFields: [(key: String, value: UnknownValue)] = [],
        keyStrategy: JSONEncoder.KeyEncodingStrategy? = nil,
        readFirstBy: (any VersionedCodable.Type)? = nil,
        readByOlder: Bool = false
    ) {
        self.base = base
        self.partPath = partPath
        self.spec = spec
        self.version = version
        self.valueType = valueType
        self.olderBuilds = olderBuilds
        self.unknownFields = unknownFields
        self.keyStrategy = keyStrategy
        self.readFirstBy = readFirstBy
        self.readByOlder = readByOlder
    }

    /// Whether the builds of other versions of the chain read this document with specs other
    /// than this version's: newer ones (``readFirstBy``), or older ones (``readByOlder``).
    var readByOthers: Bool { readFirstBy != nil || readByOlder }

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let container = base.container(keyedBy: ForwardedKey.self)
        rootContainer = container
        return KeyedEncodingContainer(PlaceEncodingContainer<Key>(base: container, place: spec, writer: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PlaceEncoder(base: base, place: spec, writer: self).unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PlaceEncoder(base: base, place: spec, writer: self)
    }

    /// Whether this encode writes keys at `place` that the spec did not: the oldest versions that
    /// may read and write the document, beside the version, or fields kept there from a newer
    /// document.
    private func writesBesideSpec(at place: SpecWritten) -> Bool {
        declaration?.path == place.path || !kept(at: place.path).isEmpty
    }

    /// Notes a key the type writes at `place`, where it is compared later: under a key strategy
    /// that changes keys, and beside kept fields, which a key the type writes wins over (a field
    /// it writes but does not read).
    func noteWritten(_ key: String, intValue: Int? = nil, at place: SpecWritten, isEntry: Bool) {
        if keyStrategy != nil || !unknownFields.isEmpty {
            keysWritten.append((place.path, key, intValue, isEntry))
        }
    }

    /// The fields kept at `path`: the newer document's at the root, and below it those of the
    /// kept object at each key of the path.
    private func kept(at path: [String]) -> [(key: String, value: UnknownValue)] {
        guard !unknownFields.isEmpty else {
            return []
        }
        var fields = unknownFields
        for key in path {
            guard case .object(let inner)? = fields.first(where: { $0.key == key })?.value else {
                return []
            }
            fields = inner
        }
        return fields
    }

    /// The fields kept at `place` that are written there: not those the type wrote itself, nor
    /// those under a key the spec writes, whose kept object is merged into the spec's.
    private func keptFields(at place: SpecWritten) -> some Sequence<(key: String, value: UnknownValue)> {
        kept(at: place.path).lazy.filter { kept in
            !place.keys.contains(kept.key)
                && !self.keysWritten.contains { $0.path == place.path && $0.key == kept.key }
        }
    }

    /// Throws where the key strategy writes a key the type wrote at `place` as one the spec
    /// writes there, which would replace the type's value or trap the coder, or writes a key the
    /// type shares with the spec elsewhere than the spec's (a custom strategy that reads the
    /// key's integer value), which would leave the spec's part in the type's object under
    /// another key: before the spec's part of `place` is written.
    private func checkKeyForms(at place: SpecWritten) throws {
        guard let keyStrategy, !keysWritten.isEmpty else {
            return
        }
        let written = keysWritten.filter { $0.path == place.path }
        guard !written.isEmpty else {
            return
        }
        // The keys that the spec writes here, and those that are the library's where it writes
        // nothing: the `nil` version's places, and the keys that name older builds.
        var specKeys = place.keys
        if watchesVersionPaths {
            specKeys += watchedPaths.filter { Array($0.dropLast()) == place.path }.map { $0.last! }
        }
        if let reserved = reservedDeclaration, reserved.path == place.path {
            specKeys += [reserved.readable, reserved.writable]
        }
        let keys = specKeys.map { ($0, Int?.none) } + written.map { ($0.key, $0.intValue) }
        let forms = keyStrategy.forms(of: keys, at: place.path)
        let specForms = forms.prefix(specKeys.count)
        for (own, form) in zip(written, forms.dropFirst(specKeys.count)) {
            let path = place.path + [own.key]
            if let index = specKeys.firstIndex(of: own.key) {
                if specForms[index] != form {
                    throw refuse(.clash(path: path, atVersion: isVersion(path)))
                }
                continue
            }
            guard let index = specForms.firstIndex(of: form) else {
                continue
            }
            let atVersion = isVersion(place.path + [specKeys[index]])
            throw refuse(own.isEntry ? .entry(path: path) : .clash(path: path, atVersion: atVersion))
        }
    }

    /// What the spec writes at `key` of `place` in this encode, if anything, as the type's value
    /// there is checked against it: the keys beside the version that say which older builds may
    /// read and write among them, when they are written; and where the spec writes nothing on a
    /// watched path (see ``watchedPaths``), `nil` at the `nil` version's place and an empty
    /// object on the way.
    func role(of key: String, at place: SpecWritten) -> SpecWritten.Entry? {
        let index = place.keys.firstIndex(of: key)
        if let index, index == place.versionIndex {
            return .value(version)
        }
        let spec = index.map { place.values[$0] }
        if watchesVersionPaths {
            // Where a custom spec keeps the version but writes nothing or `null` for `nil`, a
            // type's value would be read back as the version: the place is watched as the spec's
            // `nil`. An object the path passes through is followed (an empty place, which the
            // spec's `null` gives way to), as it is on the way to a place where a newer type's
            // chain reads a version first (see ``checkReadFirst()``).
            let writesNothing: Bool
            switch spec {
            case nil: writesNothing = true
            case .value(let value)?: writesNothing = givesWay(value, at: place.path + [key])
            case .object?: writesNothing = false
            }
            if writesNothing, version == nil, isVersion(place.path + [key]) {
                return .value(Int?.none)
            }
            // Compared without making the path, as most keys the type writes are on none.
            let depth = place.path.count
            if writesNothing,
                watchedPaths.contains(where: { $0.count > depth + 1 && $0[depth] == key && $0.starts(with: place.path) }
                )
            {
                return .object(SpecWritten(path: place.path + [key], keys: [], values: []))
            }
        }
        return spec ?? declared(key, at: place)
    }

    /// What is written at `key` of `place` beside the version: the oldest versions that may read
    /// and write the document, when they are.
    private func declared(_ key: String, at place: SpecWritten) -> SpecWritten.Entry? {
        guard let olderBuilds, let declaration, declaration.path == place.path else {
            return nil
        }
        switch key {
        case declaration.readable: return .value(olderBuilds.readableFrom)
        case declaration.writable: return .value(olderBuilds.writableFrom)
        default: return nil
        }
    }

    /// Whether the spec's `value` at `path` gives way to what the type writes there: a `null`
    /// the spec writes anywhere but at the version holds nothing (a spec that writes
    /// `"_metadata": null` for the `nil` version), so the type's value is written instead.
    func givesWay(_ value: any Encodable, at path: [String]) -> Bool {
        (value as? any NilRepresentable)?.isNil == true && !isVersion(path)
    }

    /// Leaves out a `null` the spec writes where the type's object is followed into an empty
    /// place for the `nil` version's path (see ``role(of:at:)``).
    func giveWayToObject(at child: SpecWritten) {
        if watchesVersionPaths, child.keys.isEmpty {
            giveWay(at: child.path)
        }
    }

    /// Notes that the type wrote a key of its own at `place`, if it is below the root.
    func noteOwnKey(at place: SpecWritten) {
        if !place.path.isEmpty, ownKeys.last != place.path {
            ownKeys.append(place.path)
        }
    }

    /// Throws where the object at `place`, which the spec writes or reads into and which may be
    /// absent on reading (see ``Finding/empty(path:)``), holds no key of the type's own, here or
    /// below, nor a kept one: the reader could not tell it from the spec's object alone, and
    /// would read it back as `nil`, or leave the entry out. An object that only a newer type's
    /// spec reads into (see ``needsObject(at:)``) is read by another spec's reader, as written.
    func checkHoldsOwnKeys(_ place: SpecWritten) throws {
        if finding == nil, needsObject(at: place), !ownKeys.contains(where: { $0.starts(with: place.path) }),
            kept(at: place.path).isEmpty
        {
            throw refuse(.empty(path: place.path))
        }
    }

    /// Leaves the spec's value at `path` out, where it gives way to the type's.
    func giveWay(at path: [String]) {
        gaveWay.append(path)
    }

    /// The paths from the root to the integers the spec wrote that are the version, first in
    /// the order it wrote them: the default spec's `version`, or each integer that another spec
    /// writes as this version, and as another version of the chain when it is asked to write
    /// that one, with this encoder's `userInfo`. For the `nil` version, which a spec writes as
    /// `null` or not at all, they are the paths where the other version's spec writes a value,
    /// of any type, and this encode's writes none: a value of the type's there would be read
    /// as a version.
    ///
    /// Found by ``findVersionPaths()`` where they decide what is written or refused; asked
    /// otherwise only to name the version in an error, where a spec that cannot say leaves them
    /// empty.
    private(set) lazy var versionPaths: [[String]] =
        (try? Self.versionPaths(in: spec, version: version, of: valueType, userInfo: userInfo)) ?? []

    /// The paths where a value of the type's could be read as a version, though this encode
    /// writes none there (see ``role(of:at:)``): the `nil` version's places under a custom spec
    /// (see ``versionPaths``), and ``pathsReadFirst``.
    private(set) var watchedPaths: [[String]] = []

    /// In a document that the builds of other versions read too (see ``readByOthers``), the
    /// places where the spec of one of them, which its build asks first, reads: what the type
    /// writes there may make that build read another version (see ``checkReadFirst()``). Those
    /// where the spec writes differently for two versions come first; `versionsReadFirst` counts
    /// them.
    private(set) var pathsReadFirst: [[String]] = []
    private var versionsReadFirst = 0
    /// What the type wrote at ``pathsReadFirst``, read back together once it is done, and
    /// whether each is a dictionary's entry.
    private var writtenReadFirst: [(path: [String], value: any Encodable, isEntry: Bool)] = []

    /// Finds ``versionPaths`` and ``watchedPaths``, with the error this version's spec throws when
    /// it is asked to write another version: before anything is written, where the `nil` version
    /// is written, the older builds that may read the document are named beside the version, or a
    /// newer or older type reads it first with another spec (``readByOthers``).
    func findVersionPaths() throws {
        let watchesOwn = version == nil && spec.versionIndex == nil
        if watchesOwn || olderBuilds != nil {
            versionPaths = try Self.versionPaths(in: spec, version: version, of: valueType, userInfo: userInfo)
        }
        watchedPaths = watchesOwn ? versionPaths : []
        // The specs of the types newer than this version, other than its own, newest first, and
        // then those of the older ones: the build of each asks its own first, and where one
        // reads a version from a value of the type's, it would read the document as that
        // version. Each spec's places are where what it writes for two versions of the chain
        // differs (an integer, or a label), or all it writes, where it writes one version only.
        // An older spec is asked only for the versions of its own types, which its builds know:
        // the newer versions are not its own build's to know.
        var others: [(spec: any VersionPathSpec.Type, chain: VersionChain, isOlder: Bool)] = []
        if let readFirstBy {
            let chain = VersionChain(for: readFirstBy)
            let newer = chain.types.prefix { $0 != valueType }
            for (other, _) in chain.specs
            where other != valueType.versionSpecType && newer.contains(where: { $0.versionSpecType == other }) {
                others.append((other, chain, false))
            }
        }
        if readByOlder {
            let chain = VersionChain(for: valueType)
            for (other, _) in chain.specs
            where other != valueType.versionSpecType && !others.contains(where: { $0.spec == other }) {
                others.append((other, chain, true))
            }
        }
        for (other, chain, isOlder) in others {
            let own = chain.ownVersions(for: other).compactMap { $0 }
            let theirs = isOlder ? own.first : chain.numberedVersions(for: other).first
            // A spec that cannot write a version (it throws) writes nothing for it; the default
            // spec's are known without recording it.
            let leaves = { (version: Int?) -> [(path: [String], value: any Encodable)] in
                other == VersionKeyAtRootVersionPathSpec.self
                    ? VersionKeyAtRootVersionPathSpec.leaves(writing: version)
                    : (try? SpecRecorder.record(other.init(withVersion: version), userInfo: self.userInfo))?.leaves()
                        ?? []
            }
            let written = leaves(theirs)
            let anotherVersion = isOlder ? own.dropFirst().first : chain.otherVersion(than: theirs, for: other)
            let another = isOlder && anotherVersion == nil ? [] : leaves(anotherVersion)
            let isIn = {
                (leaves: [(path: [String], value: any Encodable)], leaf: (path: [String], value: any Encodable)) in
                leaves.contains {
                    $0.path == leaf.path && String(reflecting: $0.value) == String(reflecting: leaf.value)
                }
            }
            let differing = written.filter { !isIn(another, $0) } + another.filter { !isIn(written, $0) }
            for leaf in differing where !pathsReadFirst.contains(leaf.path) {
                pathsReadFirst.insert(leaf.path, at: versionsReadFirst)
                versionsReadFirst += 1
            }
            // What it writes alike for every version, such as a label beside the version, counts
            // too: the type's own value there may let it read the version the type wrote.
            for leaf in written + another where !pathsReadFirst.contains(leaf.path) {
                pathsReadFirst.append(leaf.path)
            }
        }
        watchedPaths += pathsReadFirst
    }

    /// Notes `value`, which the type writes at `key` of `place` where the spec writes nothing,
    /// where it is one of ``pathsReadFirst``.
    func noteReadFirst<T>(_ value: T, at key: String, in place: SpecWritten, isEntry: Bool) {
        guard isReadFirst(key, in: place), let value = value as? any Encodable else {
            return
        }
        writtenReadFirst.append((place.path + [key], value, isEntry))
    }

    /// Throws where what the type wrote at ``pathsReadFirst`` would make the build of another
    /// type read the document as another version, found by reading it as each will: a JSON
    /// document of what this encode's spec writes and the single values the type wrote there.
    /// The build of a newer type must read it as this version, or fail in a spec asked before
    /// this version's, after which the reader asks the next; the `nil` version's, which no spec
    /// reads, must read as no version without a failure, which would leave it unread. The build
    /// of an older type must not read it as one of its own versions, which it would decode:
    /// this version is newer than it knows, and a failure or no version at all is not the
    /// type's doing. No build may find it either version's
    /// (``VersionedDecodingError/ambiguousVersion(versions:_:)``). An object or an array there
    /// is no version to a spec; a date or data is written by the coder's strategy, which cannot
    /// be seen, and so is refused; a decimal is read as the number JSON writes.
    func checkReadFirst() throws {
        guard readByOthers, !writtenReadFirst.isEmpty, finding == nil else {
            return
        }
        // Blamed on a place where the spec writes the version, where the type wrote one.
        let blamed =
            writtenReadFirst.first { pathsReadFirst.prefix(versionsReadFirst).contains($0.path) }
            ?? writtenReadFirst[0]
        let refusal = blamed.isEntry ? Finding.entry(path: blamed.path) : .clash(path: blamed.path, atVersion: false)
        var document: SpecWritten?
        for (path, value, _) in writtenReadFirst {
            var single =
                isCodedSpecially(type(of: value)) ? value : SpecRecorder.singleValue(of: value, userInfo: userInfo)
            // A coder other than Foundation's may write a string as its bare text and read that
            // text back as a number, as XMLCoder does: there, text that reads as an integer is
            // read back as one. Foundation's coders keep a string a string.
            if let text = single as? String, !EncoderProbe.foundationTypes.all.contains(coderEncoderType),
                let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                single = number
            }
            if single is Date || single is Data || single == nil && version == nil {
                throw refuse(refusal)
            }
            if let single {
                document = (document ?? spec).inserting(single, at: path[...], version: version)
            }
        }
        guard let document else {
            return
        }
        // Read with this encode's `userInfo`, as a spec that reads it writes with it, by the
        // build of every newer type that asks the specs in another order: the newest of each run
        // of types that share a spec.
        let decoder = JSONDecoder()
        decoder.userInfo = userInfo.mapValues { cast($0, to: (any Sendable).self) }
        let data = try JSONEncoder().encode(document)
        if readByOlder {
            // Each older build's chain is the rest of this one, from its type on.
            let chain = VersionChain(for: valueType)
            for (index, reader) in chain.types.enumerated().dropFirst() {
                let versions = chain.versions[index...]
                let read: Int?
                do {
                    read = try decoder.storedVersion(of: reader, from: data)
                } catch VersionedDecodingError.ambiguousVersion {
                    throw refuse(refusal)
                } catch {
                    // The older build refuses the document.
                    continue
                }
                if let read, read != version, versions.contains(read) {
                    throw refuse(refusal)
                }
            }
        }
        guard let readFirstBy else {
            return
        }
        let newer = Array(VersionChain(for: readFirstBy).types.prefix { $0 != valueType })
        for (index, reader) in newer.enumerated()
        where index == 0 || newer[index - 1].versionSpecType != reader.versionSpecType {
            let read: Int?
            do {
                read = try decoder.storedVersion(of: reader, from: data)
            } catch {
                // A spec that fails lets the reader ask the next, which reads a numbered version;
                // a document that reads as two versions is read as neither.
                if version == nil || error is VersionedDecodingError {
                    throw refuse(refusal)
                }
                continue
            }
            if let read, read != version {
                throw refuse(refusal)
            }
        }
    }

    /// The type of the coder's own encoder under this writer, which a part's writer may have been
    /// handed through the library's encoder of the value around it.
    private var coderEncoderType: ObjectIdentifier {
        var encoder = base
        while true {
            if let writer = encoder as? SpecWriter {
                encoder = writer.base
            } else if let place = encoder as? PlaceEncoder {
                encoder = place.base
            } else {
                return ObjectIdentifier(type(of: encoder))
            }
        }
    }

    /// Whether the type's value at `place` must be a keyed object, as it must where the spec
    /// writes: not on the way only to ``pathsReadFirst`` in a numbered version's document, where
    /// the spec that reads a version there fails on anything else and the reader asks the next,
    /// which reads this version. An object there is followed all the same, for the numbers in it.
    /// In the `nil` version's, where no spec reads a version, a spec that fails leaves the
    /// document unread (see ``VersionedCodable/readStoredVersion(from:chain:)``).
    func needsObject(at place: SpecWritten) -> Bool {
        !readByOthers || version == nil || !place.keys.isEmpty
    }

    /// Whether `key` of `place` is one of ``pathsReadFirst``, where a super encoder the type
    /// opens could write a version unseen.
    func isReadFirst(_ key: String, in place: SpecWritten) -> Bool {
        readByOthers
            && pathsReadFirst.contains {
                $0.count == place.path.count + 1 && $0.last == key && $0.starts(with: place.path)
            }
    }

    /// The ``versionPaths`` of `spec`, what `valueType`'s spec writes for `version`: asked of the
    /// spec for another version with `userInfo`, whose error is thrown.
    static func versionPaths(
        in spec: SpecWritten,
        version: Int?,
        of valueType: any VersionedCodable.Type,
        userInfo: [CodingUserInfoKey: Any]
    ) throws -> [[String]] {
        if let index = spec.versionIndex {
            return [[spec.keys[index]]]
        }
        let other = VersionChain(for: valueType).otherVersion(than: version, for: valueType.versionSpecType)
        let otherSpec = valueType.versionSpecType.init(withVersion: other)
        let recorded = try SpecRecorder.record(otherSpec, userInfo: userInfo).leaves()
        let ours = spec.leaves()
        guard let version else {
            return recorded.map(\.path).filter { path in !ours.contains { $0.path == path } }
        }
        // Where this spec writes the version, and the other's writes its own, or none for `nil`.
        return ours.filter { leaf in
            let theirs = recorded.first { $0.path == leaf.path }
            return integer(leaf.value) == version
                && (other == nil ? theirs == nil : theirs.flatMap { integer($0.value) } == other)
        }.map(\.path)
    }

    /// Whether the keys where a version would be read are watched even where this encode's spec
    /// writes nothing (see ``watchedPaths``).
    var watchesVersionPaths: Bool {
        version == nil && spec.versionIndex == nil || readByOthers
    }

    /// Whether the spec writes the version at `path`.
    func isVersion(_ path: [String]) -> Bool {
        versionPaths.contains(path)
    }

    /// Where the oldest versions that may read and write the document are written, when they
    /// are: beside the version, under its key with `ReadableFrom` and `WritableFrom` added.
    private var declaration: (path: [String], readable: String, writable: String)? {
        olderBuilds != nil ? reservedDeclaration : nil
    }

    /// Where the keys that name older builds stand beside the version, where they are the
    /// library's: in an encode that names older builds, and in any document of a numbered
    /// version that builds of an older numbered version with the same spec may meet, which would
    /// read a value of the type's there as a declaration its version does not make.
    private var reservedDeclaration: (path: [String], readable: String, writable: String)? {
        guard olderBuilds != nil || version != nil && olderBuildsShareSpec, let path = versionPaths.first else {
            return nil
        }
        let keys = declarationKeys(besideVersionKey: path.last!)
        return (Array(path.dropLast()), keys.readable, keys.writable)
    }

    /// Whether an older type of the chain has a numbered version and keeps it with this spec.
    private var olderBuildsShareSpec: Bool {
        VersionChain(for: valueType).types.dropFirst().contains {
            $0.version != nil && $0.versionSpecType == valueType.versionSpecType
        }
    }

    /// Whether `key` at `place` is a key that names older builds beside the version, where they
    /// are the library's (see ``reservedDeclaration``) but this encode names none. A key that
    /// could not be one (see ``mayNameOlderBuilds(_:)``) is answered first.
    func isUndeclaredDeclarationKey(_ key: String, at place: SpecWritten) -> Bool {
        guard mayNameOlderBuilds(key), olderBuilds == nil, let reserved = reservedDeclaration,
            reserved.path == place.path
        else {
            return false
        }
        return key == reserved.readable || key == reserved.writable
    }

    /// Notes the first finding; the encode throws it once the type is done, where the type's
    /// container could not throw it (`nestedContainer`) or the type did not let it through.
    func note(_ finding: Finding) {
        if self.finding == nil {
            self.finding = finding
        }
    }

    /// Notes `finding` and returns the error of the first finding, to be thrown where it was
    /// found: this one, unless another came before it.
    func refuse(_ finding: Finding) -> any Error {
        note(finding)
        return error(for: self.finding!)
    }

    /// The error for `finding`: 1.2's case, or ``VersionedEncodingError/cannotHoldVersion(_:version:)``
    /// for a root that is not an object.
    private func error(for finding: Finding) -> any Error {
        switch finding {
        case .clash: return VersionedEncodingError.typeHasClashingVersionField
        case .entry(let path): return VersionedEncodingError.dictionaryEntryClash(key: path.last!)
        case .notAnObject(let path) where path.isEmpty && partPath.isEmpty:
            return VersionedEncodingError.cannotHoldVersion(valueType, version: version)
        case .notAnObject(let path):
            let codingPath = partPath.map(\.stringValue) + path
            return VersionedEncodingError.versionLocationNotAnObject(codingPath: codingPath)
        case .empty(let path):
            let context = EncodingError.Context(
                codingPath: partPath + path.map { ForwardedKey(stringValue: $0) },
                debugDescription: "the object at \(describeField(path)) holds nothing but what the VersionPathSpec "
                    + "writes there, so it would read back as nil, or as no entry of its dictionary; give it a "
                    + "value of its own, or leave it out"
            )
            return VersionedEncodingError.notRepresentable(in: valueType, context)
        }
    }

    func hold(_ place: SpecWritten, _ container: @escaping () -> KeyedEncodingContainer<ForwardedKey>) {
        held.append((place, container))
    }

    /// Readies `place` for another object of the type's, where it opens or writes `place` again:
    /// the objects it opened there before are let go (see ``release(_:isDone:)``), and what was
    /// merged at `place` and below is forgotten, so that the new object gets the spec's part
    /// whole, whichever of them the coder keeps.
    func reopening(_ place: SpecWritten) throws {
        defer {
            if !merged.isEmpty {
                merged.removeAll { $0.starts(with: place.path) }
            }
        }
        try release(place, isDone: false)
    }

    private func isMerged(_ place: SpecWritten) -> Bool {
        place.path.isEmpty ? rootIsMerged : merged.contains(place.path)
    }

    /// Marks the spec's part of `place` as merged: written by this writer, or carried by a
    /// dictionary.
    func markMerged(_ place: SpecWritten) {
        if place.path.isEmpty {
            rootIsMerged = true
        } else {
            merged.append(place.path)
        }
    }

    /// What the type writes at `place`, made ready to have the spec's part merged in.
    func following<T: Encodable>(_ value: T, at place: SpecWritten) throws -> any Encodable {
        switch Route(T.self, hasPlace: { true }) {
        case .pass:
            guard needsObject(at: place) else {
                return value
            }
            throw refuse(.notAnObject(path: place.path))
        case .dictionary: return try (value as! any DictionaryAtPlace).merging(place, by: self)
        case .follow: return MergedValue.following(value, place, self)
        }
    }

    /// Writes the spec's part into the objects the type opened by hand (`nestedContainer`,
    /// `superEncoder`) at `place` or below it, and lets them go: once the type is done with
    /// `place`, or where it opens or writes `place` again. A coder keeps what it is handed in the
    /// order the type lets go of it, so holding an object past that would change which one it
    /// keeps.
    ///
    /// Innermost first, so that an object opened inside another is written into its own container
    /// before the outer one could open it again. Each object the type opened gets the spec's part,
    /// even where another already has one: which of two objects opened at one key a coder keeps
    /// (it merges them, or the one it gets last replaces the other) cannot be seen. Where they
    /// merge, the same keys are written twice into one object, which the dictionary-backed
    /// coders (Foundation's, Yams) keep once.
    ///
    /// Whether an object holds keys of the type's own is checked once the type is done with the
    /// place (`isDone`): an object let go because the type opens the place again may still get
    /// some, and they are noted by place, so the last object checks them all.
    func release(_ place: SpecWritten, isDone: Bool = true) throws {
        guard !held.isEmpty, finding == nil else {
            return
        }
        for (heldPlace, container) in held.reversed() where heldPlace.path.starts(with: place.path) {
            if isDone {
                // An object opened by hand may be an optional's value; nothing tells.
                try checkHoldsOwnKeys(heldPlace)
            }
            try checkKeyForms(at: heldPlace)
            markMerged(heldPlace)
            var container = container()
            try write(heldPlace, into: &container)
        }
        held.removeAll { $0.place.path.starts(with: place.path) }
    }

    /// Writes the spec's part of `place`, and of the objects below it that the type opened,
    /// into `encoder`, which stands at `place`: once the type is done with it.
    func finish(_ place: SpecWritten, into encoder: any Encoder) throws {
        guard finding == nil else {
            return
        }
        // An object still held at this place is the one `encoder` writes: a value the type
        // forwards through the super encoder it opened there. One the type opened before writing
        // a value here was let go when it wrote the value.
        try release(place)
        guard !isMerged(place) else {
            return
        }
        // The type's object stands here, whether or not the spec writes anything into it; its
        // keys are compared with the spec's under a key strategy either way.
        markMerged(place)
        try checkKeyForms(at: place)
        // An empty object the spec writes is written too, as a reader of its own (a 1.2 build
        // whose spec needs the object) expects it.
        let hasEntries =
            place.values.count > (version == nil && place.versionIndex != nil ? 1 : 0)
            || writesBesideSpec(at: place)
        guard hasEntries else {
            return
        }
        var container =
            place.path.isEmpty
            ? rootContainer ?? encoder.container(keyedBy: ForwardedKey.self)
            : encoder.container(keyedBy: ForwardedKey.self)
        try write(place, into: &container)
    }

    /// Calls `body` with what is written at `place`, in order: the fields kept there from a newer
    /// document, first, so that the spec's own values win where a key strategy makes a kept key
    /// one of them; what the spec writes; and beside the version the oldest versions that may
    /// read and write the document.
    ///
    /// For a dictionary's object, whose entry under a key wins over what is listed here: so, unlike
    /// ``write(_:into:)``, it needs no check for a `null` that gave way to the type's value or an
    /// object already merged, which are both under keys the dictionary wrote.
    func forEachEntry(at place: SpecWritten, _ body: (String, MergedValue) throws -> Void) rethrows {
        if !unknownFields.isEmpty {
            for (key, value) in keptFields(at: place) {
                try body(key, .value(value))
            }
        }
        for (index, (key, entry)) in zip(place.keys, place.values).enumerated() {
            switch entry {
            case .value where index == place.versionIndex: if let version { try body(key, .value(version)) }
            case .value(let value): try body(key, .value(value))
            case .object(let child): try body(key, .object(child, self))
            }
        }
        if let olderBuilds, let declaration, place.path == declaration.path {
            try body(declaration.readable, .value(olderBuilds.readableFrom))
            if olderBuilds.writableFrom != version {
                try body(declaration.writable, .value(olderBuilds.writableFrom))
            }
        }
    }

    /// Writes the spec's part of `place` into `container`, which stands at it, with the objects
    /// below that nothing else has written: in the order of ``forEachEntry(at:_:)``, each value
    /// through the coder's own method for its type (the version through the typed one, its fast
    /// path).
    func write(_ place: SpecWritten, into container: inout KeyedEncodingContainer<ForwardedKey>) throws {
        if !unknownFields.isEmpty {
            for (key, value) in keptFields(at: place) {
                try container.encode(value, forKey: ForwardedKey(stringValue: key))
            }
        }
        for index in place.keys.indices {
            let key = place.keys[index]
            if index == place.versionIndex {
                if let version { try container.encode(version, forKey: ForwardedKey(stringValue: key)) }
                continue
            }
            switch place.values[index] {
            case .value(let value):
                if !gaveWay.isEmpty, gaveWay.contains(place.path + [key]) {
                    break
                }
                if let integer = value as? Int {
                    try container.encode(integer, forKey: ForwardedKey(stringValue: key))
                } else {
                    try container.encode(value, forKey: ForwardedKey(stringValue: key))
                }
            case .object(let child) where !isMerged(child):
                let forwarded = ForwardedKey(stringValue: key)
                guard child.holdsOnlySingleValues, kept(at: child.path).isEmpty else {
                    // As a value, as a synthesized spec writes its object: JSONEncoder hands the
                    // values of a nested container encoders whose coding path lacks the
                    // container's key, which a date or data strategy, or a value's own encoding,
                    // would see.
                    try container.encode(MergedValue.object(child, self), forKey: forwarded)
                    break
                }
                markMerged(child)
                var nested = container.nestedContainer(keyedBy: ForwardedKey.self, forKey: forwarded)
                try write(child, into: &nested)
            case .object:
                break
            }
        }
        if let olderBuilds, let declaration, place.path == declaration.path {
            try container.encode(olderBuilds.readableFrom, forKey: ForwardedKey(stringValue: declaration.readable))
            if olderBuilds.writableFrom != version {
                try container.encode(olderBuilds.writableFrom, forKey: ForwardedKey(stringValue: declaration.writable))
            }
        }
    }

    /// The error for what was found, if anything, as the encode of `value` throws it.
    ///
    /// At the root of a document it is the error thrown where it was found: 1.2's case itself,
    /// so that `catch` clauses keep matching. A versioned part inside a document gets it as the
    /// `underlyingError` of an `EncodingError.invalidValue` that names the part's type, its
    /// coding path and the field.
    func error<Value: VersionedCodable>(writing value: Value) -> (any Error)? {
        guard let finding else {
            return nil
        }
        let error = error(for: finding)
        guard !partPath.isEmpty else {
            return error
        }
        let part = "\(Value.self) at \(describePath(partPath))"
        let spec = "its VersionPathSpec (\(Value.VersionSpec.self))"
        let description: String
        switch finding {
        case .clash(let path, let atVersion):
            let there =
                atVersion
                ? "\(spec) puts the version"
                : pathsReadFirst.contains(path)
                    ? "the build of another version of its chain reads the version with another spec"
                    : "\(spec) writes a value of its own"
            description =
                "\(part) writes its own value at \(describeField(path)), where \(there)"
                + ". Rename that field, leave it out where it copies what the spec writes, or choose "
                + "another version path; what the spec writes never overwrites the type's values silently."
        case .entry(let path) where pathsReadFirst.contains(path):
            description =
                "\(part) writes a dictionary with an entry at \(describeField(path)), where the build of "
                + "another version of its chain reads the version with another spec, and would read another version."
        case .entry(let path):
            description =
                "\(part) writes a dictionary with an entry at \(describeField(path)), where \(spec) "
                + "writes; the entry would be lost. A mirror of the version is a property the type "
                + "declares, never a dictionary entry."
        case .notAnObject(let path):
            description =
                "\(part) writes a single value, `nil` or an array at \(describeField(path)), which "
                + "cannot hold the version: the path of \(spec) needs a keyed object there."
        case .empty(let path):
            description =
                "\(part) writes an object at \(describeField(path)) that holds nothing but what \(spec) "
                + "writes there, so it would read back as nil, or as no entry of its dictionary."
        }
        return EncodingError.invalidValue(
            value,
            EncodingError.Context(codingPath: partPath, debugDescription: description, underlyingError: error)
        )
    }

    private func describeField(_ path: [String]) -> String {
        path.isEmpty ? "its root" : "`\(path.joined(separator: "."))`"
    }
}

// MARK: - What the spec writes

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

    /// Whether every value here and below is one of the coders' own single values, or `nil`,
    /// which a coder writes without an encoder of its own.
    var holdsOnlySingleValues: Bool {
        values.allSatisfy { entry in
            switch entry {
            case .value(let value):
                // The type itself first: looking through optionals costs a conformance check.
                isSingleValue(type(of: value)) || isSingleValue(innermostWrappedType(of: type(of: value)))
            case .object(let child): child.holdsOnlySingleValues
            }
        }
    }

    /// What is written here, with the version where it stands for the version being written
    /// (`version`), and `value` at `path` below, where nothing is written.
    func inserting(_ value: any Encodable, at path: ArraySlice<String>, version: Int?) -> SpecWritten {
        var keys = keys
        var values = values
        if let versionIndex {
            values[versionIndex] = .value(version)
        }
        if let index = keys.firstIndex(of: path.first!), case .object(let child) = values[index] {
            values[index] = .object(child.inserting(value, at: path.dropFirst(), version: version))
        } else {
            keys.append(path.first!)
            values.append(
                path.count == 1
                    ? .value(value)
                    : .object(
                        SpecWritten(path: self.path + [path.first!], keys: [], values: [])
                            .inserting(value, at: path.dropFirst(), version: version)
                    )
            )
        }
        return SpecWritten(path: self.path, keys: keys, values: values)
    }

    /// The paths, depth first in the order the spec wrote them, of the values here and below
    /// other than `nil` and the version being written, with the values.
    func leaves() -> [(path: [String], value: any Encodable)] {
        zip(keys, values).enumerated().flatMap { index, item -> [(path: [String], value: any Encodable)] in
            switch item.1 {
            case .object(let child): return child.leaves()
            case .value where index == versionIndex: return []
            case .value(let value) where (value as? any NilRepresentable)?.isNil == true: return []
            case .value(let value): return [(path + [item.0], value)]
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

/// Whether `key` could name the older builds that may read a document beside its version
/// (`versionReadableFrom`): the one test every key a type writes where a spec writes passes.
@inline(__always)
func mayNameOlderBuilds(_ key: String) -> Bool {
    key.utf8.count > 12 && (key.hasSuffix("ReadableFrom") || key.hasSuffix("WritableFrom"))
}

/// `value` as a `T` it is known to be: a coder's `userInfo` value as the `any Sendable` that
/// Foundation's coders take, which every value is, as `Sendable` is a marker.
func cast<T>(_ value: Any, to type: T.Type) -> T {
    value as! T
}

/// The value as an `Int`, when it is an integer that fits.
func integer(_ value: any Encodable) -> Int? {
    (value as? any BinaryInteger).flatMap { Int(exactly: $0) }
}
