/// Where a ``VersionPathSpec`` puts the version, as the keys that lead to it.
///
/// Encoding needs the path to merge the version into the object the type writes there and to
/// notice a type that writes its own value at it. The path is found once per spec by encoding
/// a spec with a recognisable version into a ``ShapeRecordingEncoder``.
enum VersionPath {
    static let atRoot = ["version"]

    /// The keys from the document's root to the version, or `nil` if the spec does not write
    /// the version as an integer in keyed objects.
    static func keys<Spec: VersionPathSpec>(for spec: Spec.Type) -> [String]? {
        if spec == VersionKeyAtRootVersionPathSpec.self {
            return atRoot
        }
        return cache.value(for: spec) { find(for: spec) }
    }

    private static let cache = TypeKeyedCache<[String]?>()

    /// A version no real document uses, so that the spec's integer can be told apart from any
    /// constant it also writes.
    private static let probeVersion = 0x5EED_C0DE_2E57

    private static func find<Spec: VersionPathSpec>(for spec: Spec.Type) -> [String]? {
        guard let entries = try? ShapeRecording.record(Spec(withVersion: probeVersion), userInfo: [:]) else {
            return nil
        }
        let matches = entries.filter { $0.integer == probeVersion }
        guard matches.count == 1, let path = matches.first?.path, !path.isEmpty else {
            return nil
        }
        return path
    }
}
