import Foundation

/// A value of a field that an older build did not read, kept as the coder read it so that it
/// is written back as a plain field of the matching Swift type would write it: JSON's and
/// property lists' kinds of value.
///
/// Not `indirect`: a kept array or object already holds its values in its own storage, so a box
/// around each value would only cost an allocation and its memory.
@usableFromInline
enum UnknownValue: Codable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case array([UnknownValue])
    /// An object's fields, as a list: a dictionary's table takes twice the memory, and is built
    /// only while the object is written.
    case object([(key: String, value: UnknownValue)])

    @usableFromInline
    init(from decoder: any Decoder) throws {
        // A coder tells what kind a value is only by failing to read it as another kind, so the
        // kinds are tried from the most common leaves (a string, a number, a bool). A property
        // list's date or data comes last.
        //
        // This frame is on the stack once for every level of a nested value, so what it does not
        // need on the way down is done in functions of their own: a debug build keeps a slot for
        // every local of a function.
        let single = try decoder.singleValueContainer()
        if let value = try Self.leafOrArray(single, at: decoder) {
            self = value
            return
        }
        do {
            // Read as a `[String: …]`, whose keys the coders leave as they are under a key
            // strategy, and written back the same way.
            self = .object(Array(try single.decode([String: UnknownValue].self)))
        } catch let error where Self.isAboutItself(error, depth: decoder.codingPath.count) {
            // Not an object; an error from a value inside one is thrown as it is.
            self = try Self.dateOrData(single, at: decoder)
        }
    }

    /// A string, number, bool, `null` or array, if the value is one.
    private static func leafOrArray(_ single: any SingleValueDecodingContainer, at decoder: any Decoder) throws -> Self?
    {
        if single.decodeNil() {
            return .null
        }
        if let value = try? single.decode(String.self) {
            return .string(value)
        }
        do {
            return number(try single.decode(Double.self), in: single)
        } catch DecodingError.typeMismatch {
            // Not a number.
        } catch {
            // A number no `Double` holds: an integer that JSON5's hexadecimal form spells is kept
            // as the integer. A zero read here is a fraction too small for a `Double` (`1e-400`),
            // which is refused below.
            if let value = try? single.decode(Int64.self), value != 0 {
                return .integer(value)
            }
            if let value = try? single.decode(UInt64.self), value != 0 {
                return .unsigned(value)
            }
        }
        if let value = try? single.decode(Bool.self) {
            return .bool(value)
        }
        // A value nested without limit would cost the coder time for every level and the stack
        // a frame, so kept arrays and objects nest no deeper than versioned parts may.
        let codingPath = decoder.codingPath
        if codingPath.count > maximumVersionedPartDepth {
            throw cannotKeep(
                codingPath,
                because: "it nests more than \(maximumVersionedPartDepth) keys and indexes deep in the document"
            )
        }
        guard var array = try? decoder.unkeyedContainer() else {
            return nil
        }
        var elements: [UnknownValue] = []
        elements.reserveCapacity(array.count ?? 0)
        while !array.isAtEnd {
            elements.append(try array.decode(UnknownValue.self))
        }
        return .array(elements)
    }

    /// A number, kept as a plain field of the matching Swift type keeps it: an integer type's
    /// where one holds it, a `Double`'s where it writes the number back as it came, and
    /// otherwise a `Decimal`'s, where the coder reads one (JSONDecoder gives a number's digits as
    /// a `Decimal`, as many as its 128 bits hold, within its exponents, as it gives them to a
    /// `Decimal` field), or else the `Double` the coder read. Reading never refuses a number
    /// that a `Double` field reads.
    private static func number(_ double: Double, in single: any SingleValueDecodingContainer) -> Self {
        let whole = double.rounded() == double
        guard let decimal = try? single.decode(Decimal.self) else {
            // A property list's number, or a JSON number beyond a `Decimal`'s exponents.
            if whole, double >= -0x1p63, double < 0x1p63, let value = try? single.decode(Int64.self) {
                return .integer(value)
            }
            if whole, double >= 0x1p63, let value = try? single.decode(UInt64.self) {
                return .unsigned(value)
            }
            return .double(double)
        }
        if decimal.exponent >= 0 {
            // A whole number, which the integer types hold exactly where it fits them ("1.0"
            // too, which reads as 1, and "1e5"); below 2⁵³ the `Double` holds it exactly already.
            // An integer is read only to be compared: JSONDecoder reads the integer part of a
            // fraction as an integer.
            if double.magnitude < 0x1p53 {
                return .integer(Int64(double))
            }
            if double >= -0x1p63, double < 0x1p63, let value = try? single.decode(Int64.self), Decimal(value) == decimal
            {
                return .integer(value)
            }
            if double >= 0x1p63, let value = try? single.decode(UInt64.self), Decimal(value) == decimal {
                return .unsigned(value)
            }
            return .decimal(decimal)
        }
        // A fraction that the `Double` writes back as the same number, or else its digits. A
        // `Double` of the normal range tells apart every number of 15 digits or fewer, so it
        // writes such a number back as it came.
        if double.isNormal, decimal.significand < sixteenDigits {
            return .double(double)
        }
        return Decimal(string: "\(double)") == decimal ? .double(double) : .decimal(decimal)
    }

    /// A property list's date or data.
    private static func dateOrData(_ single: any SingleValueDecodingContainer, at decoder: any Decoder) throws -> Self {
        if let value = try? single.decode(Date.self) {
            return .date(value)
        }
        if let value = try? single.decode(Data.self) {
            return .data(value)
        }
        throw cannotKeep(decoder.codingPath, because: "no Swift number or other kind of value holds it")
    }

    /// The error for a kept value that cannot be written back as it came, naming its field.
    private static func cannotKeep(_ codingPath: [any CodingKey], because reason: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "\(describePath(codingPath)), a field this build does not know, holds a value it "
                    + "cannot keep to write back as it came: \(reason)."
            )
        )
    }

    /// Whether `error` is about the value at `depth` itself, such as a coder's word that it is not
    /// of the kind asked for, rather than about a value inside it.
    private static func isAboutItself(_ error: any Error, depth: Int) -> Bool {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.count == depth
        default: false
        }
    }

    /// The least number of 16 digits.
    private static let sixteenDigits = Decimal(sign: .plus, exponent: 15, significand: 1)

    @usableFromInline
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(element)
            }
        case .object(let fields):
            // As a `[String: …]`, whose keys the coders write as they are under a key strategy.
            var container = encoder.singleValueContainer()
            try container.encode(Dictionary(uniqueKeysWithValues: fields))
        default:
            try encodeLeaf(to: encoder)
        }
    }

    /// Writes a value that holds no other, through the container's own method for its kind,
    /// the coder's fast path.
    private func encodeLeaf(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .decimal(let value):
            // The property-list coders write a `Decimal` in its keyed form, a dictionary, which
            // no number field reads, so they get the nearest `Double`, the number a field of
            // theirs holds. JSONEncoder, Yams and XMLCoder write its digits.
            if EncoderProbe.foundationTypes.propertyList.contains(ObjectIdentifier(type(of: encoder))) {
                try container.encode(Double("\(value)") ?? .nan)
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .array, .object: break
        }
    }
}
