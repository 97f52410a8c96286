import Foundation

extension VersionChain {
    /// The first type of the chain, newest first, whose version does not read back: its spec's
    /// encoding alone, as JSON, is read through the newest type the way a versioned decode reads
    /// a document, and must give the type's version.
    func versionNotReadBack() -> VersionChainProblem? {
        for type in types {
            let read = readBack(type, as: newest)
            if read != type.version {
                return .versionNotReadBack(type, readAs: read)
            }
        }
        return nil
    }
}

/// The version a document holding only what `written`'s spec writes reads as through `newest`,
/// or `nil` when it has none or cannot be written or read.
private func readBack<Written: VersionedCodable, Newest: VersionedCodable>(
    _ written: Written.Type,
    as newest: Newest.Type
) -> Int? {
    guard let header = try? JSONEncoder().encode(Written.VersionSpec(withVersion: Written.version)) else {
        return nil
    }
    return (try? JSONDecoder().storedVersion(of: Newest.self, from: header)) ?? nil
}
