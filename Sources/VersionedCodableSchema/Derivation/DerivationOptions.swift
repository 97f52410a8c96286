import Foundation

/// What a `JSONDecoder` does with keys, dates and data, read once from its public settings so
/// that a derivation never touches the decoder itself.
struct DerivationOptions {
    var keys: JSONDecoder.KeyDecodingStrategy
    var dates: JSONDecoder.DateDecodingStrategy
    var data: JSONDecoder.DataDecodingStrategy
    var floats: JSONDecoder.NonConformingFloatDecodingStrategy
    var userInfo: [CodingUserInfoKey: Any]

    init(_ decoder: JSONDecoder) {
        keys = decoder.keyDecodingStrategy
        dates = decoder.dateDecodingStrategy
        data = decoder.dataDecodingStrategy
        floats = decoder.nonConformingFloatDecodingStrategy
        userInfo = decoder.userInfo
    }

    /// The key a document holds for a coding key, or `nil` with the reason when it cannot be
    /// computed.
    func documentKey(for key: any CodingKey, at path: [any CodingKey]) -> (key: String, problem: String?) {
        let name = key.stringValue
        switch keys {
        case .useDefaultKeys:
            return (name, nil)
        case .convertFromSnakeCase:
            let snake = SnakeCase.fromCamelCase(name)
            guard SnakeCase.toCamelCase(snake) == name else {
                return (name, "no document key becomes `\(name)` under convertFromSnakeCase")
            }
            return (snake, nil)
        case .custom(let convert):
            // The strategy maps document keys to coding keys; it cannot be inverted, but the
            // candidates a document would most likely hold can be tried.
            for candidate in [name, SnakeCase.fromCamelCase(name)] {
                if convert(path + [AnyCodingKey(candidate)]).stringValue == name {
                    return (candidate, nil)
                }
            }
            return (name, "the custom key decoding strategy maps no obvious key to `\(name)`")
        @unknown default:
            return (name, "an unknown key decoding strategy; the key is shown as the type names it")
        }
    }

    /// The schema of a `Date` as the date decoding strategy reads it.
    var dateSchema: JSONSchema {
        var schema: JSONSchema
        switch dates {
        case .deferredToDate:
            schema = JSONSchema(type: "number")
            schema.description = "Date: seconds since 2001-01-01 (deferredToDate)"
        case .secondsSince1970:
            schema = JSONSchema(type: "number")
            schema.description = "Date: seconds since 1970-01-01 (secondsSince1970)"
        case .millisecondsSince1970:
            schema = JSONSchema(type: "number")
            schema.description = "Date: milliseconds since 1970-01-01 (millisecondsSince1970)"
        case .iso8601:
            schema = JSONSchema(type: "string")
            schema.format = "date-time"
            schema.description = "Date: ISO 8601 (iso8601)"
        default:
            schema = JSONSchema()
            schema.description = "Date: \(JSONSchema.incompleteMarker) a formatted or custom date decoding strategy"
        }
        return schema
    }

    /// The schema of a `Double` or a `Float`: a number, or one of the strings the decoder reads
    /// as infinities and NaN.
    var floatSchema: JSONSchema {
        guard case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = floats else {
            return JSONSchema(type: "number")
        }
        var named = JSONSchema(type: "string")
        named.enumValues = [.string(positiveInfinity), .string(negativeInfinity), .string(nan)]
        var schema = JSONSchema()
        schema.anyOf = [JSONSchema(type: "number"), named]
        schema.description = "a number, or a string for infinities and NaN (convertFromString)"
        return schema
    }

    /// The schema of `Data` as the data decoding strategy reads it.
    var dataSchema: JSONSchema {
        switch data {
        case .base64:
            var schema = JSONSchema(type: "string")
            schema.contentEncoding = "base64"
            schema.description = "Data: base64 (base64)"
            return schema
        case .deferredToData:
            var schema = JSONSchema(type: "array")
            var byte = JSONSchema(type: "integer")
            byte.minimum = 0
            byte.maximum = 255
            schema.items = byte
            schema.description = "Data: an array of bytes (deferredToData)"
            return schema
        default:
            var schema = JSONSchema()
            schema.description = "Data: \(JSONSchema.incompleteMarker) a custom data decoding strategy"
            return schema
        }
    }
}

/// The word splitting of `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` and its inverse,
/// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`, as Foundation documents them.
enum SnakeCase {
    static func fromCamelCase(_ key: String) -> String {
        let characters = Array(key)
        guard !characters.isEmpty else { return key }
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLowercase = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLowercase) {
                    result.append("_")
                }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }

    static func toCamelCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        let last = key.lastIndex(where: { $0 != "_" })!
        let core = key[first...last]
        let words = core.split(separator: "_", omittingEmptySubsequences: true)
        guard words.count > 1 else { return key }
        let joined = String(words[0]) + words.dropFirst().map { $0.capitalized }.joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }
}

/// A coding key made from a string, for paths the derivation builds.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
