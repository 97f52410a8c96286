import Foundation

extension VersionedCodable {
    /// Writes the value at the root of a document that `encode(versioned:)` writes, with the
    /// list of older versions the encoder object's `userInfo` holds, if any.
    ///
    /// Read from the encoder object once, rather than from the encoder each value is written
    /// to, whose `userInfo` Foundation's coders convert on every read. The root needs no depth
    /// check: the first versioned part inside the document starts counting.
    func encodeVersionedAtRoot(
        to encoder: any Encoder,
        versionsToWrite: VersionsToWrite?,
        keyStrategy: JSONEncoder.KeyEncodingStrategy?
    ) throws {
        guard let requested = versionsToWrite?.version(for: Self.self), requested != Self.version else {
            return try Self.write(self, asVersion: Self.version, to: encoder, atRoot: true, keyStrategy: keyStrategy)
        }
        try encodeVersioned(asVersion: requested, to: encoder, keyStrategy: keyStrategy)
    }

    /// Writes the value, then what its spec writes for its type's version, merged.
    ///
    /// A ``VersionsToWrite`` list in the encoder's `userInfo` may ask for an older version.
    func encodeVersioned(to encoder: any Encoder, newer: NewerDocument? = nil) throws {
        if newer == nil, VersionsToWrite.listed(in: encoder.userInfo) == nil {
            return try Self.write(self, asVersion: Self.version, to: encoder)
        }
        try encodeVersioned(asRequestedTo: encoder, newer: newer)
    }

