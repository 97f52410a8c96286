extension VersionedCodable {
    /// The error to report for a versioned part at `decoder`'s position that could not be read.
    ///
    /// At the root of a document the error is returned unchanged, so that 1.2's `catch`
    /// clauses keep matching. Inside a document (an element of `[Versioned<Item>]`, a property
    /// of a larger value) a versioning or migration error would not say which part failed, so
    /// it is wrapped in a `DecodingError` that gives the coding path and the stored version.
    @usableFromInline
    static func locatingFailure(_ error: any Error, of decoder: any Decoder) -> any Error {
        let codingPath = decoder.codingPath
        guard !codingPath.isEmpty, !(error is DecodingError) else {
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
        case let error as VersionedDecodingError:
            description = "\(Self.self) at \(place) (\(found)) cannot be read: \(error)"
        default:
            description =
                "\(Self.self) at \(place) has \(found), and migrating it to version "
                + "\(describeVersion(version)) failed: \(error)"
        }
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: description, underlyingError: error)
        )
    }
}

/// `items[3].note`, as a person would write the place of a value in a document.
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
