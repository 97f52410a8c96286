/// The default ``VersionPathSpec``: the version is an integer under the `version` key at the
/// root of the document, `{"version": 2, ...}`.
///
/// A missing `version` key or a `null` value reads as the `nil` version.
public struct VersionKeyAtRootVersionPathSpec: VersionPathSpec, Sendable {
    /// The path to ``version``.
    nonisolated(unsafe) public static let keyPathToVersion: KeyPath<Self, Int?> = \Self.version

    /// The version found in, or to be written to, the document.
    public let version: Int?

    /// Creates a spec that holds the given version.
    ///
    /// - Parameter version: The version to write, or `nil` for none.
    public init(withVersion version: Int? = nil) {
        self.version = version
    }
}
