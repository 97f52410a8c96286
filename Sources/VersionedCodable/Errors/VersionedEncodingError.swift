import Foundation

// `@unchecked` because the `any VersionedCodable.Type` payloads are not `Sendable` to the
// compiler; metatypes are immutable and safe to share between tasks, and nothing else here is
// mutable. `SendableMetatype` (Swift 6.2) would remove the need only if `VersionedCodable`
// refined it, which would stop main-actor-isolated types, that 1.2 programs may conform, from
// conforming; and the payload types are part of the 1.2 contract.
/// A problem that stops a versioned value from being encoded.
///
/// Encoding never overwrites or drops what the type itself writes: when the version cannot be
/// written beside the type's fields, encoding throws one of these instead.
public enum VersionedEncodingError: Error, Equatable, @unchecked Sendable {
    /// The type writes its own value at the place where the version goes, for example a
    /// `version` property at the root under the default ``VersionKeyAtRootVersionPathSpec``, or
    /// where a custom spec writes another value beside the version, even one equal to the spec's.
    ///
    /// Rename the property (with a `CodingKeys` entry), leave it out of the type's coding where it
    /// copies what the spec writes, or move the version elsewhere with a custom ``VersionPathSpec``.
    case typeHasClashingVersionField

    /// The version's path passes through something the type writes that is not a keyed object
    /// (an array, a string, `null`), so the version cannot be merged into it.
    ///
    /// `codingPath` names what is not an object by its keys from the root of the document: for a
    /// versioned part inside a document, the part's own path and the keys of the version's path
    /// below it. A type that is not a keyed object as the whole of its document throws
    /// ``cannotHoldVersion(_:version:)`` instead.
    case versionLocationNotAnObject(codingPath: [String])

    /// The type writes a single value, `nil` or an array as the whole of its document, which
    /// cannot hold a version beside it. `type` is the type written and `version` the version it
    /// was written as.
    ///
    /// A versioned type must encode as a keyed object; a versioned part inside a document that
    /// does not throws an `EncodingError` whose underlying error is
    /// ``versionLocationNotAnObject(codingPath:)``, with the part's path.
    case cannotHoldVersion(any VersionedCodable.Type, version: Int?)

    /// A value was asked to be written as an older version, but the step down from `from`
    /// has no ``VersionedCodable/downgraded()`` implementation.
    case noDowngrade(from: any VersionedCodable.Type)

    /// A downgrade step found data that the older version `in` cannot represent, or the
    /// document cannot: an object where the version path writes one that may be absent on
    /// reading (an optional's value, a dictionary's entry, or one the type opens by hand),
    /// holding nothing of the type's own there, would read back as `nil` or as no entry, and is
    /// refused with the object's coding path.
    ///
    /// Throw it from ``VersionedCodable/downgraded()`` with a context that names the field.
    case notRepresentable(in: any VersionedCodable.Type, EncodingError.Context)

    /// A value was asked to be written as a version that is not in its chain.
    case versionNotInChain(Int?, chain: VersionChain)

    /// A value read through ``Versioned`` from a document newer than this build cannot be
    /// written: the document says that builds older than `writableFrom` may read it but not
    /// write it, or it was asked to be written as another version than its own, `storedVersion`,
    /// which would lose the fields this build keeps without knowing them. A document whose spec
    /// part this build's spec writes otherwise for `storedVersion` (a label the newer build's
    /// spec changed) is only read too, with `writableFrom` its own version.
    case cannotWriteNewerDocument(storedVersion: Int, writableFrom: Int)

    /// The type writes a dictionary, or hands its encoder to one, with an entry under `key`,
    /// where its ``VersionPathSpec`` writes: the entry would be lost.
    ///
    /// A mirror of the version is a property the type declares, never a dictionary entry. Only
    /// an entry whose key is the spec's key, as given, is refused; see <doc:VersionPaths>.
    case dictionaryEntryClash(key: String)

    /// Two errors are equal when they are the same case with the same types and versions;
    /// contexts are compared by coding path and debug description.
    public static func == (lhs: VersionedEncodingError, rhs: VersionedEncodingError) -> Bool {
        switch (lhs, rhs) {
        case (.typeHasClashingVersionField, .typeHasClashingVersionField):
            return true
        case (.versionLocationNotAnObject(let a), .versionLocationNotAnObject(let b)):
            return a == b
        case (.cannotHoldVersion(let a, let v1), .cannotHoldVersion(let b, let v2)):
            return a == b && v1 == v2
        case (.noDowngrade(let a), .noDowngrade(let b)):
            return a == b
        case (.notRepresentable(let a, let c1), .notRepresentable(let b, let c2)):
            return a == b && c1.debugDescription == c2.debugDescription
                && c1.codingPath.map(\.stringValue) == c2.codingPath.map(\.stringValue)
        case (.versionNotInChain(let a, let c1), .versionNotInChain(let b, let c2)):
            return a == b && c1.types.elementsEqual(c2.types, by: ==)
        case (.cannotWriteNewerDocument(let a, let w1), .cannotWriteNewerDocument(let b, let w2)):
            return a == b && w1 == w2
        case (.dictionaryEntryClash(let a), .dictionaryEntryClash(let b)):
            return a == b
        default:
            return false
        }
    }
}

// 1.2's error had one case and no payload, so it was `Hashable` without saying so; programs
// keep it in sets and dictionaries.
extension VersionedEncodingError: Hashable {
    /// Hashes the error's description, which two equal errors share: it names the case, and its
    /// types, versions and paths.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }
}

// Not `LocalizedError`, as in 1.2: a program that gives the error its own `errorDescription`
// (to show its users) keeps it, and `localizedDescription` says what the program says.
extension VersionedEncodingError: CustomStringConvertible {
    /// A sentence that says what went wrong and what to do about it.
    public var description: String {
        switch self {
        case .typeHasClashingVersionField:
            return "The type writes its own value where its VersionPathSpec writes: the version, or a value "
                + "the spec writes beside it, even an equal one. Rename that field, leave it out where it copies "
                + "what the spec writes, or choose another version path; what the spec writes never overwrites "
                + "the type's values silently."
        case .versionLocationNotAnObject(let path):
            let place = path.isEmpty ? "the root of the document" : path.joined(separator: ".")
            return "Cannot write the version: the type writes something other than a keyed object at \(place), "
                + "where the version's path needs an object."
        case .cannotHoldVersion(let type, let version):
            return "\(type) (version \(describeVersion(version))) writes a single value, `nil` or an array as its "
                + "document, which cannot hold the version: a versioned type must encode as a keyed object."
        case .noDowngrade(let type):
            return "\(type) cannot be written as an older version: it does not implement downgraded() "
                + "to \(type.previousVersionType)."
        case .notRepresentable(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            let location = path.isEmpty ? "" : " (at \(path))"
            return "The value cannot be written as \(type)\(location): \(context.debugDescription)"
        case .versionNotInChain(let version, let chain):
            return "Version \(describeVersion(version)) is not in the chain \(chain)."
        case .dictionaryEntryClash(let key):
            return "The type writes a dictionary entry under \"\(key)\", where its VersionPathSpec writes; the entry "
                + "would be lost. A mirror of the version is a property the type declares, never a dictionary entry."
        case .cannotWriteNewerDocument(let version, let writableFrom):
            return "The value was read from a document of version \(version), newer than this build, which "
                + "builds from version \(writableFrom) on may write back, as version \(version) and nothing else: "
                + "this build is older, or was asked to write another version."
        }
    }
}
