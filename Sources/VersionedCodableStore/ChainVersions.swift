import VersionedCodable

/// Where a stored version stands against the chain this build has: in it, newer, or below
/// its oldest type (retired).
struct ChainVersions: Sendable {
    /// The chain's versions, oldest first.
    let versions: [Int?]
    let oldestTypeName: String

    init<Value: VersionedCodable>(for type: Value.Type) throws {
        let chain = VersionChain(for: type)
        if let problem = chain.problem {
            throw VersionedDecodingError.invalidVersionChain(problem)
        }
        versions = chain.versions.reversed()
        oldestTypeName = String(describing: chain.oldest)
    }

    enum Standing: Equatable {
        /// In the chain, at this position counted from the oldest.
        case inChain(rank: Int)
        case newer
        case retired
        case unsupported
    }

    /// The position of `version` counted from the oldest, or `nil` when the chain lacks it.
    func rank(of version: Int?) -> Int? {
        versions.firstIndex(of: version)
    }

    func standing(of stored: Int?) -> Standing {
        if let rank = rank(of: stored) {
            return .inChain(rank: rank)
        }
        let numbered = versions.compactMap { $0 }
        guard let stored else {
            // A chain that starts at a numbered version no longer reads the documents written
            // before versioning was adopted.
            return .retired
        }
        if let newest = numbered.max(), stored > newest {
            return .newer
        }
        if let oldest = numbered.min(), stored < oldest {
            return .retired
        }
        return .unsupported
    }

    /// The reason to report for a stored version the chain cannot read, or `nil` when it can.
    func problem(for stored: Int?) -> DocumentProblemReason? {
        switch standing(of: stored) {
        case .inChain:
            return nil
        case .newer:
            return .newer(stored: stored ?? 0, newest: versions.last ?? nil)
        case .retired:
            return .retiredVersion(stored: stored, oldestReadable: versions.first ?? nil, oldestType: oldestTypeName)
        case .unsupported:
            return .unsupportedVersion(stored: stored, supported: versions)
        }
    }
}
