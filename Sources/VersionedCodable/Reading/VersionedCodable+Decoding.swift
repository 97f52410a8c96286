import Foundation

/// How deep in a document a versioned part may start: the number of keys and indexes on its
/// coding path. A tree of ``Versioned`` parts nested to this depth reads and writes on a
/// 512 KB thread in a debug build; a part deeper than this throws a `DecodingError` (or an
/// `EncodingError`) that says so, and where, rather than risk the thread's stack.
public let maximumVersionedPartDepth = 128

extension VersionedCodable {
    /// Reads the stored version through `decoder`, then decodes the matching historical type
    /// from the same decoder and migrates it up to `Self`: the single pass behind every
    /// versioned decode.
    ///
    /// The version and the type share one root keyed container (see ``PlaceDecoder``), so
    /// the root object is indexed once, as in a plain decode, and the decoder's own
    /// configuration applies to the version and to every field.
    ///
    /// - Parameters:
    ///   - decoder: The decoder positioned at the document.
    ///   - readingNewer: Whether a document newer than `Self` that lets older builds read it is
    ///     read as `Self`, keeping the fields `Self` does not read: only where the result is a
    ///     ``Versioned`` that writes them back.
    ///   - walk: The chain walk: ``decodeMigrating(storedVersion:from:)``, as compiled in the
    ///     module that calls it (see ``VersionedDocument``).
    /// - Returns: The document migrated to `Self`, with the version it was stored with.
    /// - Throws: `DecodingError` for malformed data, ``VersionedDecodingError`` when the version
    ///   is not in the chain, and any error a migration step throws. Inside a document, such an
    ///   error is wrapped in a `DecodingError` that says where the part is (see
    ///   ``locatingFailure(_:of:found:)``).
    @inlinable
    static func decodeVersionedPart(
        from decoder: any Decoder,
        readingNewer: Bool = false,
        walk: (Int?, any Decoder) throws -> Self = decodeMigrating
    ) throws -> Versioned<Self> {
        let shared = PlaceDecoder(base: decoder)
        // The stored version, once read (`.some(nil)`: the document has none), for the error.
        var found: Int?? = nil
        do {
            let storedVersion = try openVersioned(shared, readingNewer: readingNewer, found: &found)
            // The chain's stopper, whose version is `nil`, throws the type mismatch it documents.
            if storedVersion == version {
                return Versioned(decoded: try decodeOwn(from: shared), storedVersion: version, newer: nil)
            }
            return try decodeOther(shared, storedVersion: storedVersion, walk: walk)
        } catch {
            throw locatingFailure(error, of: shared, found: found)
        }
    }

    /// Decodes a document of another version than `Self`'s: an older one, migrated up, or a
    /// newer one that this build may read.
    ///
    /// Out of line, so that a tree of versioned parts, which recurses through
    /// ``decodeVersionedPart(from:readingNewer:walk:)``, does not pay for this frame on every
    /// level.
    @usableFromInline
    @inline(never)
    static func decodeOther(
        _ shared: PlaceDecoder,
        storedVersion: Int?,
        walk: (Int?, any Decoder) throws -> Self
    ) throws -> Versioned<Self> {
        if shared.newer != nil {
            return try decodeNewer(shared)
        }
        return Versioned(decoded: try walk(storedVersion, shared), storedVersion: storedVersion, newer: nil)
    }

