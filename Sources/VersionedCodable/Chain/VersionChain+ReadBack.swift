import Foundation

extension VersionChain {
    /// The first type of the chain, newest first, whose version does not read back: its spec's
    /// encoding alone, as JSON, is read through the newest type the way a versioned decode reads
    /// a document, and must give the type's version.
    func versionNotReadBack() -> VersionChainProblem? {
        for type in types {
            if let problem = recordingProblem(type) {
                return problem
            }
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

/// Why what `type`'s spec writes for its version cannot be merged into a document, if it cannot.
private func recordingProblem<Written: VersionedCodable>(_ type: Written.Type) -> VersionChainProblem? {
    do {
        _ = try SpecRecorder.record(Written.VersionSpec(withVersion: Written.version), userInfo: [:])
    } catch let error as SpecRecordingError {
        return .unsupportedSpec(Written.VersionSpec.self, reason: error.description)
    } catch {}
    return nil
}
