import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

@Suite("Bodies as clients build them: parts without version keys, echoes of responses")
struct BodyPartsAndEchoTests {
    let versions: APIVersions

    init() throws {
        versions = try ContactAPI.versions()
    }

    @Test("Parts without a version key are read as the version the API version lists")
    func partsWithoutVersionKeys() throws {
        let body = json(
            #"""
            {"firstName": "Ada", "lastName": "L", "email": "a@example.com", "kind": "person", "labels": [],
             "addresses": [{"street": "1 Main St", "city": "Springfield"}, {"version": 1, "street": "2", "city": "S"}]}
            """#
        )
        let contact = try versions.decode(Contact.self, from: body, at: ContactAPI.middle)
        #expect(contact.addresses.map(\.wrappedValue.street) == ["1 Main St", "2"])
        #expect(contact.addresses.map(\.storedVersion) == [1, 1])
    }

    @Test("A part that carries another version than its API version lists is refused with a 400")
    func partWithAnotherVersion() {
        let body = json(
            #"""
            {"firstName": "Ada", "lastName": "L", "email": "a@example.com", "kind": "person", "labels": [],
             "addresses": [{"version": 2, "street": "1 Main St", "city": "Springfield", "postalCode": "1"}]}
            """#
        )
        #expect {
            try versions.decode(Contact.self, from: body, at: ContactAPI.middle)
        } throws: { error in
            guard let error = error as? APIVersionError, case .undecodableBody = error else { return false }
            return error.httpStatus == 400 && error.description.contains("version 2")
                && error.description.contains("addresses")
        }
    }

    @Test("The echo of a response, with its parts' version keys, merges into the stored value unchanged")
    func echoOfResponse() throws {
        for version in [ContactAPI.oldest, ContactAPI.middle, ContactAPI.newest] {
            let response = try versions.encode(ContactAPI.stored, at: version)
            #expect(
                try versions.merge(Contact.self, from: response, at: version, into: ContactAPI.stored)
                    == ContactAPI.stored
            )
        }
    }

    @Test("A body built from the client's own model, with no version keys anywhere, merges")
    func bodyWithoutAnyVersionKey() throws {
        let body = json(
            #"""
            {"firstName": "Mary Ann", "lastName": "Smith", "email": "new@example.com", "phone": "555-0100",
             "kind": "company", "labels": [{"text": "work"}, {"text": "chess"}],
             "addresses": [{"street": "1 Main St", "city": "Springfield"}, {"street": "2 Side St", "city": "Shelbyville"}]}
            """#
        )
        let merged = try versions.merge(Contact.self, from: body, at: ContactAPI.middle, into: ContactAPI.stored)
        var expected = ContactAPI.stored
        expected.emailAddress = "new@example.com"
        #expect(merged == expected)
    }

    @Test("A field shown lossily and sent back as shown keeps its stored value beside an edit")
    func lossyEcho() throws {
        let versions = try BoardAPI.versions()
        var stored = BoardAPI.stored
        // Joined, "home,,a" splits back as ["home", "a"], which joins as "home,a": what the
        // client sends back is not what the steps make of it.
        stored.tags = ["home", "", "a"]
        let shown = try object(versions.encode(stored, at: BoardAPI.first))
        #expect(shown["tags"] as? String == "home,,a")
        var sent = shown
        sent["title"] = "Month"
        let body = try JSONSerialization.data(withJSONObject: sent)
        let merged = try versions.merge(Board.self, from: body, at: BoardAPI.first, into: stored)
        var expected = stored
        expected.title = "Month"
        #expect(merged == expected)
        // The merge of a value has only the steps' text to compare with, and refuses.
        let edit = try versions.decode(Board.self, from: body, at: BoardAPI.first)
        #expect(throws: APIVersionError.self) { try versions.merge(edit, at: BoardAPI.first, into: stored) }
    }
}

@Suite("Client input in errors is escaped and short")
struct ClientInputInErrorsTests {
    @Test("Version names with control characters, escapes and 10,000 characters")
    func versionNames() throws {
        let versions = try ContactAPI.versions()
        let names = [
            "a\u{0}b", "x\r\nSet-Cookie: a=b", "\u{1B}[31mred", String(repeating: "y", count: 10_000), "\"q\"\\",
        ]
        for name in names {
            do {
                _ = try versions.version(named: name)
                Issue.record("\(name.prefix(20)) was accepted")
            } catch {
                let text = error.description
                #expect(text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }, "\(text)")
                #expect(text.count < 300)
                #expect(error.httpStatus == 400)
            }
        }
        let error = try #require(throws: APIVersionError.self) { try versions.version(named: "x\r\nSet-Cookie: a=b") }
        #expect(error.description.contains(#""x\r\nSet-Cookie: a=b""#))
    }

    @Test("Unknown field names and values quoted by the decoder are escaped too")
    func fieldNames() throws {
        let versions = try ContactAPI.versions()
        let body = json(#"{"name": "A", "email": "a", "bad\r\nkey": 1, "kind\u0000": 2}"#)
        let error = try #require(throws: APIVersionError.self) {
            try versions.decode(Contact.self, from: body, at: ContactAPI.oldest)
        }
        #expect(error.description.contains(#"bad\r\nkey"#))
        #expect(error.description.unicodeScalars.allSatisfy { $0.value >= 0x20 })
        let badValue = json(
            #"{"firstName": "A", "lastName": "B", "email": "a", "kind": "x\r\ny", "labels": [], "addresses": []}"#
        )
        let valueError = try #require(throws: APIVersionError.self) {
            try versions.decode(Contact.self, from: badValue, at: ContactAPI.middle)
        }
        #expect(valueError.description.unicodeScalars.allSatisfy { $0.value >= 0x20 })
    }
}
