import Foundation

/// What `JSONEncoder` writes for a plain `Double` field that `JSONDecoder` read from `number`, or
/// `nil` when such a field refuses it: how a kept number that no integer type or `Decimal` holds
/// comes back.
func plainDoubleField(_ number: String) throws -> String? {
    struct Field: Codable { var n: Double }
    guard let field = try? JSONDecoder().decode(Field.self, from: Data(#"{"n":\#(number)}"#.utf8)) else {
        return nil
    }
    let written = String(decoding: try JSONEncoder().encode(field), as: UTF8.self)
    return String(written.dropFirst(#"{"n":"#.count).dropLast())
}

/// What a plain `Double` field and a plain `Decimal` field read at `key` of the JSON `document`,
/// each `nil` where the field refuses it: a kept number written back reads as the number it
/// came as where both are the same.
func plainNumberFields(at key: String, of document: Data) -> (double: Double?, decimal: Decimal?) {
    let decoder = JSONDecoder()
    decoder.userInfo[NumberField<Double>.keyName] = key
    return (
        try? decoder.decode(NumberField<Double>.self, from: document).value,
        try? decoder.decode(NumberField<Decimal>.self, from: document).value
    )
}

/// A number at the key that `userInfo` names.
private struct NumberField<Value: Decodable>: Decodable {
    static var keyName: CodingUserInfoKey { CodingUserInfoKey(rawValue: "numberFieldKey")! }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var value: Value

    init(from decoder: any Decoder) throws {
        let key = Key(stringValue: decoder.userInfo[Self.keyName] as? String ?? "")
        value = try decoder.container(keyedBy: Key.self).decode(Value.self, forKey: key)
    }
}
