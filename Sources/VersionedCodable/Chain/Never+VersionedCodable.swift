/// `Never` can stand in a version chain wherever a type with no values is wanted, for example
/// as the ``VersionedCodable/PreviousVersion`` of a placeholder. Like ``NothingEarlier`` it has a
/// `nil` version, and decoding it throws `DecodingError.typeMismatch`.
@available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
extension Never: VersionedCodable {
    /// `Never` has no values to migrate from.
    public typealias PreviousVersion = NothingEarlier

    /// Always `nil`: no document holds a `Never`.
    public static var version: Int? { nil }
}
