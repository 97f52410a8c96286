/// A versioned value inside any `Codable` document: decoding it runs its version chain,
/// encoding it writes its version.
///
/// Use `Versioned` where a versioned type is a part of a document rather than the whole of it.
/// Each part carries its own version and migrates on its own, with any coder, because the work
/// happens in `init(from:)` and `encode(to:)`:
///
/// <!-- snippet: nested-versioned -->
/// ```swift
/// struct Basket: Codable, Equatable {
///     @Versioned var featured: Item
///     var items: [Versioned<Item>]
///     var lastRemoved: Versioned<Item>?
/// }
/// ```
///
/// A property that is optional and may be missing from the document is written as
/// `Versioned<Item>?`: synthesized `Codable` skips a missing key or `null` for it, and
/// leaves it out when it is `nil`.
///
/// `Versioned` also tells you which version a value was read from, through the projected value
/// of a property (`basket.$featured.storedVersion`), so that a program can write back the
/// documents it had to migrate.
///
/// A tree of versioned parts (a `Node` whose children are `[Versioned<Node>]`) reads and writes
/// on the calling thread, to ``maximumVersionedPartDepth`` keys and indexes deep: a tree at
/// that depth fits a 512 KB thread stack in a debug build. A part deeper than that throws a
/// `DecodingError` (or an `EncodingError`) that says the document nests too deep, at the
/// part's coding path.
@propertyWrapper
public struct Versioned<Value: VersionedCodable> {
    /// The value, migrated to the current version.
    public var wrappedValue: Value

    /// The version the value was stored with, as found in the document.
    ///
    /// For a value made in code this is the current version, `Value.version`. It keeps the
    /// version read from the document when ``wrappedValue`` is changed afterwards.
    public let storedVersion: Int?

    /// The wrapper itself, so that `$property.storedVersion` can be read.
    public var projectedValue: Versioned<Value> { self }

    /// Whether the value was decoded from an older version and migrated.
    public var wasMigrated: Bool { storedVersion != Value.version && newer == nil }

    /// Whether the value was read from a document of a newer version than this build knows,
    /// which declared that older builds may read it (see <doc:OldAndNewBuilds>).
    ///
    /// The fields that `Value` did not read, at the document's root and in the objects where its
    /// spec keeps the version (`_metadata`), are kept, and encoding the
    /// wrapper writes them back with the document's own version, and the fields `Value` knows
    /// with the value's edits. A document that older builds may only read throws when it is
    /// written. The wrapper holds all of it, not ``wrappedValue``: encoding the bare value with
    /// `encode(versioned:)` writes a new document of this build's version, without them.
    public var isFromNewerVersion: Bool { newer != nil }

    /// The wrapper, or the error a decode that returns the bare value throws for a document
    /// newer than this build: such a decode has nowhere to keep the fields it does not know.
    @usableFromInline
    func refusingNewer() throws -> Self {
        if let newer {
            throw VersionedDecodingError.documentVersionTooNew(found: newer.storedVersion, newest: Value.self)
        }
        return self
    }

    /// The document this value was read from, when it is newer than this build.
    @usableFromInline
    let newer: NewerDocument?

    /// Wraps a value made in code; its ``storedVersion`` is the current version.
    ///
    /// - Parameter wrappedValue: The value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
        self.storedVersion = Value.version
        self.newer = nil
    }

    /// Wraps a value made in code; its ``storedVersion`` is the current version.
    ///
    /// - Parameter value: The value.
    public init(_ value: Value) {
        self.init(wrappedValue: value)
    }

    @usableFromInline
    init(decoded value: Value, storedVersion: Int?, newer: NewerDocument?) {
        self.wrappedValue = value
        self.storedVersion = storedVersion
        self.newer = newer
    }
}

extension Versioned: Decodable {
    /// Reads the version through `decoder`, decodes the matching version of `Value` from the
    /// same decoder, and migrates it to the current version.
    ///
    /// - Parameter decoder: The decoder positioned at the versioned value.
    /// - Throws: `DecodingError` for malformed data, ``VersionedDecodingError`` when the
    ///   version is not in the chain, and any error a migration step throws.
    ///
    /// A part inside a document that cannot be read throws `DecodingError.dataCorrupted` with
    /// the part's coding path (`items[3]`), the version it was stored with and the versions the
    /// chain supports; the library's or the migration's own error is its `underlyingError`. The
    /// root of a document throws that error itself, as VersionedCodable 1.2 did.
    @inlinable
    public init(from decoder: any Decoder) throws {
        // The versioned decode is inlined here rather than called through the conformance, so
        // that a tree of versioned parts, which recurses through this initializer, pays for
        // one small frame per level.
        self = try Value.decodeVersionedPart(from: decoder, readingNewer: true)
    }
}

extension Versioned: Encodable {
    /// Writes the value with its current version at `Value.VersionSpec`'s path.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: ``VersionedEncodingError`` when the value itself writes something where the
    ///   version goes, and whatever the value's own encoding throws.
    ///
    /// A part inside a document that cannot be written throws `EncodingError.invalidValue` with
    /// the part's coding path (`items[3]`), its type and the field that clashes with the
    /// version (or the version it could not be written as); the ``VersionedEncodingError`` is
    /// its `underlyingError`. The root of a document throws the ``VersionedEncodingError``
    /// itself, as VersionedCodable 1.2 did; a coder may wrap what the root throws, as
    /// `PropertyListEncoder` wraps every error in `EncodingError.invalidValue`, whose
    /// `underlyingError` it is then. `encode(versioned:)` takes it out of that wrapper.
    ///
    /// A value read from a document newer than this build (``isFromNewerVersion``) is written
    /// back with the document's version and the fields it kept, or throws
    /// ``VersionedEncodingError/cannotWriteNewerDocument(storedVersion:writableFrom:)`` when the
    /// document does not let this build write it.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encodeVersioned(to: encoder, newer: newer)
    }
}

extension Versioned: Equatable where Value: Equatable {
    /// Two wrappers are equal when their values are; the stored version is not compared.
    public static func == (lhs: Versioned<Value>, rhs: Versioned<Value>) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}

extension Versioned: Hashable where Value: Hashable {
    /// Hashes the value; the stored version is not hashed, as it is not compared.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension Versioned: Sendable where Value: Sendable {}
