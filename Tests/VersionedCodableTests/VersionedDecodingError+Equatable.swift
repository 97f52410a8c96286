@testable import VersionedCodable

// The library leaves `VersionedDecodingError` without `Equatable`, as 1.2 did, so that programs
// can declare it themselves. The tests declare it here, the way such a program does.
extension VersionedDecodingError: Equatable {
    /// Two errors are equal when they are the same case with the same types and versions;
    /// contexts are compared by coding path and debug description.
    public static func == (lhs: VersionedDecodingError, rhs: VersionedDecodingError) -> Bool {
        switch (lhs, rhs) {
        case (.fieldNoLongerValid(let a), .fieldNoLongerValid(let b)):
            return a.debugDescription == b.debugDescription
                && a.codingPath.map(\.stringValue) == b.codingPath.map(\.stringValue)
        case (.unsupportedVersion(let a), .unsupportedVersion(let b)):
            return a == b
        case (.documentVersionTooNew(let v1, let t1), .documentVersionTooNew(let v2, let t2)):
            return v1 == v2 && t1 == t2
        case (.invalidVersionChain(let a), .invalidVersionChain(let b)):
            return a == b
        case (.ambiguousVersion(let v1, let a), .ambiguousVersion(let v2, let b)):
            return v1 == v2 && a.debugDescription == b.debugDescription
        case (.decodeFunctionReturnedWrongType(let e1, let r1), .decodeFunctionReturnedWrongType(let e2, let r2)):
            return e1 == e2 && r1 == r2
        default:
            return false
        }
    }
}
