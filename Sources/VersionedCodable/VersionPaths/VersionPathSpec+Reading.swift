extension VersionPathSpec {
    /// Reads the version of the document at `shared`'s root as this spec reads it, with the keys
    /// the spec read. A key the spec needs that is missing or `null` is no version.
    ///
    /// - Parameters:
    ///   - template: A version whose spec has every part the spec's key path may pass through
    ///     (see ``version(at:comparedWith:)``).
    ///   - offset: The spec's ``versionOffset``.
    static func readVersion(from shared: PlaceDecoder, template: Int?, at offset: Int?) throws -> (Int?, KeyNotes) {
        let keys = KeyNotes()
        shared.specKeys = keys
        defer { shared.specKeys = nil }
        do {
            return (try Self(from: shared).version(at: offset, comparedWith: template), keys)
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
    /// reads, so unless it is a path of stored properties, which cannot trap, it is applied
    /// only to a spec that has every optional value and array element that the spec written for
    /// `template`, a version of the chain, has: one that lacks any holds no version.
    func version(at offset: Int?, comparedWith template: Int?) -> Int? {
        if let offset {
            // What the key path reads, read where `MemoryLayout` says it is.
            return withUnsafeBytes(of: self) { $0.load(fromByteOffset: offset, as: Int?.self) }
        }
        if !lacksPart(Mirror(reflecting: self), of: Mirror(reflecting: Self(withVersion: template))) {
            return self[keyPath: Self.keyPathToVersion]
        }
        return nil
    }
}

/// Whether `value` lacks an optional's value or an array's element that `template` has.
private func lacksPart(_ value: Mirror, of template: Mirror) -> Bool {
    if template.displayStyle == .optional || template.displayStyle == .collection,
        value.children.count < template.children.count
    {
        return true
    }
    return zip(value.children, template.children).contains {
        lacksPart(Mirror(reflecting: $0.value), of: Mirror(reflecting: $1.value))
    }
}
