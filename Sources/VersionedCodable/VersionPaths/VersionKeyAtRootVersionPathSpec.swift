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

// The default spec's answers, known without asking it: it reads and writes one integer under
// `version` at the root. Each gives what asking the spec gives (see `DefaultSpecShortcutTests`).
extension VersionKeyAtRootVersionPathSpec {
    /// The key it reads and writes.
    @usableFromInline
    static let key = ForwardedKey(stringValue: "version")

    /// What it reads in any document.
    static let keysRead = KeysRead([key.stringValue])

    /// What it reads in a document that may name the older builds that may read it.
    static let keysReadNamingOlderBuilds: KeysRead = {
        let declaration = declarationKeys(besideVersionKey: key.stringValue)
        return KeysRead([key.stringValue], declarations: [declaration.readable, declaration.writable])
    }()

    /// What it writes for the version being written.
    static let written = SpecWritten(path: [], keys: [key.stringValue], values: [.value(Int?.none)], versionIndex: 0)

    /// What ``SpecRecorder`` records of the spec for `version`, as ``SpecWritten/leaves()``
    /// lists it: the version at the root, and nothing for `nil`.
    static func leaves(writing version: Int?) -> [(path: [String], value: any Encodable)] {
        version.map { [([key.stringValue], $0)] } ?? []
    }
}

/// The keys beside a version's key that hold the oldest versions that may read and write the
/// document: for the default spec's key, literals, which a decode of a newer document need not
/// allocate.
func declarationKeys(besideVersionKey key: String) -> (readable: String, writable: String) {
    key == VersionKeyAtRootVersionPathSpec.key.stringValue
        ? ("versionReadableFrom", "versionWritableFrom") : (key + "ReadableFrom", key + "WritableFrom")
}
