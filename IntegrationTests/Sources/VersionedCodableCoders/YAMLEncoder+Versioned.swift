import Foundation
import VersionedCodable
import Yams

extension YAMLEncoder {
    /// Encodes a value as YAML with its current version.
    ///
    /// The version is written at the path of the type's `VersionSpec`, after the type's own
    /// keys and merged into any mapping the type writes there, so a type may keep its own
    /// fields next to the version (for example in `_metadata`).
    ///
    /// ```swift
    /// let yaml = try YAMLEncoder().encode(versioned: poem)
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The YAML document.
    /// - Throws: `VersionedEncodingError` when the type writes its own value where the version
    ///   goes, and whatever the value's own encoding throws.
    public func encode(versioned value: some VersionedCodable) throws -> String {
        let data = try value.encodeTransparently { encodable in
            Data(try self.encode(encodable).utf8)
        }
        // The data was made from a `String` just above, so it is valid UTF-8.
        return String(decoding: data, as: UTF8.self)
    }
}
