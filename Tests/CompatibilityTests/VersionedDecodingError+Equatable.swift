import VersionedCodable

// Programs built on 1.2 declared this conformance themselves to compare errors in tests; the
// library still leaves it to them.
extension VersionedDecodingError: Equatable {
    /// Two errors are equal when they are the same case; unsupported versions must also name
    /// the same type.
    public static func == (lhs: VersionedDecodingError, rhs: VersionedDecodingError) -> Bool {
        switch (lhs, rhs) {
        case let (.unsupportedVersion(l), .unsupportedVersion(r)): l == r
        case (.fieldNoLongerValid, .fieldNoLongerValid): true
        default: false
        }
    }
}
