import VersionedCodable

/// One version of a service's API: its name, and the version of each versioned type that its
/// clients see.
///
/// Name it as your clients send it: a number (`2`) or a date (`"2026-06-01"`). List the
/// versions of the types whose shape changed since the API began; a type the version does not
/// list is shown as its current version.
///
/// <!-- snippet: api-version-declaration -->
/// ```swift
/// let versions = try APIVersions(
///     [
///         APIVersion("2025-01-01").showing(Contact.self, asVersion: 1).showing(Address.self, asVersion: 1),
///         APIVersion("2025-09-01").showing(Contact.self, asVersion: 2).showing(Address.self, asVersion: 1),
///         APIVersion("2026-06-01"),
///     ],
///     defaultVersion: "2025-01-01"
/// )
/// ```
///
/// Two API versions are equal when their names are: a name alone, as a string literal, stands
/// for the version the list declares with it.
public struct APIVersion: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral
{
    /// The name clients send, as declared.
    public let name: String

    /// The types this version lists, in the order they were listed.
    var shown: [ShownType] = []

    /// The versions this API version shows, as a list to put in an encoder's `userInfo` under
    /// `.versionsToWrite`: for writing its values with a coder other than the JSON ones
    /// ``APIVersions`` uses.
    public private(set) var versionsToWrite = VersionsToWrite()

    /// An API version that shows every type as its current version until you list others.
    ///
    /// - Parameter name: The name clients send: a number, a date such as `2026-06-01`, or any
    ///   word without spaces or commas.
    public init(_ name: String) {
        self.name = name
    }

    /// An API version named by a number.
    ///
    /// - Parameter number: The number clients send.
    public init(_ number: Int) {
        self.name = String(number)
    }

    /// An API version named by a string literal: `"2026-06-01"`.
    ///
    /// - Parameter name: The name clients send.
    public init(stringLiteral name: String) {
        self.init(name)
    }

    /// An API version named by an integer literal: `2`.
    ///
    /// - Parameter number: The number clients send.
    public init(integerLiteral number: Int) {
        self.init(number)
    }

    /// This API version with `type` shown to its clients as `version`: requests are read as that
    /// version and responses written as it, wherever a value of the type appears (at the root
    /// of a body or as a `Versioned` part inside one).
    ///
    /// - Parameters:
    ///   - type: The current version of a versioned type.
    ///   - version: The version of `type` this API version's clients see; it must be in the
    ///     type's chain, which ``APIVersions/init(_:defaultVersion:unknownFields:versionKeyInResponses:elementIdentity:encoder:decoder:)``
    ///     checks.
    /// - Returns: A copy of this API version with the type listed.
    public func showing<Value: VersionedCodable>(_ type: Value.Type, asVersion version: Int?) -> APIVersion {
        var copy = self
        copy.shown.removeAll { $0.id == ObjectIdentifier(type) }
        copy.shown.append(ShownType(type, version: version))
        copy.versionsToWrite = versionsToWrite.writing(type, asVersion: version)
        return copy
    }

    /// The version of `type` that clients of this API version see: the listed one, or the
    /// type's current version.
    ///
    /// - Parameter type: The current version of a versioned type.
    /// - Returns: A version in the type's chain.
    public func version<Value: VersionedCodable>(of type: Value.Type) -> Int? {
        shownVersion(of: ObjectIdentifier(type), current: Value.version)
    }

    /// The version's name.
    public var description: String { name }

    /// Whether two API versions have the same name.
    ///
    /// - Parameters:
    ///   - lhs: An API version.
    ///   - rhs: Another API version.
    /// - Returns: `true` when the names are equal.
    public static func == (lhs: APIVersion, rhs: APIVersion) -> Bool {
        lhs.name == rhs.name
    }

    /// Hashes the version's name.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }

    /// Whether every type this version shows is shown as its current version: then no value
    /// is written older than it is, and an edit hides nothing.
    var showsOnlyCurrentVersions: Bool {
        shown.allSatisfy { type in type.chain.versions.first.map { current in type.version == current } ?? true }
    }
}

/// A versioned type as an API version lists it.
struct ShownType: Sendable {
    // `@unchecked` for the chain's metatypes, which are immutable.
    let id: ObjectIdentifier
    let version: Int?
    let chain: VersionChain

    init<Value: VersionedCodable>(_ type: Value.Type, version: Int?) {
        id = ObjectIdentifier(type)
        self.version = version
        chain = VersionChain(for: type)
    }

    var name: String { String(describing: chain.newest) }
}
