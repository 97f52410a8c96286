import VersionedCodable

/// A fourth version of the note that says nothing about writing itself as version 3: its chain
/// cannot write any document below version 4.
struct UndowngradableNote: VersionedCodable, Equatable {
    static let version: Int? = 4
    typealias PreviousVersion = StoreNote
    var title: String
    var lines: [String]

    init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }

    init(from old: StoreNote) {
        self.init(title: old.title, lines: old.lines)
    }
}

/// A note whose first form had no version, followed by a numbered one.
struct LegacyNote: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    var title: String
}

struct NumberedNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = LegacyNote
    var title: String

    init(title: String) {
        self.title = title
    }

    init(from old: LegacyNote) {
        self.init(title: old.title)
    }

    func downgraded() -> LegacyNote {
        LegacyNote(title: title)
    }
}
