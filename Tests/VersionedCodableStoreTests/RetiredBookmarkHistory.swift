import VersionedCodable

/// The bookmarks once version 1 is retired. In an enum of its own only so that both histories
/// compile side by side in the tests; in a program, the chain itself changes.
enum AfterRetiring {
    // snippet: store-bookmark-retired
    struct BookmarkV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        // The oldest version this build reads: nothing earlier, since version 1 was retired.
        typealias PreviousVersion = NothingEarlier

        var url: String
        var title: String
    }

    struct Bookmark: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = BookmarkV2

        var url: String
        var title: String
        var folder: String?

        init(from old: BookmarkV2) {
            url = old.url
            title = old.title
            folder = nil
        }
    }
    // end snippet
}
