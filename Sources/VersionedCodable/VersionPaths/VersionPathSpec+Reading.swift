extension VersionPathSpec {
    /// Reads the version of the document at `shared`'s root as this spec reads it, with the keys
    /// the spec read. A key the spec needs that is missing or `null` is no version.
    ///
    /// - Parameters:
    ///   - chain: The chain being read, whose versions the spec is asked to write where its key
    ///     path may pass through parts a document lacks (see ``version(at:in:)``).
    ///   - offset: The spec's ``versionOffset``.
    static func readVersion(
        from shared: PlaceDecoder,
        in chain: VersionChain,
        at offset: Int?
    ) throws -> (Int?, KeyNotes) {
        let keys = KeyNotes()
        do {
            return (try read(from: shared, noting: keys).version(at: offset, in: chain), keys)
        } catch let error as DecodingError where keys.metMissingKeyAnywhere {
            // A key the spec needs is missing or `null` (a document without `_metadata`, written
            // before the type was versioned): the document has no version. Anything else the
            // spec cannot read, such as a version that is not a number or a damaged object, is
            // the decoder's error.
            switch error {
            case .keyNotFound, .valueNotFound: return (nil, keys)
            default: throw error
            }
        }
    }

    /// The spec as the document at `shared`'s root holds it, with the keys it reads noted in
    /// `keys`.
    static func read(from shared: PlaceDecoder, noting keys: KeyNotes = KeyNotes()) throws -> Self {
        shared.specKeys = keys
        defer { shared.specKeys = nil }
        return try Self(from: shared)
    }

    /// Where ``keyPathToVersion`` keeps the version in the spec's value, when it is a path of
    /// stored properties stored in the value itself: asked once for each chain (see
    /// ``VersionChain``), since asking a key path costs as much as reading through it.
    static var versionOffset: Int? {
        MemoryLayout<Self>.offset(of: keyPathToVersion)
    }

    /// The version at ``keyPathToVersion``, which is at `offset` in the value when it is a path
    /// of stored properties (``versionOffset``).
    ///
    /// A key path through a force unwrap or a subscript (`\Self._metadata!.version`,
    /// `\Self.headers[0].version`) would stop the process on a document that lacks what it
    /// reads, so unless it is a path of stored properties, which cannot trap, it is applied only
    /// to a spec that has every part on the way to the version: each optional's value, array
    /// element, dictionary entry and enum case where the spec written for one version of its own
    /// types in `chain` differs from the spec written for another. A spec that lacks one holds no
    /// version; parts that are the same for every version (a name the spec writes beside it) may
    /// be missing. The spec is asked only for its own types' versions, which its builds know: a
    /// spec that keeps one version, or writes each alike, has no way to tell, and every part
    /// counts.
    func version(at offset: Int?, in chain: VersionChain) -> Int? {
        if let offset {
            // What the key path reads, read where `MemoryLayout` says it is.
            return withUnsafeBytes(of: self) { $0.load(fromByteOffset: offset, as: Int?.self) }
        }
        let own = chain.ownVersions(for: Self.self)
        let template = chain.numberedVersions(for: Self.self).first ?? 0
        let written = Self(withVersion: template)
        let way = own.first { $0 != template }.map { compare(self, with: written, Self(withVersion: $0)) }
        let lacks = way.flatMap { $0.differs ? $0.lacks : nil } ?? compare(self, with: written, nil).lacks
        if !lacks {
            return self[keyPath: Self.keyPathToVersion]
        }
        return nil
    }
}

/// Compares `value`, a part of the spec read from a document (`nil` where the document's spec
/// has no such part), with `template` and `other`, the same part of the spec written for two
/// versions: whether those two differ here or below, where the version is, and whether `value`
/// lacks a part on the way to where they differ. With no `other`, every part is on the way.
///
/// Parts below `depth` levels are not compared: the recording of a spec stops at that depth
/// too, and a spec's classes may point back at each other.
private func compare(
    _ value: Any?,
    with template: Any,
    _ other: Any?,
    depth: Int = 2 * SpecRecorder.maximumDepth
) -> (differs: Bool, lacks: Bool) {
    guard depth > 0 else {
        return (false, false)
    }
    let templateParts = parts(of: template)
    let otherParts = other.map(parts(of:))
    guard !templateParts.isEmpty || otherParts?.isEmpty == false else {
        let differs = other.map { String(reflecting: $0) != String(reflecting: template) } ?? true
        return (differs, differs && value == nil)
    }
    if let otherParts,
        otherParts.count != templateParts.count
            || Set(otherParts.map(\.name)) != Set(templateParts.map(\.name))
    {
        // Parts that change with the version (an array as long as the version): all are on the way.
        return (true, compare(value, with: template, nil, depth: depth).lacks)
    }
    let valueParts = value.map { byName(parts(of: $0)) }
    let otherByName = otherParts.map(byName)
    var result = (differs: false, lacks: false)
    for part in templateParts {
        let own = valueParts?[part.name]
        let below = compare(own, with: part.value, otherByName?[part.name], depth: depth - 1)
        if below.differs {
            result = (true, result.lacks || below.lacks)
        }
    }
    return result
}

/// `parts` looked up by name, the first of a name kept.
private func byName(_ parts: [(name: String, value: Any)]) -> [String: Any] {
    Dictionary(parts.lazy.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
}

/// The parts of `value`, each named as a document's part is matched with the spec's: a field's
/// or an enum case's name, an optional's `some`, an element's index, a dictionary entry's key.
/// A class's parts include its superclasses' stored properties.
private func parts(of value: Any) -> [(name: String, value: Any)] {
    parts(in: Mirror(reflecting: value))
}

private func parts(in mirror: Mirror) -> [(name: String, value: Any)] {
    let inherited = mirror.superclassMirror.map { parts(in: $0) } ?? []
    return inherited
        + mirror.children.enumerated().map { index, child in
            if mirror.displayStyle == .dictionary {
                let entry = Array(Mirror(reflecting: child.value).children)
                if entry.count == 2 {
                    return ("[\(String(reflecting: entry[0].value))]", entry[1].value)
                }
            }
            return (child.label ?? "#\(index)", child.value)
        }
}