    /// Writes the value as the version the encoder's ``VersionsToWrite`` asks for, or back as
    /// the newer document it was read from.
    ///
    /// Out of line, so that a tree of versioned parts, which recurses through
    /// ``encodeVersioned(to:newer:)``, does not pay for this frame on every level.
    @inline(never)
    private func encodeVersioned(asRequestedTo encoder: any Encoder, newer: NewerDocument?) throws {
        let requested = VersionsToWrite.requested(for: Self.self, in: encoder.userInfo)
        if newer == nil, requested == nil || requested == Self.version {
            return try Self.write(self, asVersion: Self.version, to: encoder)
        }
        do {
            if let newer {
                // A document newer than this build is written back as itself, or not at all.
                guard requested == nil, let newest = Self.version, newer.writableFrom <= newest else {
                    throw VersionedEncodingError.cannotWriteNewerDocument(
                        storedVersion: newer.storedVersion,
                        writableFrom: newer.writableFrom
                    )
                }
                return try Self.write(self, asVersion: newer.storedVersion, to: encoder, newer: newer)
            }
            try encodeVersioned(asVersion: requested!, to: encoder)
        } catch let error as VersionedEncodingError where !encoder.codingPath.isEmpty {
            // A part inside a document that cannot be written as the version asked for, or back
            // as its own newer version: say which part, as a clash inside a document does.
            let version = newer.map { "its version \($0.storedVersion), read from a newer document" }
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "\(Self.self) at \(describePath(encoder.codingPath)) cannot be written as "
                        + "\(version ?? "version \(describeVersion(requested!))"): \(error)",
                    underlyingError: error
                )
            )
        }
    }

    /// Walks down the chain with ``downgraded()`` until it reaches the type with `version`,
    /// and writes that value with its own version, for the builds of `newest`, the type the walk
    /// started from, and of every type on the way (`newerSpecs`: the newest one's spec, and
    /// whether every type on the way keeps the version with it) to read as well as older ones.
    func encodeVersioned(
        asVersion version: Int?,
        to encoder: any Encoder,
        keyStrategy: JSONEncoder.KeyEncodingStrategy? = nil,
        readBy newest: (any VersionedCodable.Type)? = nil,
        newerSpecs: (newest: any VersionPathSpec.Type, alike: Bool)? = nil
    ) throws {
        if version == Self.version {
            // The build of each newer type asks its own spec first: where one is not this
            // version's, it may read a value of the type's as a version.
            let reader = newerSpecs.flatMap { $0.alike && $0.newest == VersionSpec.self ? nil : newest }
            return try Self.write(self, asVersion: version, to: encoder, keyStrategy: keyStrategy, readBy: reader)
        }
        try VersionChain(for: Self.self).checkCanEncode(asVersion: version)
        guard PreviousVersion.self != NothingEarlier.self, PreviousVersion.self != Never.self else {
            throw VersionedEncodingError.noDowngrade(from: Self.self)
        }
        try downgraded().encodeVersioned(
            asVersion: version,
            to: encoder,
            keyStrategy: keyStrategy,
            readBy: newest ?? Self.self,
            newerSpecs: newerSpecs.map { ($0.newest, $0.alike && $0.newest == VersionSpec.self) }
                ?? (VersionSpec.self, true)
        )
    }

    private static func write(
        _ value: Self,
        asVersion version: Int?,
        to encoder: any Encoder,
        newer: NewerDocument? = nil,
        atRoot: Bool = false,
        keyStrategy: JSONEncoder.KeyEncodingStrategy? = nil,
        readBy newest: (any VersionedCodable.Type)? = nil
    ) throws {
        let writer = try makeWriter(
            value,
            asVersion: version,
            to: encoder,
            newer: newer,
            atRoot: atRoot,
            keyStrategy: keyStrategy,
            readBy: newest
        )
        do {
            if isDictionaryAtPlace(Self.self) {
                try writeDictionary(value, by: writer, to: encoder)
            } else {
                try value.encode(to: writer)
            }
            try writer.finish(writer.spec, into: encoder)
            if writer.readByOthers {
                try writer.checkReadFirst()
            }
        } catch {
            throw writer.error(writing: value) ?? error
        }
        if let error = writer.error(writing: value) {
            throw error
        }
    }

    /// Writes a dictionary that is the versioned value itself as a value, as a plain encode of it
    /// is, so that its keys are written as the coder writes any such dictionary's.
    ///
    /// Out of line, so that a tree of parts does not pay for its frame on every level.
    @inline(never)
    private static func writeDictionary(_ value: Self, by writer: SpecWriter, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(writer.following(value, at: writer.spec))
    }

    /// The writer for one encode of `value`: the depth checked, the spec asked what it writes,
    /// and the older builds that may read the document named. `newest`, where an older version
    /// is written for its builds, is the newer type whose builds read it too.
    ///
    /// `atRoot` says that the value is the document's root, as on the common path of
    /// `encode(versioned:)`, so the encoder is not asked for its coding path, which Foundation's
    /// encoders make on every ask; the other ways to the root ask, and get the same empty path.
    ///
    /// Out of line, so that its frame is gone before the type's fields (and the parts nested in
    /// them) are written.
    @inline(never)
    private static func makeWriter(
        _ value: Self,
        asVersion version: Int?,
        to encoder: any Encoder,
        newer: NewerDocument?,
        atRoot: Bool,
        keyStrategy: JSONEncoder.KeyEncodingStrategy?,
        readBy newest: (any VersionedCodable.Type)?
    ) throws -> SpecWriter {
        // Asked once: the coders' encoder objects change their coding path as values below
        // are written, so the writer keeps the part's own.
        let codingPath = atRoot ? [] : encoder.codingPath
        if codingPath.count > maximumVersionedPartDepth {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: tooDeepDescription))
        }
        // The chain is asked where a custom spec keeps the version, and for the older builds a
        // declaring version names, so a chain with a problem cannot answer. The default spec of
        // a version that declares nothing asks it nothing: its version goes to `version`, and a
        // chain's problem is thrown where a document is read.
        if VersionSpec.self != VersionKeyAtRootVersionPathSpec.self || compatibility != .incompatible,
            let problem = VersionChain(for: Self.self).problem
        {
            throw VersionedDecodingError.invalidVersionChain(problem)
        }
        // The spec is asked what it writes for this version, with this encoder's `userInfo`; the
        // default spec's answer is known: its version at the root.
        let spec =
            VersionSpec.self == VersionKeyAtRootVersionPathSpec.self
            ? VersionKeyAtRootVersionPathSpec.written
            : try SpecRecorder.record(VersionSpec(withVersion: version), userInfo: encoder.userInfo)
        let writer = SpecWriter(
            base: encoder,
            partPath: codingPath,
            spec: spec,
            version: version,
            valueType: Self.self,
            olderBuilds: newer.map { ($0.readableFrom, $0.writableFrom) }
                ?? (compatibility != .incompatible && version == Self.version ? olderBuilds : nil),
            unknownFields: newer?.unknownFields ?? [],
            keyStrategy: keyStrategy,
            readFirstBy: newest,
            // The build of an older version with another spec asks that spec first.
            readByOlder: olderVersionsUseAnotherSpec
        )
        if version == nil || writer.olderBuilds != nil || writer.readByOthers {
            try writer.findVersionPaths()
        }
        if writer.olderBuilds != nil, writer.versionPaths.isEmpty {
            throw VersionedDecodingError.invalidVersionChain(
                .unsupportedSpec(VersionSpec.self, reason: olderBuildsCannotBeNamed)
            )
        }
        try checkNotSharingPlace(with: encoder, writer: writer)
        return writer
    }

    /// Throws when this value is written into an object where an enclosing versioned value's
    /// spec writes one of the same keys (a type that forwards its encoding to a `Versioned`
    /// part): one of the two would be lost.
    private static func checkNotSharingPlace(with encoder: any Encoder, writer: SpecWriter) throws {
        // Compared by type rather than cast: a dynamic cast of an existential costs more than
        // the rest of what versioning adds to a small encode.
        let enclosing: (writer: SpecWriter, place: SpecWritten)
        switch ObjectIdentifier(type(of: encoder)) {
        case ObjectIdentifier(SpecWriter.self):
            let outer = encoder as! SpecWriter
            enclosing = (outer, outer.spec)
        case ObjectIdentifier(PlaceEncoder.self):
            let place = encoder as! PlaceEncoder
            enclosing = (place.writer, place.place)
        default:
            return
        }
        if let path = sharedKey(writer.spec, enclosing.place, of: enclosing.writer) {
            throw enclosing.writer.refuse(.clash(path: path, atVersion: enclosing.writer.isVersion(path)))
        }
    }

    /// The path of the first key that a part's spec writes at `inner` and an enclosing spec at
    /// `outer`, followed into the objects both write there, so that the key named is the one
    /// whose value one of them would lose (`_metadata.version`, not `_metadata`).
    private static func sharedKey(_ inner: SpecWritten, _ outer: SpecWritten, of writer: SpecWriter) -> [String]? {
        for (key, entry) in zip(inner.keys, inner.values) {
            guard let role = writer.role(of: key, at: outer) else {
                continue
            }
            if case .object(let innerObject) = entry, case .object(let outerObject) = role,
                let below = sharedKey(innerObject, outerObject, of: writer)
            {
                return below
            }
            return outer.path + [key]
        }
        return nil
    }
}

