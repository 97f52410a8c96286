import VersionedCodable

// A shelf whose books are versioned parts: the shelf's own version does not move when a book's
// does, so a shelf at the current version may hold books stored as an older one.

struct StoreBookV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var name: String
}

struct StoreBook: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = StoreBookV1
    var title: String

    init(title: String) {
        self.title = title
    }

    init(from old: StoreBookV1) {
        self.init(title: old.name)
    }

    func downgraded() -> StoreBookV1 {
        StoreBookV1(name: title)
    }
}

struct StoreShelf: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var books: [Versioned<StoreBook>]

    /// Whether a book is stored below its current version.
    static let holdsOldBooks: @Sendable (StoreShelf) -> Bool = { shelf in
        shelf.books.contains { ($0.storedVersion ?? 0) < StoreBook.version! }
    }
}
