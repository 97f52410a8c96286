import Foundation
import VersionedCodable

// Shapes real 1.2 programs have that the rest of this target does not: classes, a nil version
// right above `Never`, errors kept in sets, and the program's own text for the errors.

/// A document class that is not `final`, as class hierarchies of documents are.
class Notebook: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var title: String

    init(title: String) {
        self.title = title
    }
}

/// An oldest type with the nil version, which names `Never` below it rather than
/// `NothingEarlier`.
@available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
struct LegacyMemo: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = Never

    var text: String

    init(from never: Never) throws {
        switch never {}
    }
}

@available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
struct Memo: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = LegacyMemo

    var text: String
    var pinned: Bool

    init(text: String, pinned: Bool) {
        self.text = text
        self.pinned = pinned
    }

    init(from old: LegacyMemo) throws {
        text = old.text
        pinned = false
    }
}

/// The program's own words for the errors, shown to its users.
extension VersionedDecodingError: LocalizedError {
    /// What the program tells its users.
    public var errorDescription: String? {
        switch self {
        case .unsupportedVersion: "This file was made by a version of the app that can no longer be read."
        default: "This file could not be read."
        }
    }
}
