import Foundation
import VersionedCodable
import Yams

extension YAMLEncoder {
    // snippet: yaml-encoder
    /// Encodes a value as YAML with its current version.
    ///
    /// The version is written at the path of the type's `VersionSpec`, after the type's own
    /// keys, and merged into any mapping the type writes on that path (such as `_metadata`).
    ///
    /// ```swift
    /// let yaml = try YAMLEncoder().encode(versioned: poem)
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The YAML document.
    /// - Throws: `VersionedEncodingError` when the type writes its own value where the version
    ///   goes (unwrapped from the `EncodingError` that Yams puts around it), and whatever the
    ///   value's own encoding throws.
    public func encode<Value: VersionedCodable>(versioned value: Value) throws -> String {
        let data = try value.encodeTransparently { encodable in
            Data(try self.encode(encodable).utf8)
        }
        // The data was made from a `String` just above, so it is valid UTF-8.
        return String(decoding: data, as: UTF8.self)
    }
    // end snippet
}
