import Foundation
import VersionedCodable

// A custom `VersionPathSpec` that keeps the version under a root key with another name, with
// the key path stored in a `static let` as 1.2 users declare it.

/// The version under `schemaVersion` at the root: `{"schemaVersion": 2, ...}`.
struct SchemaVersionSpec: VersionPathSpec {
    static let keyPathToVersion: KeyPath<SchemaVersionSpec, Int?> = \SchemaVersionSpec.schemaVersion

    let schemaVersion: Int?

    init(withVersion version: Int?) {
        schemaVersion = version
    }
}

/// The first sonnet: the lines as one string.
struct SonnetV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = SchemaVersionSpec

    var title: String
    var text: String
}

/// The current sonnet: one string per line.
struct Sonnet: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = SonnetV1
    typealias VersionSpec = SchemaVersionSpec

    var title: String
    var lines: [String]

    init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }

    init(from old: SonnetV1) throws {
        title = old.title
        lines = old.text.components(separatedBy: "\n")
    }
}
