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
        // Each kind that a value is not costs the coder an error to say so, so the kinds are
        // tried from the most common: a string, a number, a bool, then an object or an array;
        // a property list's date or data last, since JSON has neither.
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode(Int.self) {
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
        } else if let object = try? decoder.container(keyedBy: PathKey.self) {
            var fields: [String: UnknownValue] = [:]
            for key in object.allKeys {
                fields[key.stringValue] = try object.decode(UnknownValue.self, forKey: key)
            }
            self = .object(fields)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [UnknownValue] = []
            while !array.isAtEnd {
                elements.append(try array.decode(UnknownValue.self))
            }
            self = .array(elements)
        } else if let value = try? single.decode(Date.self) {
            self = .date(value)
        } else {
            self = .data(try single.decode(Data.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let fields):
            var container = encoder.container(keyedBy: PathKey.self)
            for (key, value) in fields {
                try container.encode(value, forKey: PathKey(key))
            }
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
