extension VersionedCodable {
    /// Reads the stored version through `decoder`, then decodes the matching historical type
    /// from the same decoder and migrates it up to `Self`.
    ///
    /// This is the single pass behind every versioned decode: the document is never parsed
    /// twice, and the decoder's own configuration applies to the version and to every field.
    /// The version and the type share one root keyed container (see ``SharedRootDecoder``), so
    /// the root object is indexed once, as in a plain decode.
    ///
    /// Inlined into ``Versioned/init(from:)``, so that a nested part costs one frame, not two.
    /// That frame is on the stack once for every versioned part a document nests (a tree of
    /// `Versioned` nodes recurses through it), so it holds only what the nested decode needs:
    /// opening the document, reading the version and checking the chain happen in
    /// ``_openVersioned(from:)``, and describing a failure in ``locatingFailure(_:of:)``, whose
    /// frames are gone before the type's fields are read.
    ///
    /// - Parameter decoder: The decoder positioned at the document.
    /// - Returns: The document migrated to `Self`, and the version it was stored with.
    /// - Throws: `DecodingError` for malformed data, ``VersionedDecodingError`` when the version
    ///   is not in the chain, and any error a migration step throws. Inside a document, an
    ///   error that is not a `DecodingError` is wrapped in one that says where the part is (see
    ///   ``Versioned/init(from:)``).
    @inlinable
    @inline(__always)
    static func decodeVersionedPart(from decoder: any Decoder) throws -> (value: Self, storedVersion: Int?) {
        if Self.self == NothingEarlier.self {
            // An empty chain: decoding the stopper itself throws the type mismatch it documents.
            return (try Self(from: decoder), nil)
        }
        let entry = StackSpace.enter()
        if case .hop = entry {
            return try decodeOnFreshStack(from: decoder)
        }
        defer {
            if case .outermost = entry {
                StackSpace.leaveOutermost()
            }
        }
        do {
            let shared = try _openVersioned(from: decoder)
            let storedVersion = shared.storedVersion
            if storedVersion == version {
                return (try Self(from: shared), storedVersion)
            }
            return (try _decodeMigrating(storedVersion: storedVersion, from: shared), storedVersion)
        } catch {
            throw locatingFailure(error, of: decoder)
        }
    }

    /// Reads the part on a thread with a stack of its own, for a document nested deeper than
    /// the calling thread's stack holds (see ``StackSpace``).
    @inlinable
    @inline(never)
    static func decodeOnFreshStack(from decoder: any Decoder) throws -> (value: Self, storedVersion: Int?) {
        try StackSpace.onFreshStack(
            { try decodeVersionedPart(from: decoder) },
            unavailable: StackSpace.noThreadError(codingPath: decoder.codingPath)
        )
    }

    /// Opens the document for a versioned decode: reads the stored version and checks that the
    /// chain can decode it, and returns the decoder that shares the root with the type.
    ///
    /// Kept out of line (and out of ``decodeVersionedPart(from:)``'s frame), because nested
    /// versioned parts recurse through that frame and this work is done before they start;
    /// inlinable all the same, so that a conforming module specializes it for its own type.
    ///
    /// - Parameter decoder: The decoder positioned at the document.
    /// - Returns: The shared-root decoder, with the stored version.
    /// - Throws: `DecodingError` when the version cannot be read, and
    ///   ``VersionedDecodingError`` when the chain is unsound or lacks the version.
    @inlinable
    @inline(never)
    static func _openVersioned(from decoder: any Decoder) throws -> SharedRootDecoder {
        let shared = SharedRootDecoder(base: decoder)
        let storedVersion = try readStoredVersion(from: shared)
        shared.storedVersion = storedVersion
        // A chain this thread has found sound needs no more checking: the walk down it ends at
        // the stored version, or at the oldest type with `unsupportedVersion`, which
        // `locatingFailure(_:of:)` then tells apart from a document that is too new.
        if PerThreadAnswers.answer(.chainIsSound, for: Self.self) == true {
            return shared
        }
        let chain = VersionChain(for: Self.self)
        if chain.problem != nil || !chain.contains(version: storedVersion) {
            try chain.checkCanDecode(storedVersion: storedVersion)
            throw VersionedDecodingError.unsupportedVersion(tried: chain.oldest)
        }
        PerThreadAnswers.keep(true, .chainIsSound, for: Self.self)
        return shared
    }

    @inlinable
    static func readStoredVersion(from decoder: SharedRootDecoder) throws -> Int? {
        if VersionSpec.self == VersionKeyAtRootVersionPathSpec.self {
            // What the default spec's synthesized `init(from:)` does, without building a spec
            // value and applying its key path.
            let root = try decoder.sharedRoot()
            do {
                if let version = try root.decodeIfPresent(Int.self, forKey: rootVersionKey) {
                    return version
                }
            } catch {
                // Not an integer: an older version of the chain may keep it in a shape of its own.
                guard let version = try readOlderSpecsVersion(from: decoder) else {
                    throw error
                }
                return version
            }
            // No version at the root: older versions of the chain may have kept it elsewhere.
            return try readOlderSpecsVersion(from: decoder)
        }
        return try readCustomSpecVersion(from: decoder)
    }

    /// Walks down `PreviousVersion` to the type with `storedVersion`, decodes it and migrates
    /// the value back up. The caller has checked that the chain is sound and has the version,
    /// so the walk ends at it.
    ///
    /// Inlinable so that a conforming module specializes it for its own chain.
    ///
    /// - Parameters:
    ///   - storedVersion: The version found in the document.
    ///   - decoder: The decoder positioned at the document.
    /// - Returns: The document migrated to `Self`.
    /// - Throws: Any error that decoding the stored type throws, and an error a migration step
    ///   throws inside a ``MigrationStepFailure`` that names the step;
    ///   ``decodeVersionedPart(from:)`` takes it out again at the root of a document.
    @inlinable
    public static func _decodeMigrating(storedVersion: Int?, from decoder: any Decoder) throws -> Self {
        if storedVersion == version {
            return try Self(from: decoder)
        }
        if PreviousVersion.self == NothingEarlier.self {
            throw VersionedDecodingError.unsupportedVersion(tried: Self.self)
        }
        let previous = try PreviousVersion._decodeMigrating(storedVersion: storedVersion, from: decoder)
        do {
            return try Self(from: previous)
        } catch {
            throw MigrationStepFailure(from: PreviousVersion.self, to: Self.self, error: error)
        }
    }
}

/// The default spec's key. The shared root's keys print as synthesized keys do, so an error
/// about the version reads the same whether or not the spec itself is decoded.
@usableFromInline
internal let rootVersionKey = ForwardedKey(stringValue: "version")
