import Foundation

/// A replacement of one document that a store makes only if the document is unchanged.
public struct DocumentWrite<Key: Hashable & Sendable, Revision: Equatable & Sendable>: Sendable {
    /// The document to replace.
    public var key: Key

    /// The revision the document had when it was read; the store writes only if it still has
    /// it.
    public var readRevision: Revision

    /// The new bytes.
    public var data: Data

    /// The version written, for stores that keep it beside the document (a column to index).
    public var version: Int?

    /// Makes a write.
    ///
    /// - Parameters:
    ///   - key: The document to replace.
    ///   - readRevision: The revision it was read at.
    ///   - data: The new bytes.
    ///   - version: The version the new bytes store.
    public init(key: Key, readRevision: Revision, data: Data, version: Int?) {
        self.key = key
        self.readRevision = readRevision
        self.data = data
        self.version = version
    }
}
