import Foundation
import Testing
import VersionedCodable
import VersionedCodableCoders
import Yams

@Suite("YAMLDecoder versioned decoding")
struct YAMLDecoderVersionedTests {
    @Test("A document in a string decodes like the same document as data")
    func stringAndDataAgree() throws {
        let yaml = "version: 2\nauthor: Cy\nlines: [a]\nrating: love\n"
        let fromString = try YAMLDecoder().decode(versioned: CoderPoem.self, from: yaml)
        let fromData = try YAMLDecoder().decode(versioned: CoderPoem.self, from: Data(yaml.utf8))
        #expect(fromString == fromData)
        #expect(fromString == CoderPoem(author: .init(name: "Cy"), lines: ["a"], rating: .love))
    }

    @Test("A version written as a quoted string is a type mismatch, not a guess")
    func quotedVersionIsRejected() {
        let yaml = "version: 'two'\nauthor: Cy\nlines: [a]\nrating: love\n"
        #expect(throws: DecodingError.self) {
            try YAMLDecoder().decode(versioned: CoderPoem.self, from: yaml)
        }
    }

    @Test("A version the chain does not know is reported with the versions it supports")
    func unknownVersionIsReported() throws {
        let yaml = "version: 9\nauthor: Cy\n"
        let error = try #require(throws: VersionedDecodingError.self) {
            try YAMLDecoder().decode(versioned: CoderPoem.self, from: yaml)
        }
        #expect("\(error)".contains("9"))
    }

    @Test("A migration step's error reaches the caller unchanged")
    func migrationErrorPassesThrough() {
        let yaml = "version: 2\nauthor: Cy\nlines: [a]\nrating: sublime\n"
        #expect {
            try YAMLDecoder().decode(versioned: CoderPoem.self, from: yaml)
        } throws: { error in
            guard case VersionedDecodingError.fieldNoLongerValid(let context) = error else {
                return false
            }
            return context.debugDescription.contains("sublime")
        }
    }
}
