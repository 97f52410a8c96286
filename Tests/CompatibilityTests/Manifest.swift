import Foundation
import VersionedCodable

// Types that keep a property mirroring their version, as apps built on 1.2 do: 1.2 wrote the
// version over whatever the property held, so the document always carried the version being
// written, even when the property was stale after a migration.

/// The version under `manifestVersion` at the root, which the manifest types also declare.
struct ManifestVersionSpec: VersionPathSpec {
    static let keyPathToVersion: KeyPath<ManifestVersionSpec, Int?> = \ManifestVersionSpec.manifestVersion

    var manifestVersion: Int?

    init(withVersion version: Int?) {
        manifestVersion = version
    }
}

/// The first manifest.
struct ManifestV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = ManifestVersionSpec

    var manifestVersion: Int?
    var files: [String]
}

/// The current manifest, with sizes. The migration copies the mirror as it is, so a migrated
/// value still says 1.
struct Manifest: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = ManifestV1
    typealias VersionSpec = ManifestVersionSpec

    var manifestVersion: Int?
    var files: [String: Int]

    init(manifestVersion: Int?, files: [String: Int]) {
        self.manifestVersion = manifestVersion
        self.files = files
    }

    init(from old: ManifestV1) throws {
        manifestVersion = old.manifestVersion
        files = Dictionary(uniqueKeysWithValues: old.files.map { ($0, 0) })
    }
}

/// A type with a `version` property of its own under the default spec, mirroring the version.
struct Settings: VersionedCodable, Equatable {
    static let version: Int? = 4
    typealias PreviousVersion = NothingEarlier

    var version: Int?
    var theme: String
}

/// A type whose `version` property is not the document's version at all: a label. Writing the
/// document's version there would destroy it.
struct Release: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var version: String
    var notes: String
}
