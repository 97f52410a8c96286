/// The root layout of each versioned type with a custom spec, made from its version paths.
let rootLayouts = TypeKeyedCache<RootLayout>()

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
        // type's own dictionaries and optional parents take the layout only once the version
        // is read, or a spec's optional parent (`_metadata: Metadata?`) would read as nil.
        decoder.layout = .asWritten
        defer { decoder.layout = rootLayouts.value(for: Self.self) { RootLayout(paths: paths) } }
        if let version = try readVersion(VersionSpec.self, from: decoder, paths: paths, versions: chain.versions) {
            return version
        }
        // Nothing found: the keys may have been converted by the decoder's key strategy, or the
        // document may have been written by an older version that kept it elsewhere.
        if paths.contains(where: { $0.contains(where: KeyConvertingDecoder.isSnakeCase) }),
            let version = try? readVersion(
                VersionSpec.self,
                from: KeyConvertingDecoder(base: decoder),
                paths: paths,
                versions: chain.versions
            )
        {
            return version
        }
        for spec in chain.olderSpecs(than: VersionSpec.self) {
            if let version = readOlderSpec(spec, from: decoder, versions: chain.versions) {
                return version
            }
        }
        return nil
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
        } catch let error as DecodingError where error.isMissingPart(ofAnyOf: paths) {
            return nil
        }
    }

    private static func readOlderSpec<Spec: VersionPathSpec>(
        _ spec: Spec.Type,
        from decoder: any Decoder,
        versions: [Int?]
    ) -> Int? {
        let paths = VersionPath.paths(for: spec, versions: versions)
        return (try? readVersion(spec, from: decoder, paths: paths, versions: versions)) ?? nil
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

extension VersionChain {
    /// The specs of the chain's older types that differ from `current`, oldest last.
    func olderSpecs(than current: any VersionPathSpec.Type) -> [any VersionPathSpec.Type] {
        var specs: [any VersionPathSpec.Type] = []
        for type in types {
            let spec = type.versionSpecType
            if spec != current, !specs.contains(where: { $0 == spec }) {
                specs.append(spec)
            }
        }
        return specs
    }
}

extension VersionedCodable {
    static var versionSpecType: any VersionPathSpec.Type { VersionSpec.self }
}
