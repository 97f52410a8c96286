import Foundation

/// A value of a field that an older build did not read, kept as the coder read it so that it
/// is written back as it came: JSON's and property lists' kinds of value.
indirect enum UnknownValue: Codable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case unsigned(UInt64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case array([UnknownValue])
    case object([String: UnknownValue])

    init(from decoder: any Decoder) throws {
        try self.init(from: decoder, nested: false)
    }

    /// Reads a kept value; one `nested` in another kept value checks its depth first if it is
    /// an object or an array.
    private init(from decoder: any Decoder, nested: Bool) throws {
        // Each kind that a value is not costs the coder an error to say so, so the kinds are
        // tried from the most common: a string, a number, a bool, then an object or an array;
        // a property list's date or data last, since JSON has neither.
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode(Int.self),
            (try? single.decode(Decimal.self)).map({ $0.exponent >= 0 }) ?? true
        {
            // An integer, unless the coder rounded a fraction to make one (JSON's
            // 9007199254740993.5), which the `Decimal` shows.
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            // A whole number above `Int.max` is kept exactly where it fits `UInt64`; the
            // `Double` holds it only approximately.
            if value >= 0x1p63, let whole = try? single.decode(UInt64.self) {
                self = .unsigned(whole)
            } else if let exact = try? single.decode(Decimal.self), Decimal(string: "\(value)") != exact {
                // A JSON number with more digits than a `Double` holds is kept as written.
                self = .decimal(exact)
            } else {
                self = .double(value)
            }
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if (try? decoder.container(keyedBy: PathKey.self)) != nil {
            // Read as a `[String: …]`, whose keys the coders leave as they are under a key
            // strategy, and written back the same way.
            if nested { try Self.checkDepth(of: decoder) }
            self = .object(try single.decode([String: Nested].self).mapValues(\.value))
        } else if var array = try? decoder.unkeyedContainer() {
            if nested { try Self.checkDepth(of: decoder) }
            var elements: [UnknownValue] = []
            while !array.isAtEnd {
                elements.append(try array.decode(Nested.self).value)
            }
            self = .array(elements)
        } else if let value = try? single.decode(Date.self) {
            self = .date(value)
        } else if let value = try? single.decode(Data.self) {
            self = .data(value)
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "A field this build does not know holds a value it cannot keep to write back: "
                        + "a number beyond Int64, UInt64 and Double, or a kind of value the coder does not name."
                )
            )
        }
    }

    /// Kept values nest no deeper in the document than versioned parts may: a value nested
    /// without limit would cost the coder time for every level, and the stack a frame.
    private static func checkDepth(of decoder: any Decoder) throws {
        let codingPath = decoder.codingPath
        if codingPath.count > maximumVersionedPartDepth {
            let description =
                "A field this build does not know nests more than \(maximumVersionedPartDepth) keys and indexes "
                + "deep in the document, counted from its root: it is not kept to be written back."
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: description)
            )
        }
    }

    /// A value inside a kept object or array.
    private struct Nested: Decodable {
        let value: UnknownValue
        init(from decoder: any Decoder) throws { value = try UnknownValue(from: decoder, nested: true) }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let fields):
            try encodeSingle(fields, to: encoder)
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
