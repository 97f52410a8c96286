import Foundation
import Testing
import VersionedCodable
import XMLCoder
import Yams

/// Fields a newer version adds in `_metadata`, beside its version, kept by an older build that
/// stores YAML or XML: those coders build each object when its encoder is released, so the kept
/// fields must be written while the object is still open, with the spec's part and the type's.
@Suite("Kept fields in the spec's object written by YAML and XML encoders")
struct KeptSpecObjectFieldsInOtherFormatsTests {
    /// The newer build's fields, read back as plain values.
    struct Written: Codable, Equatable {
        struct Metadata: Codable, Equatable {
            var version: Int
            var editor: String
            var createdBy: String
        }
        var title: String
        var tag: String
        var _metadata: Metadata
    }

    /// Version 5 added `tag` at the root and `createdBy` in `_metadata`; builds of 4 may write it.
    static let document = Data(
        (#"{"_metadata":{"version":5,"versionReadableFrom":4,"versionWritableFrom":4,"editor":"ann","#
            + #""createdBy":"scanner"},"tag":"pantry","title":"jam"}"#).utf8
    )

    static let edited = Written(
        title: "marmalade",
        tag: "pantry",
        _metadata: .init(version: 5, editor: "bea", createdBy: "scanner")
    )

    @Test("YAMLEncoder writes the kept field in _metadata beside the type's own and the version")
    func yaml() throws {
        var kept = try JSONDecoder().decode(Versioned<CoderEditedNote>.self, from: Self.document)
        kept.wrappedValue.title = "marmalade"
        kept.wrappedValue._metadata.editor = "bea"
        let yaml = try YAMLEncoder().encode(kept)
        #expect(try YAMLDecoder().decode(Written.self, from: yaml) == Self.edited)
    }

    @Test("XMLEncoder writes the kept field in _metadata beside the type's own and the version")
    func xml() throws {
        var kept = try JSONDecoder().decode(Versioned<CoderEditedNote>.self, from: Self.document)
        kept.wrappedValue.title = "marmalade"
        kept.wrappedValue._metadata.editor = "bea"
        let xml = try XMLEncoder().encode(kept, withRootKey: "note")
        #expect(try XMLDecoder().decode(Written.self, from: xml) == Self.edited)
    }
}
