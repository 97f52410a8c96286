/// Which version each versioned type is written as, for one encode: the way to write a whole
/// document, versioned parts included, for readers that only know older versions.
///
/// Put it in the encoder's `userInfo` under ``Swift/CodingUserInfoKey/versionsToWrite``.
/// Every versioned value of a listed type is then written as the version given for it,
/// through its ``VersionedCodable/downgraded()`` steps: `Versioned` parts at any depth,
/// `encode(versioned:)`, and ``VersionedCodable/encodeTransparently(using:)``. An explicit
/// `encode(versioned:asVersion:)` decides the root's version itself; the parts inside it still
/// follow this list. Types that are not listed are written as their current version.
///
/// <!-- snippet: versions-to-write -->
/// ```swift
/// let encoder = JSONEncoder()
/// encoder.userInfo[.versionsToWrite] = VersionsToWrite()
///     .writing(Shelf.self, asVersion: 1)
///     .writing(Part.self, asVersion: 1)
/// let forOldReaders = try encoder.encode(versioned: shelf)
/// ```
public struct VersionsToWrite: Sendable {
    private var versions: [ObjectIdentifier: Int?] = [:]

    /// An empty list: every type is written as its current version.
    public init() {}

    /// The list with `type` written as `version`.
    ///
    /// - Parameters:
    ///   - type: The current version of a versioned type, as its values are declared.
    ///   - version: The version to write it as. It must be in the type's chain, or encoding
    ///     throws ``VersionedEncodingError/versionNotInChain(_:chain:)``.
    /// - Returns: A copy of this list with the type's version set.
    public func writing<Value: VersionedCodable>(_ type: Value.Type, asVersion version: Int?) -> VersionsToWrite {
        var copy = self
        copy.versions[ObjectIdentifier(type)] = .some(version)
        return copy
    }

    /// Whether the list says which version `type` is written as, and which.
    ///
    /// - Parameter type: A versioned type.
    /// - Returns: The version to write, or `nil` when the type is not listed. A type listed with
    ///   the `nil` version gives `.some(nil)`.
    public func version<Value: VersionedCodable>(for type: Value.Type) -> Int?? {
        versions[ObjectIdentifier(type)]
    }

    static func requested<Value: VersionedCodable>(for type: Value.Type, in userInfo: [CodingUserInfoKey: Any]) -> Int??
    {
        listed(in: userInfo)?.version(for: type)
    }

    /// The list an encoder's `userInfo` holds, if any; an empty `userInfo` is not searched.
    ///
    /// Generic over the values, so that a coder's `[CodingUserInfoKey: any Sendable]` is read
    /// as it is rather than converted to `Any` values first.
    static func listed<Value>(
        in userInfo: [CodingUserInfoKey: Value],
        under key: CodingUserInfoKey = .versionsToWrite
    ) -> VersionsToWrite? {
        userInfo.isEmpty ? nil : userInfo[key] as? VersionsToWrite
    }
}

extension CodingUserInfoKey {
    /// The key of a ``VersionsToWrite`` list in an encoder's `userInfo`.
    public static let versionsToWrite = CodingUserInfoKey(rawValue: "VersionedCodable.VersionsToWrite")!

    /// The key of a ``VersionsToWrite`` list in a decoder's `userInfo` that says which version
    /// the documents and `Versioned` parts of each listed type are, for one decode: a document
    /// of a listed type that carries no version is read as the listed version, and one that
    /// carries another version throws a `DecodingError`. Types that are not listed are read as
    /// their documents say.
    ///
    /// For readers whose writers know which versions they write but not where the library keeps
    /// the version: the clients of an API version, say, whose bodies' parts need not carry it.
    public static let versionsToRead = CodingUserInfoKey(rawValue: "VersionedCodable.VersionsToRead")!
}
