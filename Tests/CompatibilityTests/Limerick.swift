import Foundation
import VersionedCodable

// The 1.2 "Getting Started" way of adopting versioning for a type that is already stored: the
// existing documents have no version, so the type that reads them gets the `nil` version, and
// conformances are declared in extensions of plain `Codable` structs.

/// A limerick as the app stored it before it adopted versioning: no `version` key at all.
struct LimerickPreV1: Codable {
    var lines: [String]
}

extension LimerickPreV1: VersionedCodable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
}

/// The current limerick, which has a title.
struct Limerick: Codable, Equatable {
    var title: String
    var lines: [String]
}

extension Limerick: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = LimerickPreV1

    // A migration that cannot fail does not need to be `throws`.
    init(from old: LimerickPreV1) {
        self.init(title: old.lines.first ?? "Untitled", lines: old.lines)
    }
}
