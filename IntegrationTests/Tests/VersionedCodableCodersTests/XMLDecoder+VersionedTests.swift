import Foundation
import Testing
import VersionedCodable
import VersionedCodableCoders
import XMLCoder

@Suite("XMLDecoder versioned decoding")
struct XMLDecoderVersionedTests {
    @Test("The version is read as an Int from an element's text, surrounding spaces and all")
    func versionFromElementText() throws {
        let xml =
            "<poem><version> 2 </version><author>Cy</author><lines>a</lines><rating>love</rating></poem>"
        let read = try XMLDecoder().decodeWithStoredVersion(CoderPoem.self, from: Data(xml.utf8))
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == CoderPoem(author: .init(name: "Cy"), lines: ["a"], rating: .love))
    }

    @Test("The version is read as an Int from an attribute of the root element")
    func versionFromAttribute() throws {
        let xml = #"<poem version="1"><author>Bo</author><lines>a</lines></poem>"#
        let read = try XMLDecoder().decodeWithStoredVersion(CoderPoem.self, from: Data(xml.utf8))
        #expect(read.storedVersion == 1)
    }

    @Test("A version that is not a whole number is a DecodingError", arguments: ["two", "2.5", ""])
    func nonIntegerVersionIsRejected(version: String) {
        let xml =
            "<poem><version>\(version)</version><author>Cy</author><lines>a</lines><rating>love</rating></poem>"
        #expect(throws: DecodingError.self) {
            try XMLDecoder().decode(versioned: CoderPoem.self, from: Data(xml.utf8))
        }
    }

    @Test("A version the chain does not know is a VersionedDecodingError")
    func unknownVersion() {
        let xml = "<poem><version>9</version><author>Cy</author></poem>"
        #expect(throws: VersionedDecodingError.self) {
            try XMLDecoder().decode(versioned: CoderPoem.self, from: Data(xml.utf8))
        }
    }
}
