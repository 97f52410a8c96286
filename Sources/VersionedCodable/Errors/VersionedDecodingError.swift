import Foundation

// `@unchecked` because the `any VersionedCodable.Type` payloads are not `Sendable` to the
// compiler; metatypes are immutable and safe to share between tasks, and nothing else here is
// mutable. `SendableMetatype` (Swift 6.2) would remove the need only if `VersionedCodable`
// refined it, which would stop main-actor-isolated types, that 1.2 programs may conform, from
// conforming; and the payload types are part of the 1.2 contract.
/// A problem that stops a versioned document from decoding.
///
/// Decoding a ``VersionedCodable`` type can also throw any `DecodingError` that decoding a
/// plain `Codable` type throws, for example when the document is not valid JSON or a field has
/// the wrong type. Errors thrown by a migration step reach the caller unchanged
/// at the root of a document, and as the `underlyingError` of a `DecodingError` that names the
/// part and the step inside one.
///
/// Like 1.2's, this error is not `Equatable`, so programs that declared that conformance
/// themselves (to use `#expect(throws:)` or `XCTAssertEqual`) keep compiling without a
/// warning. Match the case you expect with `catch VersionedDecodingError.<case>` or
/// `if case`.
public enum VersionedDecodingError: Error, @unchecked Sendable {
    /// A migration step found a field whose old value has no place in the new model.
    ///
    /// Throw it from ``VersionedCodable/init(from:)-(PreviousVersion)`` with a context that names the field:
    ///
    /// ```swift
    /// init(from old: PoemV2) throws {
    ///     guard let rating = Rating(rawValue: old.rating) else {
    ///         throw VersionedDecodingError.fieldNoLongerValid(
    ///             DecodingError.Context(codingPath: [], debugDescription: "Unknown rating \(old.rating)"))
    ///     }
    ///     self.rating = rating
    /// }
    /// ```
    case fieldNoLongerValid(DecodingError.Context)

    /// No type in the chain has the document's version. `tried` is the oldest type that was
    /// tried: the one whose `PreviousVersion` is ``NothingEarlier``.
    ///
    /// The case keeps 1.2's shape, so it does not carry the document's version; read it with
    /// `storedVersion(of:from:)` on the decoder. Inside a larger document the part's error is a
    /// `DecodingError` that names the stored version and the coding path.
    case unsupportedVersion(tried: any VersionedCodable.Type)

    /// The document was written by a newer version of the type than any this program knows.
    ///
    /// `found` is the document's version and `newest` the newest type of the chain: the
    /// program needs upgrading, or an older version must be written for it (see
    /// ``VersionedCodable/downgraded()``).
    case documentVersionTooNew(found: Int, newest: any VersionedCodable.Type)

    /// The version chain is not sound (it repeats a version or a type, never ends, or a spec
    /// cannot keep its versions where they read back), so no document can be decoded or encoded
    /// reliably. ``VersionChainProblem`` says which.
    ///
    /// Encoding throws it too, for a chain whose spec is asked where the version goes.
    case invalidVersionChain(VersionChainProblem)

    /// Two specs of the chain each read a version from the document where their own types keep
    /// it: `versions` holds the one found first and the other. An older build's own field where a
    /// newer spec reads, or a newer one's where an older spec reads, looks the same, so the
    /// document could be either version's; decoding stops rather than guess. List the version it
    /// has in the decoder's `versionsToRead` (`CodingUserInfoKey.versionsToRead`) to read it as
    /// that version.
    ///
    /// No encode writes such a document: it refuses a value of the type's own that would make the
    /// build of another version read another version (see
    /// ``VersionedEncodingError/typeHasClashingVersionField``).
    case ambiguousVersion(versions: [Int], DecodingError.Context)

    /// The `decode` function given to
    /// ``VersionedCodable/decodeTransparently(from:using:)`` returned a value of another type
    /// than the one it was asked to decode.
    case decodeFunctionReturnedWrongType(expected: any Decodable.Type, returned: any Decodable.Type)
}

/// Where to find the version a document has, which the 1.2 shape of
/// ``VersionedDecodingError/unsupportedVersion(tried:)`` cannot carry.
private let storedVersionHint =
    "storedVersion(of:from:) on the decoder reads the version the document has (nil when it has none)."

// Not `LocalizedError`, as in 1.2: a program that gives the error its own `errorDescription`
// (to show its users) keeps it, and `localizedDescription` says what the program says.
extension VersionedDecodingError: CustomStringConvertible {
    /// A sentence that says what went wrong and names the types and versions involved.
    public var description: String {
        switch self {
        case .fieldNoLongerValid(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            let location = path.isEmpty ? "" : " at \(path)"
            return "A field\(location) is no longer valid in the newer version: \(context.debugDescription)"
        case .unsupportedVersion(let tried):
            // The case carries only the oldest type (its shape is 1.2's), so the text says only
            // what it carries, and where to find the rest.
            return "The document's version is not supported: no type down to \(tried) "
                + "(version \(describeVersion(tried.version))) matches it. \(storedVersionHint)"
        case .documentVersionTooNew(let found, let newest):
            let supported = VersionChain(for: newest).versions.map(describeVersion).joined(separator: ", ")
            return "The document has version \(found), newer than the newest version this program knows "
                + "(\(newest), version \(describeVersion(newest.version))). Supported versions: \(supported)."
        case .invalidVersionChain(let problem):
            return "Invalid version chain: \(problem)"
        case .ambiguousVersion(_, let context):
            return context.debugDescription
        case .decodeFunctionReturnedWrongType(let expected, let returned):
            return "The decode function was asked for \(expected) but returned a value of type \(returned)."
        }
    }
}
