/// What every decode of a type checks before it reads a field: that the type's chain is sound
/// and has the stored version, worked out once per type.
///
/// ``VersionChain`` answers the same questions, but through its list of metatypes, asking each
/// for its `version`; this keeps just the answers, in a form that costs a few comparisons.
final class DecodableVersions: Sendable {
    /// The chain's versions, newest first; empty when the chain is not sound, so that nothing
    /// decodes and the chain's own check reports the problem.
    private let versions: [Int?]

    private init(_ chain: VersionChain) {
        versions = chain.problem == nil ? chain.versions : []
    }

    /// Whether a document stored with `version` can be decoded.
    func includes(_ version: Int?) -> Bool {
        versions.contains(version)
    }

    private static let cache = TypeKeyedCache<DecodableVersions>()

    static func of<Newest: VersionedCodable>(_ newest: Newest.Type) -> DecodableVersions {
        cache.value(for: newest) { DecodableVersions(VersionChain(for: newest)) }
    }
}
