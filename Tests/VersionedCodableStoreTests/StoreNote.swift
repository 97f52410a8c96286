import Foundation
import VersionedCodable

// The history of a note, as the tests store it: version 1 kept the text in one string,
// version 2 split it into lines, version 3 added pinning. Each version can be written as the
// one before, so an upgrade can target version 2.

struct StoreNoteV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var title: String
    var text: String
}

struct StoreNoteV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = StoreNoteV1
    var title: String
    var lines: [String]

    init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }

    init(from old: StoreNoteV1) {
        self.init(title: old.title, lines: old.text.components(separatedBy: "\n"))
    }

    func downgraded() -> StoreNoteV1 {
        StoreNoteV1(title: title, text: lines.joined(separator: "\n"))
    }
}

struct StoreNote: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = StoreNoteV2
    var title: String
    var lines: [String]
    var pinned: Bool

    init(title: String, lines: [String], pinned: Bool) {
        self.title = title
        self.lines = lines
        self.pinned = pinned
    }

    init(from old: StoreNoteV2) {
        self.init(title: old.title, lines: old.lines, pinned: false)
    }

    func downgraded() throws -> StoreNoteV2 {
        guard !pinned else {
            throw VersionedEncodingError.notRepresentable(
                in: StoreNoteV2.self,
                EncodingError.Context(codingPath: [], debugDescription: "version 2 cannot pin a note")
            )
        }
        return StoreNoteV2(title: title, lines: lines)
    }
}
