import Foundation

/// A value of a field that an older build did not read, kept as the coder read it so that it
/// is written back as it came: JSON's and property lists' kinds of value.
///
/// Not `indirect`: a kept array or object already holds its values in its own storage, so a box
/// around each value would only cost an allocation and its memory.
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

    init(from decoder: any Decoder) throws {
        // A coder tells what kind a value is only by failing to read it as another kind, and each
        // failure costs it a thrown error, so the kinds are tried from the most common leaves (a
        // string, a number, a bool), whose reading costs most when it misses; an array's or an
        // object's values pay for its misses. A property list's date or data comes last.
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode(Double.self) {
            self = try Self.number(value, in: single, at: decoder)
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else {
            // A value nested without limit would cost the coder time for every level and the
            // stack a frame, so kept values nest no deeper than versioned parts may.
            let codingPath = decoder.codingPath
            if codingPath.count > maximumVersionedPartDepth {
                throw Self.cannotKeep(
                    codingPath,
                    because: "it nests more than \(maximumVersionedPartDepth) keys and indexes deep in the document"
                )
            }
            if var array = try? decoder.unkeyedContainer() {
                var elements: [UnknownValue] = []
                while !array.isAtEnd {
                    elements.append(try array.decode(UnknownValue.self))
                }
                self = .array(elements)
                return
            }
            do {
                // Read as a `[String: …]`, whose keys the coders leave as they are under a key
                // strategy, and written back the same way.
                self = .object(Array(try single.decode([String: UnknownValue].self)))
            } catch let error as DecodingError where Self.isAboutItself(error, depth: codingPath.count) {
                // Not an object; an error from a value inside one is thrown as it is.
                if let value = try? single.decode(Date.self) {
                    self = .date(value)
                } else if let value = try? single.decode(Data.self) {
                    self = .data(value)
                } else {
                    throw Self.cannotKeep(codingPath, because: "no Swift number or other kind of value holds it")
                }
            }
        }
    }

    /// A number, kept as the kind that holds it exactly: JSONDecoder gives the digits of a number
    /// as a `Decimal`, to 38 of them; a property list holds integers and doubles only, and gives
    /// no `Decimal`.
    private static func number(
        _ double: Double,
        in single: any SingleValueDecodingContainer,
        at decoder: any Decoder
    ) throws -> UnknownValue {
        guard let decimal = try? single.decode(Decimal.self) else {
            // A property list's number, or a JSON number beyond `Decimal`'s exponents.
            if double.rounded() == double, double.magnitude < 0x1p63, let whole = try? single.decode(Int64.self) {
                return .integer(whole)
            }
            if double.rounded() == double, double >= 0x1p63, let whole = try? single.decode(UInt64.self) {
                return .unsigned(whole)
            }
            return .double(double)
        }
        // The coder keeps at most 38 or 39 digits and drops the rest, so a number that fills
        // them may have lost some.
        if decimal.significand >= Self.fullDigits {
            throw cannotKeep(
                decoder.codingPath,
                because: "it has 38 digits or more, and JSONDecoder reads no more than 38 or 39"
            )
        }
        if decimal.exponent >= 0 {
            // A whole number, which the integer kinds hold exactly where it fits them ("1.0" too,
            // which reads as 1, and "1e5").
            if double.magnitude < 0x1p63, let whole = try? single.decode(Int64.self), Decimal(whole) == decimal {
                return .integer(whole)
            }
            if double >= 0x1p63, let whole = try? single.decode(UInt64.self), Decimal(whole) == decimal {
                return .unsigned(whole)
            }
            return .decimal(decimal)
        }
        // A fraction that the `Double` writes back as the same number, or else its digits.
        return Decimal(string: "\(double)") == decimal ? .double(double) : .decimal(decimal)
    }

    /// Whether `error` is about the value at `depth` itself, such as a coder's word that it is not
    /// of the kind asked for, rather than about a value inside it.
    private static func isAboutItself(_ error: DecodingError, depth: Int) -> Bool {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.count == depth
        case .keyNotFound: false
        @unknown default: false
        }
    }

    /// The least number with 38 digits.
    private static let fullDigits = Decimal(sign: .plus, exponent: 37, significand: 1)

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

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let fields):
            try encodeSingle(Dictionary(uniqueKeysWithValues: fields), to: encoder)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(element)
            }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value): try encodeSingle(value, to: encoder)
        case .integer(let value): try encodeSingle(value, to: encoder)
        case .unsigned(let value): try encodeSingle(value, to: encoder)
        case .double(let value): try encodeSingle(value, to: encoder)
        case .decimal(let value): try encodeSingle(value, to: encoder)
        case .string(let value): try encodeSingle(value, to: encoder)
        case .date(let value): try encodeSingle(value, to: encoder)
        case .data(let value): try encodeSingle(value, to: encoder)
        }
    }

    private func encodeSingle(_ value: some Encodable, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
