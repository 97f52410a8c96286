/// What a build that knows only older versions may do with documents of a newer version.
///
/// A version declares it, relative to its previous version, with
/// ``VersionedCodable/compatibility``. The writer records in each document the oldest version
/// that may read it and the oldest that may write it, following the declarations down the
/// chain; an older build reads such a document through ``Versioned``, as the newest version it
/// knows, keeps the fields it does not know, and writes them back. See <doc:OldAndNewBuilds>.
public enum ForwardCompatibility: Sendable, Hashable {
    /// A build whose newest version is the previous one may read documents of this version and
    /// write them back: the change only adds fields, which the older build keeps without reading.
    case compatible
    /// A build whose newest version is the previous one may read documents of this version but
    /// must not write them back, for example because a field it writes now means something more.
    case readOnlyCompatible
    /// Older builds cannot read documents of this version: the default.
    case incompatible
}

extension VersionedCodable {
    /// Older builds cannot read this version's documents, unless the type says otherwise.
    public static var compatibility: ForwardCompatibility { .incompatible }

    /// The oldest versions that may read and write a document of this type's version, following
    /// the chain's declarations; `nil` when only this version may, as for a type that declares
    /// nothing. The schema library reads it too, for the bounds of a declaring version's schema.
    package static var olderBuilds: (readableFrom: Int, writableFrom: Int)? {
        // An older build looks for the version where its own spec keeps it, and reads as newer
        // only a version above its own: a version that moves it elsewhere, or is numbered below
        // the one before, cannot be read by older builds, whatever it declares.
        guard compatibility != .incompatible, let previousVersion = PreviousVersion.version,
            let version, version > previousVersion,
            VersionSpec.self == PreviousVersion.VersionSpec.self
        else {
            return nil
        }
        let previous = PreviousVersion.olderBuilds ?? (previousVersion, previousVersion)
        // Older builds may write only while every step from them up to this one is compatible.
        let writable = compatibility == .compatible ? previous.writableFrom : version
        return (previous.readableFrom, writable)
    }
}

/// A document read through ``Versioned`` by a build older than the version that wrote it: the
/// document's own version and declaration, and the fields that the older type did not read,
/// written back as they came. Those in an object where the spec writes (`_metadata`) are kept
/// as an object under its key, holding only them.
@usableFromInline
typealias NewerDocument = (
    storedVersion: Int, readableFrom: Int, writableFrom: Int, unknownFields: [(key: String, value: UnknownValue)]
)
