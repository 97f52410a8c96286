/// Where a spec keeps the version in a document, level by level, as the views that read a
/// versioned type's objects need to know it. Immutable and shared: the default spec's is made
/// once, a custom spec's once per spec.
///
/// The version's places belong to the library: a dictionary that the type reads where the spec
/// keeps a version does not get the version as one of its entries, and an optional object
/// that holds nothing but the version is the spec's, not the type's.
@usableFromInline
final class VersionPlaces: Sendable {
    /// The keys at this level where the spec keeps a version.
    let keys: [String]
    /// The places further down, by the key of the object they are in.
    let below: [String: VersionPlaces]

    /// The places of a spec whose version paths, from this level, are `paths`.
    init(paths: [[String]]) {
        var keys: [String] = []
        var deeper: [String: [[String]]] = [:]
        for path in paths where !path.isEmpty {
            if path.count == 1 {
                if !keys.contains(path[0]) {
                    keys.append(path[0])
                }
            } else {
                deeper[path[0], default: []].append(Array(path.dropFirst()))
            }
        }
        self.keys = keys
        self.below = deeper.mapValues { VersionPlaces(paths: $0) }
    }

    /// Whether `keys` are all version keys of this level: an object holding nothing else
    /// holds only what the spec wrote.
    func holdsOnlyVersions(_ objectKeys: [String]) -> Bool {
        below.isEmpty && !objectKeys.isEmpty && objectKeys.allSatisfy(keys.contains)
    }

    /// The default spec's: a `version` key at the root.
    @usableFromInline
    static let defaultSpec = VersionPlaces(paths: [["version"]])

    /// The document as it is, hiding nothing: what a spec reads the version with.
    static let asWritten = VersionPlaces(paths: [])
}
