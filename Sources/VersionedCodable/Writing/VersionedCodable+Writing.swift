extension VersionedCodable {
    /// Writes the value at the root of a document that `encode(versioned:)` writes, with the
    /// list of older versions the encoder object's `userInfo` holds, if any.
    ///
    /// Read from the encoder object once, rather than from the encoder each value is written
    /// to, whose `userInfo` Foundation's coders convert on every read. The root needs no depth
    /// check: the first versioned part inside the document starts counting.
    func encodeVersionedAtRoot(to encoder: any Encoder, versionsToWrite: VersionsToWrite?) throws {
        guard let requested = versionsToWrite?.version(for: Self.self), requested != Self.version else {
            return try Self.write(self, asVersion: Self.version, to: encoder, atRoot: true)
        }
        try encodeVersioned(asVersion: requested, to: encoder)
    }

    /// Writes the value, then what its spec writes for its type's version, merged.
    ///
    /// A ``VersionsToWrite`` list in the encoder's `userInfo` may ask for an older version.
    func encodeVersioned(to encoder: any Encoder, newer: NewerDocument? = nil) throws {
        let requested = VersionsToWrite.requested(for: Self.self, in: encoder.userInfo)
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
        guard let requested, requested != Self.version else {
            return try Self.write(self, asVersion: Self.version, to: encoder)
        }
        do {
            try encodeVersioned(asVersion: requested, to: encoder)
        } catch let error as VersionedEncodingError where !encoder.codingPath.isEmpty {
            // A part inside a document that cannot be written as the version asked for: say
            // which part, as a clash inside a document does.
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "\(Self.self) at \(describePath(encoder.codingPath)) cannot be written as "
                        + "version \(describeVersion(requested)): \(error)",
                    underlyingError: error
                )
            )
        }
    }

    /// Walks down the chain with ``downgraded()`` until it reaches the type with `version`,
    /// and writes that value with its own version.
    func encodeVersioned(asVersion version: Int?, to encoder: any Encoder) throws {
        if version == Self.version {
            return try Self.write(self, asVersion: version, to: encoder)
        }
        try VersionChain(for: Self.self).checkCanEncode(asVersion: version)
        try downgradedStep().encodeDowngrading(to: version, encoder: encoder)
    }

    private func encodeDowngrading(to version: Int?, encoder: any Encoder) throws {
        if version == Self.version {
            return try Self.write(self, asVersion: version, to: encoder)
        }
        try downgradedStep().encodeDowngrading(to: version, encoder: encoder)
    }

    private func downgradedStep() throws -> PreviousVersion {
        guard PreviousVersion.self != NothingEarlier.self, PreviousVersion.self != Never.self else {
            throw VersionedEncodingError.noDowngrade(from: Self.self)
        }
        return try downgraded()
    }

    private static func write(
        _ value: Self,
        asVersion version: Int?,
        to encoder: any Encoder,
        newer: NewerDocument? = nil,
        atRoot: Bool = false
    ) throws {
        if !atRoot {
            let codingPath = encoder.codingPath
            if codingPath.count > maximumVersionedPartDepth {
                throw EncodingError.invalidValue(
                    value,
                    .init(codingPath: codingPath, debugDescription: tooDeepDescription)
                )
            }
        }
        // The default spec's layout and what it writes are known without asking the chain.
        var layout = SpecLayout.atRoot
        var recorded: RecordedObject?
        if VersionSpec.self != VersionKeyAtRootVersionPathSpec.self {
            let chain = VersionChain(for: Self.self)
            if let problem = chain.problem {
                throw VersionedDecodingError.invalidVersionChain(problem)
            }
            layout = VersionSpec.layout(versions: chain.versions)
            if let problem = layout.problem {
                throw VersionedDecodingError.invalidVersionChain(.unsupportedSpec(VersionSpec.self, reason: problem))
            }
            recorded = try SpecRecorder.record(VersionSpec(withVersion: version), userInfo: encoder.userInfo)
        }
        let writer = SpecWriter(base: encoder, layout: layout, recorded: recorded, version: version)
        if let newer {
            writer.olderBuilds = (newer.readableFrom, newer.writableFrom)
            writer.unknownFields = newer.unknownFields
        } else if compatibility != .incompatible, version == Self.version {
            if let problem = VersionChain(for: Self.self).problem {
                throw VersionedDecodingError.invalidVersionChain(problem)
            }
            writer.olderBuilds = olderBuilds
        }
        do {
            try checkNotSharingVersion(with: encoder, layout: layout)
            try value.encode(to: writer)
            try writer.finish(layout.root, into: encoder)
        } catch {
            throw writer.error(writing: value) ?? error
        }
        if let error = writer.error(writing: value) {
            throw error
        }
    }

    /// Throws when this value is written into an object where an enclosing versioned value keeps
    /// its version at one of the same places (a type that forwards its encoding to a
    /// `Versioned` part): one of the two versions would be lost.
    private static func checkNotSharingVersion(with encoder: any Encoder, layout: SpecLayout) throws {
        // Compared by type rather than cast: a dynamic cast of an existential costs more than
        // the rest of what versioning adds to a small encode.
        let enclosing: (writer: SpecWriter, place: SpecPlace)
        switch ObjectIdentifier(type(of: encoder)) {
        case ObjectIdentifier(SpecWriter.self):
            let writer = encoder as! SpecWriter
            enclosing = (writer, writer.layout.root)
        case ObjectIdentifier(PlaceEncoder.self):
            let place = encoder as! PlaceEncoder
            enclosing = (place.writer, place.place)
        default:
            return
        }
        for path in layout.versionPaths {
            var place: SpecPlace? = enclosing.place
            for key in path.dropLast() {
                place = place?.child(key)
            }
            if let place, case .version? = place.role(of: path.last!) {
                throw enclosing.writer.refuse(.clash(path: place.path + [path.last!], atVersion: true))
            }
        }
    }
}

/// The top-level value that `encode(versioned:)` hands its encoder.
///
/// It keeps the caller's existential as it came, rather than opening it into a
/// `Versioned<Value>`: the value is not copied, and no generic wrapper type is looked up for
/// every call.
struct VersionedRoot: Encodable {
    let value: any VersionedCodable
    /// The encoder object's list of older versions to write.
    let versionsToWrite: VersionsToWrite?

    func encode(to encoder: any Encoder) throws {
        try value.encodeVersionedAtRoot(to: encoder, versionsToWrite: versionsToWrite)
    }
}
