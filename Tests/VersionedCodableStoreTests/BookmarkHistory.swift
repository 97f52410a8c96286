import VersionedCodable

// The bookmarks of "Upgrading stored documents": three versions, before any is retired.

// snippet: store-bookmark-history
struct BookmarkV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var address: String
}

struct BookmarkV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = BookmarkV1

    var url: String
    var title: String

    init(url: String, title: String) {
        self.url = url
        self.title = title
    }

    init(from old: BookmarkV1) {
        self.init(url: old.address, title: old.address)
    }
}

struct Bookmark: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = BookmarkV2

    var url: String
    var title: String
    var folder: String?

    init(url: String, title: String, folder: String?) {
        self.url = url
        self.title = title
        self.folder = folder
    }

    init(from old: BookmarkV2) {
        self.init(url: old.url, title: old.title, folder: nil)
    }

    // Lets an upgrade target version 2 while builds that know only version 2 still run.
    func downgraded() throws -> BookmarkV2 {
        guard folder == nil else {
            throw VersionedEncodingError.notRepresentable(
                in: BookmarkV2.self,
                EncodingError.Context(codingPath: [], debugDescription: "version 2 has no folders")
            )
        }
        return BookmarkV2(url: url, title: title)
    }
}
// end snippet
