import Foundation
import Testing
import VersionedCodable
import VersionedCodableCoders
import XMLCoder

@Suite("Versioned keeps a value's XML attributes")
struct VersionedDynamicNodeEncodingTests {
    /// Writes `id` and the version as attributes of its element, the rest as elements.
    struct CoderTaggedNote: VersionedCodable, Equatable, DynamicNodeEncoding, DynamicNodeDecoding {
        static let version: Int? = 5
        typealias PreviousVersion = NothingEarlier
        var id: String
        var title: String

        static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding {
            ["id", "version"].contains(key.stringValue) ? .attribute : .element
        }

        static func nodeDecoding(for key: any CodingKey) -> XMLDecoder.NodeDecoding {
            ["id", "version"].contains(key.stringValue) ? .attribute : .element
        }
    }

    @Test("At the root, the value's attributes and the version are attributes")
    func rootAttributes() throws {
        let note = CoderTaggedNote(id: "n1", title: "Hello")
        let xml = String(
            decoding: try XMLEncoder().encode(versioned: note, withRootKey: "note"),
            as: UTF8.self
        )
        #expect(xml.hasPrefix("<note "))
        #expect(xml.contains(#"id="n1""#))
        #expect(xml.contains(#"version="5""#))
        #expect(xml.contains("<title>Hello</title>"))
        let read = try XMLDecoder().decodeWithStoredVersion(CoderTaggedNote.self, from: Data(xml.utf8))
        #expect(read.wrappedValue == note)
        #expect(read.storedVersion == 5)
    }

    @Test("As a Versioned property of a plain document, the value's attributes stay attributes")
    func propertyAttributes() throws {
        struct Board: Codable, Equatable {
            var pinned: Versioned<CoderTaggedNote>
        }
        let board = Board(pinned: Versioned(CoderTaggedNote(id: "n2", title: "Pinned")))
        let xml = String(decoding: try XMLEncoder().encode(board, withRootKey: "board"), as: UTF8.self)
        #expect(
            xml.contains(#"<pinned id="n2" version="5">"#) || xml.contains(#"<pinned version="5" id="n2">"#)
        )
        #expect(try XMLDecoder().decode(Board.self, from: Data(xml.utf8)) == board)
    }
}
