import Foundation
import VersionedCodable

// A `VersionPathSpec` whose key path is a computed `static var`, two levels deep.

/// The version at `header.revision`.
struct HeaderRevisionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<HeaderRevisionSpec, Int?> {
        \.header.revision
    }

    var header: Header

    struct Header: Codable {
        var revision: Int?
    }

    init(withVersion version: Int?) {
        header = Header(revision: version)
    }
}

/// The first playbill: a single performer.
struct PlaybillV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = HeaderRevisionSpec

    var play: String
    var performer: String
}

/// The current playbill: a cast.
struct Playbill: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = PlaybillV1
    typealias VersionSpec = HeaderRevisionSpec

    var play: String
    var cast: [String]

    init(play: String, cast: [String]) {
        self.play = play
        self.cast = cast
    }

    init(from old: PlaybillV1) throws {
        play = old.play
        cast = [old.performer]
    }
}
