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
/// property lists, and as a dictionary's key where `Known` is `CodingKeyRepresentable`
/// (`[OpenEnum<Kind>: Int]` is written as `{"north": 1}`, as `[Kind: Int]` is). Two values are equal when their raw values are, so `.unknown("shipped")`
/// equals `.known(.shipped)`; ``init(rawValue:)`` gives the known case wherever there is one.
///
/// `OpenEnum` works in any `Codable` type, versioned or not, for enums backed by `String`, `Int`
/// or any other `Codable` raw value.
public enum OpenEnum<Known: RawRepresentable> {
    /// A case this build knows.
    case known(Known)
    /// A raw value this build has no case for, as it was read.
    case unknown(Known.RawValue)

    /// The case this build knows for the raw value, however the value was made, or `nil` for a
    /// raw value it does not know: `.unknown("parcel").known` is `.parcel` where `Known` has that
    /// case, as `.unknown("parcel") == .known(.parcel)`.
    public var known: Known? {
        switch self {
        case .known(let value): value
        case .unknown(let rawValue): Known(rawValue: rawValue)
        }
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

@available(macOS 12.3, iOS 15.4, tvOS 15.4, watchOS 8.5, *)
extension OpenEnum: CodingKeyRepresentable where Known: CodingKeyRepresentable {
    /// The key `Known` writes for a case it knows; for a raw value it does not know, the key the
    /// raw value makes, as `Known` makes its keys from its raw values (a string's is the string,
    /// an integer's is the integer).
    public var codingKey: any CodingKey {
        switch self {
        case .known(let value): value.codingKey
        case .unknown(let rawValue):
            (rawValue as? Int).flatMap(ForwardedKey.init(intValue:)) ?? ForwardedKey(stringValue: "\(rawValue)")
        }
    }

    /// The case `Known` reads from `codingKey`, or else its string (or integer) as a raw value.
    ///
    /// - Parameter codingKey: A key of a dictionary being decoded.
    public init?<T: CodingKey>(codingKey: T) {
        if let known = Known(codingKey: codingKey) {
            self = .known(known)
        } else if let rawValue = codingKey.stringValue as? Known.RawValue {
            self.init(rawValue: rawValue)
        } else if let rawValue = (codingKey.intValue ?? Int(codingKey.stringValue)) as? Known.RawValue {
            self.init(rawValue: rawValue)
        } else {
            return nil
        }
    }
}
