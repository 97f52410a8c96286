/// An error a migration step threw, with the step it came from.
///
/// It never reaches a caller: at the root of a document the step's own error is thrown
/// unchanged, and inside a document it becomes the `underlyingError` of a `DecodingError`
/// whose description names the step (see ``VersionedCodable/locatingFailure(_:of:)``).
@usableFromInline
internal struct MigrationStepFailure: Error, @unchecked Sendable {
    // `@unchecked`: the metatypes and the error are only read, and the value only travels up
    // the call stack of one decode.
    let from: any VersionedCodable.Type
    let to: any VersionedCodable.Type
    let error: any Error

    @usableFromInline
    init(from: any VersionedCodable.Type, to: any VersionedCodable.Type, error: any Error) {
        self.from = from
        self.to = to
        self.error = error
    }
}
