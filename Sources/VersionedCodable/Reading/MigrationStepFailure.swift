/// An error a migration step threw, with the step it came from.
///
/// It never reaches a caller: at the root of a document the step's own error is thrown
/// unchanged, and inside a document it becomes the `underlyingError` of a `DecodingError`
/// whose description names the step (see ``VersionedCodable/locatingFailure(_:of:found:)``).
@usableFromInline
internal struct MigrationStepFailure: Error {
    /// `from PoemV1 (version 1) to Poem (version 2)`.
    let step: String
    let error: any Error

    @usableFromInline
    init(from: any VersionedCodable.Type, to: any VersionedCodable.Type, error: any Error) {
        step =
            "from \(from) (version \(describeVersion(from.version))) to \(to) (version \(describeVersion(to.version)))"
        self.error = error
    }
}
