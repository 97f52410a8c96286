import Foundation

/// A document as a store holds it: its key, its bytes and the revision it was read at.
public struct StoredDocument<Key: Hashable & Sendable, Revision: Equatable & Sendable>: Sendable {
    /// The document's key.
    public var key: Key

    /// The encoded document, exactly as stored.
    public var data: Data

    /// What the store compares before replacing the document.
    public var revision: Revision

    /// Makes a stored document, as a store's listing returns it.
    ///
    /// - Parameters:
    ///   - key: The document's key.
    ///   - data: The encoded document.
    ///   - revision: The revision the document was read at.
    public init(key: Key, data: Data, revision: Revision) {
        self.key = key
        self.data = data
        self.revision = revision
    }
}

extension StoredDocument: Equatable where Key: Equatable {}
