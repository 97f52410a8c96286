/// The version places of each custom spec, made from its version paths.
let versionPlacesOfSpecs = TypeKeyedCache<VersionPlaces>()

extension VersionedCodable {
    /// Reads the version through a custom ``VersionPathSpec``, as its documentation promises:
    /// a missing key or a missing parent object (`_metadata` absent or `null`) is the `nil`
    /// version, a spec key written in snake case is found under a snake-case key strategy, and
    /// a chain whose older versions kept the version elsewhere is read with their specs when the
    /// current one finds nothing.
    @usableFromInline
    static func readCustomSpecVersion(from decoder: SharedRootDecoder) throws -> Int? {
        let chain = VersionChain(for: Self.self)
        let paths = VersionPath.paths(for: VersionSpec.self, versions: chain.versions)
        // The specs read the document as it is: the views that hide the version from the
        // type's own dictionaries and optional parents take the layout of the spec that found
        // the version only once it is read, or a spec's optional parent
        // (`_metadata: Metadata?`) would read as nil.
        decoder.layout = .asWritten
        if let version = try readVersion(VersionSpec.self, from: decoder, paths: paths, versions: chain.versions) {
            decoder.layout = layout(of: VersionSpec.self, paths: paths)
            return version
        }
        // Nothing found: the keys may have been converted by the decoder's key strategy, or the
        // document may have been written by an older version that kept it elsewhere.
        // A version there that is not an integer is the decoding error it is, as it would be
        // without the key strategy.
        if paths.contains(where: { $0.contains(where: KeyConvertingDecoder.isSnakeCase) }),
            let version = try readVersion(
                VersionSpec.self,
                from: KeyConvertingDecoder(base: decoder),
                paths: paths,
                versions: chain.versions
            )
        {
            decoder.layout = layout(of: VersionSpec.self, paths: paths)
            return version
        }
        if let version = readOlderSpecs(of: chain, from: decoder) {
            return version
        }
        decoder.layout = layout(of: VersionSpec.self, paths: paths)
        return nil
    }

    /// The version of a document that has none at the default spec's place: the one an older
    /// version's own spec finds, for a chain whose version moved to the root, or `nil`.
    ///
    /// Out of line: it runs only for documents without a version at the root.
    @usableFromInline
    @inline(never)
    static func readOlderSpecsVersion(from decoder: SharedRootDecoder) throws -> Int? {
        let chain = VersionChain(for: Self.self)
        guard chain.specs.count > 1 else {
            return nil
        }
        decoder.layout = .asWritten
        if let version = readOlderSpecs(of: chain, from: decoder) {
            return version
        }
        decoder.layout = .defaultSpec
        return nil
    }

    /// Tries the specs of the chain's older versions that differ from this one's, newest first,
    /// and gives the decoder the layout of the first that finds a version.
    private static func readOlderSpecs(of chain: VersionChain, from decoder: SharedRootDecoder) -> Int? {
        for spec in chain.specs where spec != VersionSpec.self {
            if let version = readOlderSpec(spec, from: decoder, chain: chain) {
                return version
            }
        }
        return nil
    }

    private static func readOlderSpec<Spec: VersionPathSpec>(
        _ spec: Spec.Type,
        from decoder: SharedRootDecoder,
        chain: VersionChain
    ) -> Int? {
        let paths = VersionPath.paths(for: spec, versions: chain.versions)
        guard let version = (try? readVersion(spec, from: decoder, paths: paths, versions: chain.versions)) ?? nil
        else {
            return nil
        }
        decoder.layout = layout(of: spec, paths: paths)
        return version
    }

    /// Where `spec` keeps the version, for the views of the root.
    private static func layout<Spec: VersionPathSpec>(of spec: Spec.Type, paths: [[String]]) -> VersionPlaces {
        if spec == VersionKeyAtRootVersionPathSpec.self {
            return .defaultSpec
        }
        return versionPlacesOfSpecs.value(for: spec) { VersionPlaces(paths: paths) }
    }

    private static func readVersion<Spec: VersionPathSpec>(
        _ spec: Spec.Type,
        from decoder: any Decoder,
        paths: [[String]],
        versions: [Int?]
    ) throws -> Int? {
        do {
            let spec = try Spec(from: decoder)
            // A key path through a subscript or a force unwrap could trap on what the document
            // holds; a spec that lacks what such a key path reads has no version.
            guard VersionKeyPathGuard.canApply(to: spec, versionPaths: paths, versions: versions) else {
                return nil
            }
            return spec[keyPath: Spec.keyPathToVersion]
        } catch let error as DecodingError
            where error.isMissingPart(ofAnyOf: paths)
            || error.isMissingPart(ofAnyOf: VersionKeyPathGuard.arrayPaths(of: Spec.self, versions: versions))
        {
            return nil
        }
    }
}

extension DecodingError {
    /// Whether this error says that a key or object on one of `paths` is missing or `null`.
    func isMissingPart(ofAnyOf paths: [[String]]) -> Bool {
        let missing: [String]
        switch self {
        case .keyNotFound(let key, let context):
            missing = context.codingPath.map(\.stringValue) + [key.stringValue]
        case .valueNotFound(_, let context):
            missing = context.codingPath.map(\.stringValue)
        default:
            return false
        }
        return !missing.isEmpty && paths.contains { $0.starts(with: missing) }
    }
}

extension VersionedCodable {
    static var versionSpecType: any VersionPathSpec.Type { VersionSpec.self }
}
