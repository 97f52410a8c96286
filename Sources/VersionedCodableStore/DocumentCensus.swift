import Foundation
import VersionedCodable

/// Counts a store's documents by the version they store, and finds those this build cannot
/// read and those written by a newer build.
///
/// By default the census reads only each document's version, as
/// `JSONDecoder.storedVersion(of:from:)` does: it is quick, and it is what deciding to retire
/// a version needs. Set `decodesDocuments` to decode every document too, which also finds
/// documents whose version is fine but whose fields are damaged.
///
/// <!-- snippet: store-census -->
/// ```swift
/// let census = try await DocumentCensus(Bookmark.self, coder: JSONDocumentCoder()).take(of: store)
/// print(census)
/// if census.mayRetireVersions(below: 2) {
///     print("No bookmark is stored below version 2.")
/// }
/// ```
public struct DocumentCensus<Value: VersionedCodable, Coder: DocumentCoder>: Sendable {
    /// The format of the store's documents.
    public let coder: Coder

    /// How many documents each page of the listing asks for.
    public let batchSize: Int

    /// How many problem documents of each kind the report keeps.
    public let sampleLimit: Int

    /// Whether each document is decoded, not only its version read.
    public let decodesDocuments: Bool

    private let chain: ChainVersions

    /// Prepares a census of documents of `type`.
    ///
    /// - Parameters:
    ///   - type: The current version of the documents' type.
    ///   - coder: The documents' format.
    ///   - batchSize: How many documents to read per page; at least 1.
    ///   - sampleLimit: How many problem documents of each kind to keep in the report; 0 or
    ///     more.
    ///   - decodesDocuments: Whether to decode every document, to find damaged fields too.
    /// - Throws: ``StoreSettingError/outOfRange(setting:value:requirement:)`` when a setting is
    ///   out of its range, and `VersionedDecodingError.invalidVersionChain` when the type's
    ///   chain is not sound.
    public init(
        _ type: Value.Type,
        coder: Coder,
        batchSize: Int = 1_000,
        sampleLimit: Int = 20,
        decodesDocuments: Bool = false
    ) throws {
        try StoreSettingError.check(batchSize, atLeast: 1, "batchSize")
        try StoreSettingError.check(sampleLimit, atLeast: 0, "sampleLimit")
        self.coder = coder
        self.batchSize = batchSize
        self.sampleLimit = sampleLimit
        self.decodesDocuments = decodesDocuments
        self.chain = try ChainVersions(for: type)
    }

    /// Reads every document of the store, a page at a time, and counts them.
    ///
    /// The census writes nothing: of the store's requirements it calls only
    /// ``DocumentStore/documents(after:limit:)``, so a store opened read-only serves it.
    /// Memory stays bounded by the page and the samples, whatever the store's size.
    ///
    /// - Parameter store: The store to count.
    /// - Returns: The counts, with samples of the documents this build cannot read.
    /// - Throws: The store's errors, and `CancellationError` when the task is cancelled.
    public func take<Store: DocumentStore>(of store: Store) async throws -> CensusReport<Store.Key> {
        var report = CensusReport<Store.Key>(chainVersions: chain.versions, checkedSampleLimit: sampleLimit)
        var position: Store.Key?
        while true {
            try Task.checkCancellation()
            let page = try await store.documents(after: position, limit: batchSize)
            guard let last = page.last else {
                return report
            }
            for document in page {
                count(document, into: &report)
            }
            position = last.key
        }
    }

    private func count<Key, Revision>(_ document: StoredDocument<Key, Revision>, into report: inout CensusReport<Key>) {
        report.total += 1
        let stored: Int?
        do {
            stored = try coder.storedVersion(of: Value.self, from: document.data)
        } catch {
            report.unreadable.add(DocumentProblem(key: document.key, reason: .versionUnreadable(error)))
            return
        }
        report.knownVersions[stored, default: 0] += 1
        if let reason = chain.problem(for: stored) {
            if case .newer = reason {
                report.newer.add(DocumentProblem(key: document.key, reason: reason))
            } else {
                report.unreadable.add(DocumentProblem(key: document.key, reason: reason))
            }
            return
        }
        if decodesDocuments {
            do {
                _ = try coder.decode(Value.self, from: document.data)
            } catch {
                report.unreadable.add(DocumentProblem(key: document.key, reason: .undecodable(stored: stored, error)))
                return
            }
        }
        report.countsByVersion[stored, default: 0] += 1
    }
}
