import Foundation
import Testing

/// The top-level object of a JSON document, to check the keys a document really holds.
func jsonObject(_ data: Data) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A JSON document written by hand, as stored by some earlier version of a program.
func document(_ json: String) -> Data {
    Data(json.utf8)
}
