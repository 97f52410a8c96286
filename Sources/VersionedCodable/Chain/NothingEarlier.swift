/// The ``VersionedCodable/PreviousVersion`` of the oldest type in a version chain.
///
/// `NothingEarlier` has no values, so nothing can be migrated from it. It conforms to
/// ``VersionedCodable`` only so that it can end a chain: decoding it throws
/// `DecodingError.typeMismatch`, and its ``version`` is `nil`.
///
/// ```swift
/// struct PoemV1: VersionedCodable {
///     static let version: Int? = 1
///     typealias PreviousVersion = NothingEarlier
///     var author: String
/// }
/// ```
public enum NothingEarlier: Sendable {}

extension NothingEarlier: VersionedCodable {
    /// Always `nil`: there is no document of this type.
    public static var version: Int? { nil }

    /// `NothingEarlier` ends every chain, including its own.
    public typealias PreviousVersion = NothingEarlier

    /// Cannot be called: `NothingEarlier` has no values.
    ///
    /// - Parameter from: A value that cannot exist.
    public init(from: NothingEarlier) throws {
        switch from {}
    }

    /// Always throws, because there is no value to decode.
    ///
    /// - Parameter decoder: The decoder to read from. Nothing is read.
    /// - Throws: `DecodingError.typeMismatch` naming `NothingEarlier`.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(
            NothingEarlier.self,
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "NothingEarlier marks the end of a version chain and has no values to decode."
            )
        )
    }

    /// Cannot be called: `NothingEarlier` has no values.
    ///
    /// - Parameter encoder: The encoder that is never written to.
    public func encode(to encoder: any Encoder) throws {
        switch self {}
    }
}

extension VersionedCodable where PreviousVersion == NothingEarlier {
    /// The oldest version of a type needs no migration, so this initializer exists only to
    /// satisfy ``VersionedCodable``. It can never be called, because `NothingEarlier` has no
    /// values.
    ///
    /// - Parameter from: A value that cannot exist.
    public init(from: NothingEarlier) throws {
        switch from {}
    }
}