    /// Checks the part's depth and the chain, and reads the stored version, which it returns and,
    /// before the chain is checked, puts in `found`. A newer document that this build may read
    /// is noted in `shared`.
    ///
    /// Out of line, so that its frame is gone before the type's fields (and the parts nested in
    /// them) are read.
    @usableFromInline
    @inline(never)
    static func openVersioned(_ shared: PlaceDecoder, readingNewer: Bool, found: inout Int??) throws -> Int? {
        if Self.self == NothingEarlier.self {
            return nil
        }
        let codingPath = shared.codingPath
        if codingPath.count > maximumVersionedPartDepth {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: tooDeepDescription)
            )
        }
        let chain = VersionChain(for: Self.self)
        var storedVersion = try readStoredVersion(from: shared, chain: chain)
        if let listed = VersionsToWrite.listed(in: shared.userInfo, under: .versionsToRead)?.version(for: Self.self) {
            // A document of a type the decoder's `versionsToRead` lists is the listed version:
            // one that carries no version is read as it, one that carries another is refused.
            if let stored = storedVersion, stored != listed {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "The \(Self.self) is version \(stored), but this decode reads it as version "
                            + "\(listed.map(String.init) ?? "unversioned"), as the decoder's versionsToRead lists it."
                    )
                )
            }
            storedVersion = listed
        }
        found = storedVersion
        if chain.problem != nil || !chain.contains(version: storedVersion) {
            // A newer document is read only where this type's own spec keeps the version: it
            // is written back there.
            if readingNewer, chain.problem == nil, let stored = storedVersion, let newest = version,
                stored > newest, shared.foundByOwnSpec,
                let declared = try readDeclaration(
                    in: shared.sharedRoot(),
                    shared.place,
                    stored: stored,
                    versionKeyIsKnown: VersionSpec.self == VersionKeyAtRootVersionPathSpec.self
                ),
                declared.readableFrom <= newest
            {
                shared.newer = (stored, declared.readableFrom, declared.writableFrom)
                return storedVersion
            }
            try chain.checkCanDecode(storedVersion: storedVersion)
        }
        return storedVersion
    }

    /// Reads a newer document as this type, the newest this build knows, which the document
    /// says older builds may read: the fields that this type does not read are kept, at its root
    /// and in the objects where the spec reads.
    @usableFromInline
    static func decodeNewer(_ shared: PlaceDecoder) throws -> Versioned<Self> {
        let read = KeyNotes(capacity: 16)
        shared.typeKeys = read
        let value = try decodeOwn(from: shared)
        let (stored, readable, writable) = shared.newer!
        let unknown = try unreadFields(of: try shared.sharedRoot(), place: shared.place, read: read)
        // Written back, the spec's part is what this build's spec writes for the document's
        // version: where the document holds another (a label the newer build's spec changed),
        // it would be replaced, so this build only reads the document.
        let writableFrom = writesSpecAsRead(shared, version: stored) ? writable : max(writable, stored)
        return Versioned(decoded: value, storedVersion: stored, newer: (stored, readable, writableFrom, unknown))
    }

    /// Whether `VersionSpec(withVersion: version)` writes what the spec reads from the document at
    /// `shared`, as JSON with the decoder's `userInfo`; the default spec writes the version alone.
    /// A spec that cannot be read again or written as JSON is not known to, and is taken not to.
    private static func writesSpecAsRead(_ shared: PlaceDecoder, version: Int) -> Bool {
        guard VersionSpec.self != VersionKeyAtRootVersionPathSpec.self else {
            return true
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.userInfo = shared.userInfo.mapValues { cast($0, to: (any Sendable).self) }
        guard let read = try? encoder.encode(VersionSpec.read(from: shared)),
            let written = try? encoder.encode(VersionSpec(withVersion: version))
        else {
            return false
        }
        return read == written
    }

    /// The oldest versions that the document says may read and write it, if it says: beside
    /// a value the spec read that holds the version, in `object`, the object where `keys` were
    /// read. Where `versionKeyIsKnown` (the default spec, which read the version as an integer
    /// from its one key), that key is not read again.
    private static func readDeclaration(
        in object: KeyedDecodingContainer<ForwardedKey>,
        _ keys: KeysRead,
        stored: Int,
        versionKeyIsKnown: Bool = false
    ) throws -> (readableFrom: Int, writableFrom: Int)? {
        for key in keys.keys {
            let forwarded = ForwardedKey(stringValue: key)
            if let child = keys.child(key) {
                guard object.contains(forwarded), try !object.decodeNil(forKey: forwarded),
                    let found = try readDeclaration(
                        in: object.nestedContainer(keyedBy: ForwardedKey.self, forKey: forwarded),
                        child,
                        stored: stored
                    )
                else {
                    continue
                }
                return found
            }
            let declaration = declarationKeys(besideVersionKey: key)
            guard versionKeyIsKnown || (try? object.decodeIfPresent(Int.self, forKey: forwarded)) == stored,
                let readable = try object.decodeIfPresent(
                    Int.self,
                    forKey: ForwardedKey(stringValue: declaration.readable)
                )
            else {
                continue
            }
            let writable = try object.decodeIfPresent(Int.self, forKey: ForwardedKey(stringValue: declaration.writable))
            return (readable, writable ?? stored)
        }
        return nil
    }

    /// Reads the version as the specs of the chain read it from this document, and gives
    /// `shared` the place of the spec that read it.
    ///
    /// `Self`'s own spec is asked first, as in VersionedCodable 1.2. When it reads no version,
    /// or throws, the specs of older versions that keep the version elsewhere are asked, newest
    /// first, so that every document a version of the chain wrote reads back; the first that
    /// reads a version decides (see ``confirm(_:after:from:chain:)``). When none does, the first
    /// error a spec threw is thrown (a version at an older spec's place that is not a number is
    /// no missing version), and otherwise the document has no version.
    static func readStoredVersion(from shared: PlaceDecoder, chain: VersionChain) throws -> Int? {
        let (version, keys) = try readVersion(from: shared, chain: chain)
        // In a document that may name the older builds that may read it, the keys that name them
        // are the spec's too.
        let namingOlderBuilds = chain.mayNameOlderBuilds(version: version)
        shared.place =
            keys.map { keys in
                // The first place made for the type, which most documents share.
                let first = placesRead.value(for: Self.self) { keys.read(namingOlderBuilds: namingOlderBuilds) }
                return keys.read(namingOlderBuilds: namingOlderBuilds, as: first)
            }
            ?? (namingOlderBuilds
                ? VersionKeyAtRootVersionPathSpec.keysReadNamingOlderBuilds : VersionKeyAtRootVersionPathSpec.keysRead)
        return version
    }

    /// The version and the keys the spec read, or `nil` for the default spec's; where an older
    /// spec of the chain read it, `shared.foundByOwnSpec` says so.
    private static func readVersion(from shared: PlaceDecoder, chain: VersionChain) throws -> (Int?, KeyNotes?) {
        if VersionSpec.self == VersionKeyAtRootVersionPathSpec.self, chain.specs.count == 1 {
            // Exactly what the default spec's synthesized `init(from:)` reads, at the place the
            // shared root has from the start.
            return (try shared.sharedRoot().decodeIfPresent(Int.self, forKey: VersionKeyAtRootVersionPathSpec.key), nil)
        }
        guard chain.specs.count > 1 else {
            return try VersionSpec.readVersion(from: shared, in: chain, at: chain.specs[0].versionOffset)
        }
        var ownKeys: KeyNotes?
        var failure: (any Error)?
        for (index, (spec, offset)) in chain.specs.enumerated() {
            let read: (version: Int?, keys: KeyNotes?)
            do {
                read = try spec.readVersion(from: shared, in: chain, at: offset)
            } catch {
                failure = failure ?? error
                continue
            }
            // A version of the chain that the spec which read it does not keep, and that no spec
            // asked after it confirms, was written by none of the chain's builds with that spec:
            // it is a field of the type's own, and counts as no version read.
            if let version = read.version,
                let found = try confirm((version, read.keys, spec), after: index, from: shared, chain: chain)
            {
                shared.foundByOwnSpec = found.spec == VersionSpec.self
                return (found.version, found.keys)
            }
            if index == 0 {
                ownKeys = read.keys
            }
        }
        // No spec read a version. One that could not read what stands at its place (a damaged
        // version, or a value of the type's own) leaves it unknown whether the document has
        // none: its error is thrown, rather than the document read as the `nil` version.
        if let failure {
            throw failure
        }
        // The document is the `nil` version's, unless the decoder's `versionsToRead` reads it as
        // a numbered one: where that version's spec is an older one, its places are that
        // spec's, as they were when it was written. The list is looked up only then, as the
        // coder's `userInfo` is converted on every ask.
        if let own = chain.spec(of: nil), own.index > 0,
            case let listed = VersionsToWrite.listed(in: shared.userInfo, under: .versionsToRead),
            (listed?.version(for: Self.self) ?? nil) == nil,
            let (_, keys) = try? own.type.readVersion(from: shared, in: chain, at: own.versionOffset)
        {
            return (nil, keys)
        }
        return (nil, ownKeys)
    }

    /// The version that `found`, what the spec at `index` of the chain's specs read first, stands
    /// for, asked of the specs after it: each that reads a version of a type keeping its version
    /// with that spec.
    ///
    /// An older version's own field may stand where a newer spec reads, and a newer one's where
    /// an older spec reads. Where the version found is not its own spec's, but a spec asked later
    /// reads one of its own (the same version, or another), the document is that version's, with
    /// that spec's places: the field is the type's. Where none does, no version is found (`nil`):
    /// none of the chain's builds writes that number there. Where the version found is its own
    /// spec's, or newer than every version of the chain, another spec that reads one of its own
    /// makes the document either version's: unless the decoder's `versionsToRead` says which,
    /// decoding stops with ``VersionedDecodingError/ambiguousVersion(versions:_:)``. No encode
    /// writes such a document (see ``SpecWriter/checkReadFirst()``).
    private static func confirm(
        _ found: (version: Int, keys: KeyNotes?, spec: any VersionPathSpec.Type),
        after index: Int,
        from shared: PlaceDecoder,
        chain: VersionChain
    ) throws -> (version: Int, keys: KeyNotes?, spec: any VersionPathSpec.Type)? {
        var found = found
        // A number that is no version of the chain, and not newer than all of them (a `0` of the
        // type's own), is kept by no spec either.
        var holds =
            chain.spec(of: found.version)?.type == found.spec
            || chain.newestNumbered.map { found.version > $0 } ?? true
        // A spec that keeps only the `nil` version reads none of its own, and is not asked.
        for (later, offset) in chain.specs.dropFirst(index + 1)
        where chain.types.contains(where: { $0.versionSpecType == later && $0.version != nil }) {
            guard let (read, keys) = try? later.readVersion(from: shared, in: chain, at: offset), let read,
                read != found.version || !holds, chain.spec(of: read)?.type == later
            else {
                continue
            }
            if holds {
                // Looked up only here, as the coder's `userInfo` is converted on every ask.
                let list = VersionsToWrite.listed(in: shared.userInfo, under: .versionsToRead)
                let listed = list?.version(for: Self.self)
                if listed == .some(.some(found.version)) {
                    continue
                }
                guard listed == .some(.some(read)) else {
                    throw VersionedDecodingError.ambiguousVersion(
                        versions: [found.version, read],
                        DecodingError.Context(
                            codingPath: shared.codingPath,
                            debugDescription: "The \(Self.self) reads as version \(found.version) through "
                                + "\(found.spec) and as version \(read) through \(later), which version \(read) keeps "
                                + "its version with: one version's own field stands where the other's spec reads, "
                                + "and the document could be either's. List the version it has in the decoder's "
                                + "versionsToRead to read it."
                        )
                    )
                }
            }
            found = (read, keys, later)
            holds = true
        }
        return holds ? found : nil
    }

    /// Decodes the value at a versioned part's root from `decoder`, the part's ``PlaceDecoder``:
    /// a dictionary as a plain decode reads one, through ``DictionaryAtPlace``, so that its keys
    /// are read as they are under any key strategy, and anything else by its own `init(from:)`.
    @inlinable
    static func decodeOwn(from decoder: any Decoder) throws -> Self {
        if isDictionaryAtPlace(Self.self) {
            return try decodeDictionary(from: decoder)
        }
        return try Self(from: decoder)
    }

    /// Decodes a dictionary that is the versioned value itself, without what the spec read.
    @usableFromInline
    @inline(never)
    static func decodeDictionary(from decoder: any Decoder) throws -> Self {
        // As a dictionary is read at any object where a spec reads; in a newer document it reads
        // every key, so none is left to keep.
        let shared = decoder as! PlaceDecoder
        return try decodeObject(Self.self, shared.place, from: shared.base, notes: shared.typeKeys)
    }

    /// Walks down `PreviousVersion` to the type with `storedVersion`, decodes it and migrates
    /// the value back up. The caller has checked that the chain is sound and has the version,
    /// so the walk ends at it. Inlinable, so that a module that calls it for its own type
    /// compiles it for that type's chain (see ``VersionedDocument``).
    ///
    /// - Throws: Any error that decoding the stored type throws, and an error a migration step
    ///   throws inside a ``MigrationStepFailure`` that names the step.
    @inlinable
    static func decodeMigrating(storedVersion: Int?, from decoder: any Decoder) throws -> Self {
        if storedVersion == version {
            return try decodeOwn(from: decoder)
        }
        let previous = try PreviousVersion.decodeMigrating(storedVersion: storedVersion, from: decoder)
        do {
            return try Self(from: previous)
        } catch {
            throw MigrationStepFailure(from: PreviousVersion.self, to: Self.self, error: error)
        }
    }

    /// The error to report for a versioned part that could not be read.
    ///
    /// At the root of a document the error is returned unchanged, so that 1.2's `catch`
    /// clauses keep matching. Inside a document a versioning or migration error would not say
    /// which part failed, so it is wrapped in a `DecodingError` that gives the coding path, the
    /// stored version and the versions the chain supports.
    @usableFromInline
    static func locatingFailure(_ thrown: any Error, of shared: PlaceDecoder, found: Int??) -> any Error {
        // A migration step's error comes wrapped with the step; at the root it is handed back
        // unchanged, as 1.2 did.
        let step = thrown as? MigrationStepFailure
        let error = step?.error ?? thrown
        let codingPath = shared.codingPath
        guard !codingPath.isEmpty, step != nil || !(error is DecodingError) else {
            return error
        }
        let place = describePath(codingPath)
        let wasRead = found != nil
        let found = found.map { $0.map { "version \($0)" } ?? "no version" } ?? "a version that could not be read"
        let supported = VersionChain(for: Self.self).versions.map(describeVersion).joined(separator: ", ")
        let description: String
        switch error {
        case VersionedDecodingError.unsupportedVersion, VersionedDecodingError.documentVersionTooNew:
            description = "\(Self.self) at \(place) has \(found); \(Self.self) supports versions \(supported)."
        case let error as VersionedDecodingError where step == nil:
            description = "\(Self.self) at \(place) (\(found)) cannot be read: \(error)"
        case _ where !wasRead:
            // A spec's own error from reading the version (the coder's are returned above): no
            // migration has run.
            description = "\(Self.self) at \(place) has \(found): \(error)"
        default:
            let stepText = step.map { " at the step \($0.step)" }
            description =
                "\(Self.self) at \(place) has \(found), and migrating it to version "
                + "\(describeVersion(version)) failed\(stepText ?? ""): \(error)"
        }
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: description, underlyingError: error)
        )
    }
}

