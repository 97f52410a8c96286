/// A `Codable` type that keeps its history: it names its previous version and knows how to
/// build itself from it.
///
/// Each version of a document type is an ordinary `Codable` type. The newest one conforms to
/// ``VersionedCodable``, says which ``version`` it is, names the type it replaced as
/// ``PreviousVersion`` and migrates from it in ``init(from:)-(PreviousVersion)``. The oldest version names
/// ``NothingEarlier`` and needs no migration.
///
/// When you decode with `JSONDecoder.decode(versioned:from:)` the decoder reads the
/// version stored in the document, decodes the historical type whose ``version`` matches, and
/// applies each migration in turn until it reaches the type you asked for. The document is
/// parsed once.
///
/// ```swift
/// struct PoemV1: VersionedCodable {
///     static let version: Int? = 1
///     typealias PreviousVersion = NothingEarlier
///     var author: String
///     var poem: [String]
/// }
///
/// struct Poem: VersionedCodable {
///     static let version: Int? = 2
///     typealias PreviousVersion = PoemV1
///     var author: String
///     var poem: String
///
///     init(from old: PoemV1) throws {
///         author = old.author
///         poem = old.poem.joined(separator: "\n")
///     }
/// }
/// ```
///
/// > Important: Write values with ``Foundation/JSONEncoder/encode(versioned:)`` (or the
/// > property list encoder's), never with a plain `encode(_:)`. A versioned type is `Codable`,
/// > so `JSONEncoder().encode(poem)` compiles, but it writes no version, and decoding reads a
/// > missing version as `nil`. When the chain has a `nil` version for the documents written
/// > before versioning, the current value is taken for one of those and migrated from it,
/// > which can lose data without an error. `checkPlainEncodingIsNotMistaken(_:sourceLocation:)`
/// > in `VersionedCodableTesting` checks a type for this from a test.
///
/// Versions must be unique within a chain and a type may appear in it only once. A chain that
/// breaks either rule makes decoding throw ``VersionedDecodingError/invalidVersionChain(_:)``;
/// call ``validateVersionChain()`` from a unit test to find out before your users do.
public protocol VersionedCodable: Codable {
    /// The version number this type is stored with.
    ///
    /// `nil` stands for documents written before the type adopted versioning, which have no
    /// version field at all. At most one type in a chain may have a `nil` version.
    static var version: Int? { get }

    /// The version this type replaced, or ``NothingEarlier`` if this is the oldest version.
    associatedtype PreviousVersion: VersionedCodable

    /// Where the version number lives in the document.
    ///
    /// The default, ``VersionKeyAtRootVersionPathSpec``, reads and writes a `version` key at the
    /// root of the document. See ``VersionPathSpec`` to put it elsewhere.
    associatedtype VersionSpec: VersionPathSpec = VersionKeyAtRootVersionPathSpec

    /// Creates the current version from a value of the previous version: the migration step.
    ///
    /// Throw ``VersionedDecodingError/fieldNoLongerValid(_:)`` when the old value has no place
    /// in the new model. Any error you throw reaches the caller of the decode call unchanged
    /// when the value is the document's root; inside a document (a ``Versioned`` part), it is the
    /// `underlyingError` of a `DecodingError` that names the part and the step.
    ///
    /// - Parameter from: The value decoded (and already migrated) up to ``PreviousVersion``.
    init(from: PreviousVersion) throws

    /// Returns this value as the previous version, so that it can be written for readers that
    /// only know an older version.
    ///
    /// Implement it on the versions that can be written in an older shape; the default
    /// implementation throws ``VersionedEncodingError/noDowngrade(from:)``. Throw
    /// ``VersionedEncodingError/notRepresentable(in:_:)`` when this value holds data that the
    /// previous version cannot represent.
    ///
    /// ```swift
    /// extension Poem {
    ///     func downgraded() throws -> PoemV1 {
    ///         PoemV1(author: author, poem: poem.components(separatedBy: "\n"))
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: The value as ``PreviousVersion``.
    /// - Throws: ``VersionedEncodingError`` when the value cannot be written in the older shape.
    func downgraded() throws -> PreviousVersion

    /// What builds whose newest version is ``PreviousVersion`` may do with documents of this
    /// version: read and write them (``ForwardCompatibility/compatible``), only read them
    /// (``ForwardCompatibility/readOnlyCompatible``), or neither
    /// (``ForwardCompatibility/incompatible``, the default).
    ///
    /// ```swift
    /// struct Chore: VersionedCodable {
    ///     static let version: Int? = 3
    ///     static let compatibility = ForwardCompatibility.compatible  // only adds `due`
    ///     ...
    /// }
    /// ```
    ///
    /// See <doc:OldAndNewBuilds>.
    static var compatibility: ForwardCompatibility { get }
}

extension VersionedCodable {
    /// Throws ``VersionedEncodingError/noDowngrade(from:)``: a type only downgrades when it says
    /// how.
    ///
    /// - Returns: Never returns.
    /// - Throws: ``VersionedEncodingError/noDowngrade(from:)`` always.
    public func downgraded() throws -> PreviousVersion {
        throw VersionedEncodingError.noDowngrade(from: Self.self)
    }
}
