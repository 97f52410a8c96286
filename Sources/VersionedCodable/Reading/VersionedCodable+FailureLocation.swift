extension VersionedCodable {
    /// The error to report for a versioned part at `decoder`'s position that could not be read.
    ///
    /// At the root of a document the error is returned unchanged, so that 1.2's `catch`
    /// clauses keep matching. Inside a document (an element of `[Versioned<Item>]`, a property
    /// of a larger value) a versioning or migration error would not say which part failed, so
    /// it is wrapped in a `DecodingError` that gives the coding path and the stored version.
    @usableFromInline
    static func locatingFailure(_ thrown: any Error, of decoder: any Decoder) -> any Error {
        // A migration step's error comes wrapped with the step; at the root it is handed back
        // unchanged, as 1.2 did.
        let step = thrown as? MigrationStepFailure
        var error = step?.error ?? thrown
        if step == nil, case VersionedDecodingError.unsupportedVersion(let tried) = error {
            error = unsupportedVersionError(tried: tried, decoder: decoder) ?? error
        }
        let codingPath = decoder.codingPath
        guard !codingPath.isEmpty, step != nil || !(error is DecodingError) else {
            return error
        }
        let place = describePath(codingPath)
        let found: String
        do {
            found = describeStoredVersion(try readStoredVersion(from: SharedRootDecoder(base: decoder)))
        } catch {
            found = "a version that could not be read"
        }
        let supported = VersionChain(for: Self.self).versions.map(describeVersion).joined(separator: ", ")
        let description: String
        switch error {
        case VersionedDecodingError.unsupportedVersion, VersionedDecodingError.documentVersionTooNew:
            description = "\(Self.self) at \(place) has \(found); \(Self.self) supports versions \(supported)."
        case let error as VersionedDecodingError where step == nil:
            description = "\(Self.self) at \(place) (\(found)) cannot be read: \(error)"
        default:
            let stepText = step.map {
                " at the step from \($0.from) (version \(describeVersion($0.from.version))) to \($0.to) "
                    + "(version \(describeVersion($0.to.version)))"
            }
            description =
                "\(Self.self) at \(place) has \(found), and migrating it to version "
                + "\(describeVersion(version)) failed\(stepText ?? ""): \(error)"
        }
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: description, underlyingError: error)
        )
    }
}

/// `items[3].note`, as a person would write the place of a value in a document.
extension VersionedCodable {
    /// The error for a document whose version the walk down the chain did not find: the walk
    /// ends at the oldest type, so a document newer than the newest type is told apart here.
    ///
    /// `nil` when the error did not come from the walk (a migration or a type's own decoding
    /// threw it) or says all there is to say.
    static func unsupportedVersionError(tried: any VersionedCodable.Type, decoder: any Decoder) -> (any Error)? {
        let chain = VersionChain(for: Self.self)
        guard tried == chain.oldest,
            let stored = try? readStoredVersion(from: SharedRootDecoder(base: decoder)),
            !chain.contains(version: stored)
        else {
            return nil
        }
        do {
            try chain.checkCanDecode(storedVersion: stored)
        } catch {
            return error
        }
        return nil
    }
}

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

func describeStoredVersion(_ version: Int?) -> String {
    version.map { "version \($0)" } ?? "no version"
}