/// What a decode or an encode says about a part nested deeper than ``maximumVersionedPartDepth``.
let tooDeepDescription =
    "The document nests a versioned part more than \(maximumVersionedPartDepth) keys and indexes deep, "
    + "deeper than VersionedCodable reads or writes one."

/// `items[3].note`, as a person would write the place of a value in a document.
func describePath(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
        if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
            text += "[\(index)]"
        } else {
            text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
    }
    return text.isEmpty ? "the root" : text
}

/// Reads only the version a document is stored with, the way a versioned decode of `Value`
/// reads it, with a missing version read as `nil`.
struct StoredVersionReader<Value: VersionedCodable>: Decodable {
    let version: Int?

    init(from decoder: any Decoder) throws {
        version = try Value.readStoredVersion(
            from: PlaceDecoder(base: decoder),
            chain: VersionChain(for: Value.self)
        )
    }
}

/// The first place that a spec read for each versioned type, reused where a later document's is
/// the same.
let placesRead = TypeKeyedCache<KeysRead>()

/// A versioned document decoded with its chain walk, compiled in the module that decodes it.
///
/// The coders reach a versioned decode through `Versioned`'s `Decodable` conformance, which
/// this module compiles once for every type, so the walk down the chain runs as generic code,
/// looking each step's types up at run time. `decode(versioned:)` is compiled in the caller's
/// module, which knows the type, so it hands ``VersionedCodable/decodeMigrating(storedVersion:from:)``
/// as compiled there to the decode, as its decoding configuration.
@available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
@usableFromInline
struct VersionedDocument<Value: VersionedCodable>: DecodableWithConfiguration {
    @usableFromInline
    let versioned: Versioned<Value>

