import Foundation

extension VersionChain {
    /// The first type of the chain, newest first, whose spec cannot be merged into a document or
    /// whose version does not read back: its spec's encoding alone, as JSON, is read through the
    /// newest type the way a versioned decode reads a document, and must give the type's version.
    func versionNotReadBack() -> VersionChainProblem? {
        for type in types {
            switch readBack(type, as: newest) {
            case .failure(let error): return .unsupportedSpec(type.versionSpecType, reason: error.description)
            case .success(let read) where read != type.version: return .versionNotReadBack(type, readAs: read)
            case .success: continue
            }
        }
        return nil
    }
}

/// The version a document holding only what `written`'s spec writes reads as through `newest`,
/// `nil` when it has none or cannot be written or read, or why the spec's part cannot be merged
/// into a document. What was recorded is written, rather than the spec itself, so that a spec
/// nested past the recorder's limit is refused before a coder recurses through it.
private func readBack<Written: VersionedCodable, Newest: VersionedCodable>(
    _ written: Written.Type,
    as newest: Newest.Type
) -> Result<Int?, SpecRecordingError> {
    let recorded: SpecPlace
    do {
        recorded = try SpecRecorder.record(Written.VersionSpec(withVersion: Written.version), userInfo: [:])
    } catch {
        return (error as? SpecRecordingError).map { .failure($0) } ?? .success(nil)
    }
    guard let header = try? JSONEncoder().encode(WrittenSpec(place: recorded)) else {
        return .success(nil)
    }
    return .success((try? JSONDecoder().storedVersion(of: Newest.self, from: header)) ?? nil)
}
