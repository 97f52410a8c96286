extension VersionedCodable {
    /// Writes the value, then its type's version at the spec's path.
    func encodeVersioned(to encoder: any Encoder) throws {
        try Self.write(self, to: encoder)
    }

    /// Walks down the chain with ``downgraded()`` until it reaches the type with `version`,
    /// and writes that value with its own version.
    func encodeVersioned(asVersion version: Int?, to encoder: any Encoder) throws {
        if version == Self.version {
            return try Self.write(self, to: encoder)
        }
        try VersionChain(for: Self.self).checkCanEncode(asVersion: version)
        try downgradedStep().encodeDowngrading(to: version, encoder: encoder)
    }

    private func encodeDowngrading(to version: Int?, encoder: any Encoder) throws {
        if version == Self.version {
            return try Self.write(self, to: encoder)
        }
        try downgradedStep().encodeDowngrading(to: version, encoder: encoder)
    }

    private func downgradedStep() throws -> PreviousVersion {
        guard PreviousVersion.self != NothingEarlier.self else {
            throw VersionedEncodingError.noDowngrade(from: Self.self)
        }
        return try downgraded()
    }

    private static func write(_ value: Self, to encoder: any Encoder) throws {
        guard let path = VersionPath.keys(for: VersionSpec.self) else {
            // The spec does not keep the version in keyed objects, so it cannot be merged or
            // checked for clashes: write it after the value, as the spec encodes itself.
            try value.encode(to: encoder)
            try VersionSpec(withVersion: version).encode(to: encoder)
            return
        }
        let observer = VersionPathObserver(path: path, version: version, base: encoder)
        try value.encode(to: observer)
        try observer.throwIfBlocked()
        if !observer.versionWritten {
            // The value wrote nothing on the version's path below the root (or wrote it with a
            // nested container of its own keys): open the path from the root, which merges
            // into what is there.
            try observer.writeVersion(into: encoder, atDepth: 0)
        }
    }
}