    @inlinable
    init(from decoder: any Decoder, configuration walk: (Int?, any Decoder) throws -> Value) throws {
        versioned = try Value.decodeVersionedPart(from: decoder, walk: walk)
    }
}

/// The fields of `object` that neither the spec nor the type read, to be written back as they
/// came: in an object the spec read into (`_metadata`), those the type did not read there,
/// kept as an object of only them.
private func unreadFields(
    of object: KeyedDecodingContainer<ForwardedKey>,
    place: KeysRead,
    read: KeyNotes?
) throws -> [(key: String, value: UnknownValue)] {
    guard read?.readAll != true else {
        return []
    }
    let keysRead = read?.keys ?? []
    var unread: [(key: String, value: UnknownValue)] = []
    for key in object.allKeys {
        let name = key.stringValue
        guard let below = place.child(name) else {
            if !keysRead.contains(name), !place.owns(name) {
                unread.append((name, try object.decode(UnknownValue.self, forKey: key)))
            }
            continue
        }
        guard let inner = try? object.nestedContainer(keyedBy: ForwardedKey.self, forKey: key) else {
            continue
        }
        let fields = try unreadFields(of: inner, place: below, read: read?.child(name))
        if !fields.isEmpty {
            unread.append((name, .object(fields)))
        }
    }
    return unread
}
