extension VersionedCodable {
    /// Writes the value at the root of a document that `encode(versioned:)` writes, with the
    /// list of older versions the encoder object's `userInfo` holds, if any.
    ///
    /// Read from the encoder object once, rather than from the encoder each value is written
    /// to, whose `userInfo` Foundation's coders convert on every read. The root needs no stack
    /// check: the first versioned part inside the document starts counting.
    func encodeVersionedAtRoot(to encoder: any Encoder, versionsToWrite: VersionsToWrite?) throws {
        guard let requested = versionsToWrite?.version(for: Self.self), requested != Self.version else {
            return try Self.write(self, asVersion: Self.version, to: encoder)
        }
        try encodeVersioned(asVersion: requested, to: encoder)
    }

    /// Writes the value, then what its spec writes for its type's version, merged.
    ///
    /// A ``VersionsToWrite`` list in the encoder's `userInfo` may ask for an older version.
    func encodeVersioned(to encoder: any Encoder) throws {
        let entry = StackSpace.enter()
        if case .hop = entry {
            return try StackSpace.onFreshStack(
                { try encodeVersioned(to: encoder) },
                unavailable: EncodingError.invalidValue(
                    self,
                    .init(codingPath: encoder.codingPath, debugDescription: StackSpace.noThreadDescription)
                )
            )
        }
        defer {
            if case .outermost = entry {
                StackSpace.leaveOutermost()
            }
        }
        guard let requested = VersionsToWrite.requested(for: Self.self, in: encoder.userInfo), requested != Self.version
        else {
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

    private static func write(_ value: Self, asVersion version: Int?, to encoder: any Encoder) throws {
        let tree = try VersionPath.tree(
            for: VersionSpec.self,
            version: version,
            versions: VersionChain(for: Self.self).versions,
            userInfo: encoder.userInfo
        )
        let observer = SpecMergingObserver(tree: tree, base: encoder)
        try value.encode(to: observer)
        if observer.isNested, version == nil {
            observer.checkAbsentVersionsAgainstEnclosing()
        }
        try observer.throwIfBlocked(writing: value)
        // Whatever the spec writes that was not merged where the type wrote it: open its
        // objects from the root, which merges into what the type wrote there.
        try observer.writeRemaining(into: encoder, at: tree.root)
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
