import VersionedCodable
import XMLCoder

// XMLCoder asks the type of each value it boxes whether a key is an attribute or an element.
// `Versioned` hands the value's encoder straight to the value, so without these conformances a
// value's own answers would be lost wherever it is wrapped: at the root of every versioned
// document and in every `Versioned` property.

extension Versioned: @retroactive DynamicNodeEncoding where Value: DynamicNodeEncoding {
    /// The value's own answer, so that a wrapped value keeps its attributes.
    ///
    /// - Parameter key: The key being written.
    /// - Returns: What `Value` answers for `key`.
    public static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding {
        Value.nodeEncoding(for: key)
    }
}

extension Versioned: @retroactive DynamicNodeDecoding where Value: DynamicNodeDecoding {
    /// The value's own answer, so that a wrapped value reads its attributes.
    ///
    /// - Parameter key: The key being read.
    /// - Returns: What `Value` answers for `key`.
    public static func nodeDecoding(for key: any CodingKey) -> XMLDecoder.NodeDecoding {
        Value.nodeDecoding(for: key)
    }
}
