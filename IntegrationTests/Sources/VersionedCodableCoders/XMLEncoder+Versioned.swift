import Foundation
import VersionedCodable
import XMLCoder

extension XMLEncoder {
    /// Encodes a value as XML with its current version.
    ///
    /// The version is written as an element at the path of the type's `VersionSpec`, after the
    /// type's own elements, and merged into any element the type writes on that path (such as
    /// `_metadata`).
    ///
    /// XMLCoder names the root element after the type it is handed, which here is the
    /// versioned wrapper, so the root element is named after the value's type unless you give
    /// `rootKey`:
    ///
    /// ```swift
    /// let xml = try XMLEncoder().encode(versioned: poem, withRootKey: "poem")
    /// ```
    ///
    /// A type that conforms to `DynamicNodeEncoding` keeps its attributes, and can put the
    /// version in an attribute of the root element by answering `.attribute` for the `version`
    /// key.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - rootKey: The name of the root element; the name of the value's type when `nil`.
    ///   - rootAttributes: Attributes to add to the root element.
    ///   - header: The XML header to start the document with.
    /// - Returns: The XML document.
    /// - Throws: `VersionedEncodingError` when the type writes its own value where the version
    ///   goes, and whatever the value's own encoding throws.
    public func encode<Value: VersionedCodable>(
        versioned value: Value,
        withRootKey rootKey: String? = nil,
        rootAttributes: [String: String]? = nil,
        header: XMLHeader? = nil
    ) throws -> Data {
        let rootKey = rootKey ?? String(describing: Value.self)
        return try value.encodeTransparently { encodable in
            try self.encode(encodable, withRootKey: rootKey, rootAttributes: rootAttributes, header: header)
        }
    }
}
