import Foundation
import VersionedCodable

/// A type whose chain ends in `Never`, which 1.2 made `VersionedCodable` with the `nil`
/// version: a document without a version is a `Never`, which cannot be decoded.
@available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
struct Draft: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = Never

    var text: String

    init(text: String) {
        self.text = text
    }

    init(from never: Never) throws {
        switch never {}
    }
}
