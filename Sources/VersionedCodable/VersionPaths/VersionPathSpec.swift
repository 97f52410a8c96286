/// Describes where a type's version number lives in its documents.
///
/// A spec is a small `Codable` type shaped like the part of the document that holds the
/// version. Decoding reads the spec from the document and takes the version at
/// ``keyPathToVersion``; encoding writes `Self(withVersion:)` beside the type's own fields.
///
/// The default, ``VersionKeyAtRootVersionPathSpec``, is a `version` key at the root. To keep the
/// version inside a nested object, describe that object:
///
/// ```swift
/// struct MetadataVersionSpec: VersionPathSpec {
///     static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }
///
///     init(withVersion version: Int?) {
///         _metadata = Metadata(version: version)
///     }
///
///     struct Metadata: Codable {
///         var version: Int?
///     }
///     var _metadata: Metadata
/// }
/// ```
///
/// When encoding, the version is merged into whatever the type writes at the same place, so a
/// type may keep its own fields in `_metadata` next to the version. An integer or `nil` that
/// the type writes at the version's exact path mirrors the version and is written with it, as
/// in VersionedCodable 1.2; any other value there makes encoding throw
/// ``VersionedEncodingError/typeHasClashingVersionField`` rather than be overwritten. A spec
/// may write more than the version; everything it writes is merged into the document.
///
/// The spec is asked on every document, as in VersionedCodable 1.2: decoding decodes the spec
/// from the document, through the same decoder and the same parse as the type, and takes the
/// version at ``keyPathToVersion``; encoding encodes `Self(withVersion:)` for the version being
/// written, with the encoder's `userInfo`, and merges exactly what it wrote. Where a spec keeps
/// the version is never assumed from its type or carried over from an earlier document, so a
/// spec may write the version as a string label, keep it in an array, or write other fields that depend on the version or `userInfo`.
/// A key the spec needs that is missing or `null` in a document is no version; anything else the
/// spec cannot read is the decoder's error. The keys the spec read are its own in that document:
/// a type that lists an object's keys, or reads the object as a dictionary, does not see them.
///
/// The parent object may be optional (`var _metadata: Metadata?` with
/// `\Self._metadata?.version`): a document without it, or with `null` there, has no version. A
/// key path through a force unwrap or a subscript is applied only to a spec that has every part
/// the spec written for a version of the chain has, so that a document that lacks them has no
/// version rather than stopping the process.
/// See <doc:VersionPaths> for the rules.
public protocol VersionPathSpec: Codable {
    /// The key path from the spec to the version number.
    ///
    /// Declared `nonisolated(unsafe)`, as VersionedCodable 1.2 declared it, so that a spec can
    /// keep it as a stored `static let` in Swift 6 language mode. Key paths are immutable once
    /// made, so sharing one between tasks is safe even though `KeyPath` is not `Sendable`.
    nonisolated(unsafe) static var keyPathToVersion: KeyPath<Self, Int?> { get }

    /// Creates a spec that holds the given version, to be written into a document.
    ///
    /// - Parameter version: The version to write, or `nil` for none.
    init(withVersion version: Int?)
}
