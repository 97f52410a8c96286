import Foundation

/// A value of a field that an older build did not read, kept as the coder read it so that it
/// is written back as it came: JSON's and property lists' kinds of value.
indirect enum UnknownValue: Codable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case date(Date)
    case data(Data)
    case array([UnknownValue])
    case object([String: UnknownValue])

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: PathKey.self) {
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
        } else {
            self = try Self.single(decoder.singleValueContainer())
        }
    }

    /// The first kind the value reads as, most exact first: a property list's date is no
    /// number, and a JSON number is no date.
    private static func single(_ container: any SingleValueDecodingContainer) throws -> UnknownValue {
        if container.decodeNil() { return .null }
        if let value = try? container.decode(Bool.self) { return .bool(value) }
        if let value = try? container.decode(Int.self) { return .integer(value) }
        if let value = try? container.decode(UInt64.self) { return .unsigned(value) }
        if let value = try? container.decode(Double.self) { return .double(value) }
        if let value = try? container.decode(String.self) { return .string(value) }
        if let value = try? container.decode(Date.self) { return .date(value) }
        return .data(try container.decode(Data.self))
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
