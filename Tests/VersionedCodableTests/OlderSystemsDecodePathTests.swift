import Foundation
import Testing
import VersionedCodable

@testable import PoemHistory

/// Systems before macOS 14 and iOS 17 decode through `Versioned` instead of
/// `DecodableWithConfiguration`; Linux and newer systems never take that path on their own, so
/// these tests run it beside the other on the same documents.
@Suite("The decode path of older systems gives the same results")
struct OlderSystemsDecodePathTests {
    /// The outcome of a decode: the value and its stored version, or the error's words.
    private func outcome<Value: VersionedCodable & Equatable>(
        _ decode: () throws -> Versioned<Value>
    ) -> String {
        do {
            let read = try decode()
            return "\(read.wrappedValue) stored as \(String(describing: read.storedVersion))"
        } catch {
            return "threw \(error)"
        }
    }

    /// Documents of every kind a decode meets: each stored version, one newer than the chain,
    /// one newer that older builds may read, malformed ones.
    private static let documents: [String] = [
        #"{"version": 9, "title": "x"}"#,
        #"{"version": "2"}"#,
        #"{"version": 2.5, "author": "a"}"#,
        "{",
        "[]",
        #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","done":true,"x":1}"#,
        #"{"version": 2, "name": "n", "done": false}"#,
        #"{"version": 1, "title": "t"}"#,
    ]

    @Test("Every Poem fixture, in every format, decodes to the same value on both paths")
    func poemFixtures() throws {
        let names = try FixtureFiles.names("Poem")
        #expect(!names.isEmpty)
        for name in names {
            let data = try FixtureFiles.data("Poem", name)
            if name.hasSuffix(".json") {
                let decoder = JSONDecoder()
                #expect(
                    outcome { try decoder.decodeWithStoredVersion(Poem.self, from: data) }
                        == outcome { try decoder.decodeWithStoredVersionThroughVersioned(Poem.self, from: data) },
                    "\(name)"
                )
            } else {
                let decoder = PropertyListDecoder()
                #expect(
                    outcome { try decoder.decodeWithStoredVersion(Poem.self, from: data) }
                        == outcome { try decoder.decodeWithStoredVersionThroughVersioned(Poem.self, from: data) },
                    "\(name)"
                )
            }
        }
    }

    @Test("Newer, compatible, malformed and older documents: the same value or the same error")
    func otherDocuments() throws {
        let decoder = JSONDecoder()
        for document in Self.documents {
            let data = Data(document.utf8)
            #expect(
                outcome { try decoder.decodeWithStoredVersion(ChoreV2.self, from: data) }
                    == outcome { try decoder.decodeWithStoredVersionThroughVersioned(ChoreV2.self, from: data) },
                "\(document)"
            )
            #expect(
                outcome { try decoder.decodeWithStoredVersion(Poem.self, from: data) }
                    == outcome { try decoder.decodeWithStoredVersionThroughVersioned(Poem.self, from: data) },
                "\(document)"
            )
            let plist = try? PropertyListSerialization.data(
                fromPropertyList: JSONSerialization.jsonObject(with: data),
                format: .binary,
                options: 0
            )
            if let plist {
                let plistDecoder = PropertyListDecoder()
                #expect(
                    outcome { try plistDecoder.decodeWithStoredVersion(ChoreV2.self, from: plist) }
                        == outcome {
                            try plistDecoder.decodeWithStoredVersionThroughVersioned(ChoreV2.self, from: plist)
                        },
                    "\(document) as a property list"
                )
            }
        }
    }
}
