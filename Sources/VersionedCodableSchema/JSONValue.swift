import Foundation

/// A JSON value: what a schema's `enum` and `const` hold, and what the validator reads a document
/// into.
///
/// Numbers are kept as `Decimal`, so that the bounds of `Int64` and `UInt64` are exact. Read a
/// document into one with `JSONDecoder`, as ``JSONSchema/violations(in:)`` does.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Decimal)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// The name of the value's JSON type, as a schema's `type` spells it (`integer` for a whole
    /// number).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.isWholeNumber ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: Codable {
    /// Reads any JSON value.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` for a value that is none of JSON's kinds.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: JSONValueKey.self) {
            var object: [String: JSONValue] = [:]
            for key in container.allKeys {
                object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
        } else if var container = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !container.isAtEnd {
                array.append(try container.decode(JSONValue.self))
            }
            self = .array(array)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else {
                self = .number(try container.decode(Decimal.self))
            }
        }
    }

    /// Writes the value as JSON.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            var container = encoder.container(keyedBy: JSONValueKey.self)
            for (key, value) in object {
                try container.encode(value, forKey: JSONValueKey(key))
            }
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for value in array {
                try container.encode(value)
            }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .number(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON with sorted keys, as messages quote it.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let bool): String(bool)
        case .number(let number): "\(number)"
        case .string(let string): "\"\(string)\""
        case .array(let array): "[" + array.map(\.description).joined(separator: ",") + "]"
        case .object(let object):
            "{" + object.keys.sorted().map { "\"\($0)\":\(object[$0]!)" }.joined(separator: ",") + "}"
        }
    }
}

/// Any string as a coding key, for the objects of schemas and documents.
struct JSONValueKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) {
        stringValue = string
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
    }
}

extension Decimal {
    /// Whether the number has no fractional part.
    var isWholeNumber: Bool {
        var value = self
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded == self
    }
}
