/// A field that holds a case of `Known`, or a raw value this build does not know, kept as it
/// was read and written back unchanged.
///
/// A new case of an enum field is a change older builds cannot follow: the standard decoding of
/// an enum throws for a raw value it has no case for, so the whole document fails to read. A
/// field declared as `OpenEnum<ParcelStatus>` instead of `ParcelStatus` reads any raw value. A case
/// this build knows comes back as ``known(_:)``; any other raw value as ``unknown(_:)``, which
/// encodes exactly as it was read. So a version that only adds cases to an open field can be
/// declared ``ForwardCompatibility/compatible`` (see <doc:OldAndNewBuilds>):
///
/// <!-- snippet: open-enum-field -->
/// ```swift
/// /// The statuses the old build knows.
/// enum ParcelStatus: String, Codable, Sendable {
///     case packed, shipped, delivered
/// }
///
/// /// The old build's newest version: its status is open, so it keeps statuses it does not know.
/// struct Parcel: VersionedCodable, Equatable, Sendable {
///     static let version: Int? = 1
///     typealias PreviousVersion = NothingEarlier
///
///     var recipient: String
///     var status: OpenEnum<ParcelStatus>
/// }
/// ```
///
/// The document is the same as for a plain enum field: the raw value alone, in JSON and in
/// property lists. Two values are equal when their raw values are, so `.unknown("shipped")`
/// equals `.known(.shipped)`; ``init(rawValue:)`` gives the known case wherever there is one.
///
/// `OpenEnum` works in any `Codable` type, versioned or not, for enums backed by `String`, `Int`
/// or any other `Codable` raw value.
public enum OpenEnum<Known: RawRepresentable> {
    /// A case this build knows.
    case known(Known)
    /// A raw value this build has no case for, as it was read.
    case unknown(Known.RawValue)

    /// The known case, or `nil` for a raw value this build does not know.
    public var known: Known? {
        if case .known(let value) = self { value } else { nil }
    }
}

extension OpenEnum: RawRepresentable {
    /// The known case for `rawValue` where `Known` has one, otherwise the raw value itself.
    ///
    /// - Parameter rawValue: A raw value of `Known`, known to this build or not.
    public init(rawValue: Known.RawValue) {
        self = Known(rawValue: rawValue).map(Self.known) ?? .unknown(rawValue)
    }

    /// The raw value: the known case's, or the one read.
    public var rawValue: Known.RawValue {
        switch self {
        case .known(let value): value.rawValue
        case .unknown(let rawValue): rawValue
        }
    }
}

extension OpenEnum: Decodable where Known.RawValue: Decodable {
    /// Reads a raw value: the known case for it, or the raw value itself.
    ///
    /// - Parameter decoder: The decoder positioned at the field.
    /// - Throws: `DecodingError` when the value is not a raw value of `Known`'s type.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Known.RawValue.self))
    }
}

extension OpenEnum: Encodable where Known.RawValue: Encodable {
    /// Writes the raw value, as `Known` itself would be written.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws for the raw value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension OpenEnum: Equatable where Known.RawValue: Equatable {
    /// Whether two values have the same raw value.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue == rhs.rawValue
    }
}

extension OpenEnum: Hashable where Known.RawValue: Hashable {
    /// Hashes the raw value, as it is what is compared.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}

extension OpenEnum: Sendable where Known: Sendable, Known.RawValue: Sendable {}
