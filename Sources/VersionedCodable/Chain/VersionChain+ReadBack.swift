import Foundation

extension VersionChain {
    /// The first type of the chain, newest first, whose spec cannot be merged into a document or
    /// whose version does not read back: its spec's encoding alone, as JSON, is read through the
    /// newest type the way a versioned decode reads a document, and must give the type's version.
    /// A type that names the older builds that may read it must also find its version among the
    /// integers its spec writes, as its every encode does.
    func versionNotReadBack() -> VersionChainProblem? {
        for type in types {
            let (problem, read, recorded) = readBack(type, as: newest)
            if let problem {
                return problem
            }
            if read != type.version {
                return .versionNotReadBack(type, readAs: read)
            }
            // A version that names older builds beside its version must find where it is, as
            // every encode of it does.
            if type.olderBuilds != nil, let recorded,
                (try? SpecWriter.versionPaths(in: recorded, version: type.version, of: type, userInfo: [:]))?.isEmpty
                    != false
            {
                return .unsupportedSpec(type.versionSpecType, reason: olderBuildsCannotBeNamed)
            }
        }
        return nil
    }
}

/// The version a document holding only what `written`'s spec writes reads as through `newest`,
/// `nil` when it has none or cannot be written or read, or why the spec's part cannot be merged
/// into a document; and what the spec wrote, when it could be recorded. What was recorded is
/// written, rather than the spec itself, so that a spec nested past the recorder's limit is
/// refused before a coder recurses through it.
private func readBack<Written: VersionedCodable, Newest: VersionedCodable>(
    _ written: Written.Type,
    as newest: Newest.Type
) -> (problem: VersionChainProblem?, read: Int?, recorded: SpecWritten?) {
    let recorded: SpecWritten
    do {
        recorded = try SpecRecorder.record(Written.VersionSpec(withVersion: Written.version), userInfo: [:])
    } catch VersionedDecodingError.invalidVersionChain(let problem) {
        return (problem, nil, nil)
    } catch {
        return (nil, nil, nil)
    }
    guard let header = try? JSONEncoder().encode(recorded) else {
        return (nil, nil, recorded)
    }
    return (nil, (try? JSONDecoder().storedVersion(of: Newest.self, from: header)) ?? nil, recorded)
}