/// The top-level value that `encode(versioned:)` and `encodeTransparently` hand their encoder.
///
/// It keeps the caller's existential as it came, rather than opening it into a
/// `Versioned<Value>`: the value is not copied, and no generic wrapper type is looked up for
/// every call.
struct VersionedRoot: Encodable {
    let value: any VersionedCodable
    /// The version asked for, or `nil` for the one the encoder object's list of older versions
    /// gives, which is the current version where the list says nothing.
    var version: Int?? = nil
    /// The encoder object's list of older versions to write.
    var versionsToWrite: VersionsToWrite? = nil
    /// The encoder object's key strategy, where it changes keys.
    var keyStrategy: JSONEncoder.KeyEncodingStrategy? = nil

    func encode(to encoder: any Encoder) throws {
        if let version {
            return try value.encodeVersioned(asVersion: version, to: encoder, keyStrategy: keyStrategy)
        }
        try value.encodeVersionedAtRoot(to: encoder, versionsToWrite: versionsToWrite, keyStrategy: keyStrategy)
    }
}

/// Why a spec that writes the version as no integer cannot serve a version that names the older
/// builds that may read its documents.
let olderBuildsCannotBeNamed =
    "keeps the version where no integer it writes is the version, so the older builds "
    + "that may read the document cannot be named beside it; declare this version incompatible"
