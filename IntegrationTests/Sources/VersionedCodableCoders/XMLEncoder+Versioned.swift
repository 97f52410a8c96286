import Foundation
import VersionedCodable
import XMLCoder

extension XMLEncoder {
    /// Encodes a value as XML with its current version.
    ///
    /// The version is written as an element at the path of the type's `VersionSpec`, after the
    /// type's own elements. At the root (the default spec) it joins the type's elements.
    /// XMLCoder cannot merge it into a nested element the type also writes (such as
    /// `_metadata`): it writes a second element of that name, which reads back without the
    /// version. So a nested version path is read back after writing, and encoding throws
    /// ``CoderMergeError/versionNotReadable(coder:expected:found:)`` instead of returning a
    /// document that would decode as the wrong version.
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
    ///   goes, ``CoderMergeError`` when the version could not be merged, and whatever the
    ///   value's own encoding throws.
    public func encode<Value: VersionedCodable>(
        versioned value: Value,
        withRootKey rootKey: String? = nil,
        rootAttributes: [String: String]? = nil,
        header: XMLHeader? = nil
    ) throws -> Data {
        let rootKey = rootKey ?? String(describing: Value.self)
        let xml = try value.encodeTransparently { encodable in
            try self.encode(encodable, withRootKey: rootKey, rootAttributes: rootAttributes, header: header)
        }
        if try versionPathIsNested(Value.VersionSpec.self) {
            try checkVersionReadsBack(Value.self, from: xml)
        }
        return xml
    }

    private func versionPathIsNested<Spec: VersionPathSpec>(_ spec: Spec.Type) throws -> Bool {
        let specXML = try encode(Spec(withVersion: 1), withRootKey: "spec")
        // A root-level spec is one element holding text: <spec><version>1</version></spec>.
        // Anything deeper nests a second element before the text.
        let text = String(decoding: specXML, as: UTF8.self)
        return text.components(separatedBy: "<").count > 5
    }

    private func checkVersionReadsBack<Value: VersionedCodable>(_ type: Value.Type, from xml: Data) throws {
        guard case .useDefaultKeys = keyEncodingStrategy else {
            throw CoderMergeError.cannotCheckRenamedKeys(coder: "XMLEncoder")
        }
        let found = try XMLDecoder().decode(Value.VersionSpec.self, from: xml)[
            keyPath: Value.VersionSpec.keyPathToVersion
        ]
        guard found == Value.version else {
            throw CoderMergeError.versionNotReadable(
                coder: "XMLEncoder",
                expected: Value.version,
                found: found
            )
        }
    }
}
