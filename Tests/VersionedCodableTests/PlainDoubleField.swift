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
