import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

func json(_ text: String) -> Data { Data(text.utf8) }

func object(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite("Naming an API version")
struct VersionLookupTests {
    let versions: APIVersions

    init() throws {
        versions = try ContactAPI.versions()
    }

    @Test("A request that names no version gets the default; spaces around a name are ignored")
    func defaultAndSpaces() throws {
        #expect(try versions.version(named: nil).name == "2025-09-01")
        #expect(try versions.version(named: "  ").name == "2025-09-01")
        #expect(try versions.version(named: " 2025-01-01 ") == ContactAPI.oldest)
        #expect(try versions.version(named: "2025-01-01").version(of: Contact.self) == 1)
    }

    @Test("An unknown version and a malformed one: 400s naming the versions served")
    func unknownAndMalformed() throws {
        for (name, malformed) in [("2024-12-31", false), ("2025-13-01", true), ("latest", true), ("3", true)] {
            #expect {
                try versions.version(named: name)
            } throws: { error in
                let error = error as! APIVersionError
                let text = error.description
                switch error {
                case .unknownVersion(let sent, let served), .malformedVersion(let sent, let served):
                    let isMalformed = if case .malformedVersion = error { true } else { false }
                    return sent == name && served == ["2025-01-01", "2025-09-01", "2026-06-01"]
                        && isMalformed == malformed && error.httpStatus == 400
                        && text.contains("2025-01-01, 2025-09-01, 2026-06-01")
                default:
                    return false
                }
            }
        }
        let numbered = try APIVersions([1, 2, 3], defaultVersion: 3)
        #expect(throws: APIVersionError.self) { try numbered.version(named: "4") }
        #expect {
            try numbered.version(named: "two")
        } throws: { error in
            if case .malformedVersion("two", served: ["1", "2", "3"]) = error as! APIVersionError { return true }
            return false
        }
    }

    @Test("A declaration a service cannot serve is refused when it is made")
    func invalidDeclarations() throws {
        let cases: [([APIVersion], APIVersion, String)] = [
            ([], 1, "empty"),
            ([1, 1], 1, "listed twice"),
            ([1, 2], 3, "default version 3"),
            ([APIVersion("one two")], "one two", "spaces"),
            ([APIVersion(1).showing(Contact.self, asVersion: 7)], 1, "not in its chain"),
            (
                [APIVersion(1).showing(Contact.self, asVersion: 2), APIVersion(2).showing(Contact.self, asVersion: 1)],
                1, "older than version 2"
            ),
            ([APIVersion(1), APIVersion(2).showing(Contact.self, asVersion: 2)], 1, "older than version 3"),
        ]
        for (list, defaultVersion, reason) in cases {
            #expect {
                try APIVersions(list, defaultVersion: defaultVersion)
            } throws: { error in
                guard case .invalidDeclaration(let message) = error as! APIVersionError else { return false }
                return message.contains(reason)
            }
        }
    }
}

@Suite("Requests up, responses down")
struct RequestResponseTests {
    let versions: APIVersions

    init() throws {
        versions = try ContactAPI.versions()
    }

    @Test("A body without a version key is read as the version its API version shows")
    func bodyWithoutVersion() throws {
        let contact = try versions.decode(
            Contact.self,
            from: json(#"{"name": "Ada Lovelace", "email": "ada@example.com"}"#),
            at: ContactAPI.oldest
        )
        #expect(contact == Contact(firstName: "Ada", lastName: "Lovelace", emailAddress: "ada@example.com"))
    }

    @Test("A body with its version key: the one its API version shows, or an error")
    func bodyWithVersion() throws {
        let body = json(#"{"version": 1, "name": "Ada Lovelace", "email": "ada@example.com"}"#)
        #expect(try versions.decode(Contact.self, from: body, at: ContactAPI.oldest).firstName == "Ada")
        #expect {
            try versions.decode(Contact.self, from: body, at: ContactAPI.middle)
        } throws: { error in
            guard case .bodyVersionMismatch("Contact", "2025-09-01", expected: 2, found: 1) = error as! APIVersionError
            else { return false }
            return (error as! APIVersionError).httpStatus == 400
        }
    }

    @Test("A body that is not of its version: an error naming the type and the API version")
    func undecodableBody() throws {
        for body in [#"{"name": "Ada"}"#, #"{"name": 5, "email": "a"}"#, "not json", #"{"version": "x"}"#] {
            #expect {
                try versions.decode(Contact.self, from: json(body), at: ContactAPI.oldest)
            } throws: { error in
                guard case .undecodableBody("Contact", "2025-01-01", _) = error as! APIVersionError else {
                    return false
                }
                return (error as! APIVersionError).description.contains("not a Contact of API version 2025-01-01")
            }
        }
    }

    @Test("Fields a version does not have: refused by default, with their paths; ignored when chosen")
    func unknownFields() throws {
        let body = json(
            #"""
            {"firstName": "Ada", "lastName": "L", "email": "a@example.com", "kind": "person", "labels": [{"text": "x", "color": "red"}],
             "addresses": [{"version": 1, "street": "s", "city": "c", "postalCode": "1"}], "favorite": true, "phone": null}
            """#
        )
        #expect {
            try versions.decode(Contact.self, from: body, at: ContactAPI.middle)
        } throws: { error in
            guard case .unknownFields(let paths, "Contact", "2025-09-01") = error as! APIVersionError else {
                return false
            }
            return paths == ["labels[0].color", "addresses[0].postalCode", "favorite"]
        }
        let lenient = try ContactAPI.versions(unknownFields: .ignore)
        let read = try lenient.decode(Contact.self, from: body, at: ContactAPI.middle)
        #expect(read.favorite == false && read.labels == [.init(text: "x", color: nil)])
        #expect(read.addresses.map(\.wrappedValue.postalCode) == [""])
    }

    @Test("A response is the value and its parts as the API version shows them")
    func responses() throws {
        let stored = ContactAPI.stored
        let oldest = try object(versions.encode(stored, at: ContactAPI.oldest))
        #expect(oldest["version"] as? Int == 1)
        #expect(oldest["name"] as? String == "Mary Ann Smith")
        #expect(Set(oldest.keys) == ["version", "name", "email", "phone"])
        let middle = try object(versions.encode(stored, at: ContactAPI.middle))
        #expect(middle["kind"] as? String == "company")
        let addresses = try #require(middle["addresses"] as? [[String: Any]])
        #expect(addresses.map { $0["version"] as? Int } == [1, 1])
        #expect(addresses.allSatisfy { $0["postalCode"] == nil })
        let newest = try object(versions.encode(stored, at: ContactAPI.newest))
        #expect(newest["version"] as? Int == 3 && newest["kind"] as? String == "team")
        #expect((newest["addresses"] as? [[String: Any]])?.map { $0["postalCode"] as? String } == ["11111", "22222"])
    }

    @Test("Responses without the root's version key, when the service chooses; parts keep theirs")
    func responsesWithoutVersionKey() throws {
        let bare = try ContactAPI.versions(versionKeyInResponses: false)
        let middle = try object(bare.encode(ContactAPI.stored, at: ContactAPI.middle))
        #expect(middle["version"] == nil && middle["email"] as? String == "mary@example.com")
        #expect((middle["addresses"] as? [[String: Any]])?.map { $0["version"] as? Int } == [1, 1])
        // And such a response, sent back, reads as the same value.
        let again = try bare.decode(
            Contact.self,
            from: bare.encode(ContactAPI.stored, at: ContactAPI.middle),
            at: ContactAPI.middle
        )
        #expect(again.emailAddress == ContactAPI.stored.emailAddress)
    }

    @Test("A value that cannot be written at a version: an error naming the type and the version")
    func cannotWrite() throws {
        let badges = try APIVersions([APIVersion(1).showing(Badge.self, asVersion: 1), 2], defaultVersion: 2)
        for bare in [false, true] {
            let versions =
                bare ? try APIVersions(badges.versions, defaultVersion: 2, versionKeyInResponses: false) : badges
            #expect {
                try versions.encode(Badge(label: "gold", level: 2), at: 1)
            } throws: { error in
                guard case .cannotWrite("Badge", "1", let underlying) = error as! APIVersionError else { return false }
                return "\(underlying)".contains("Badge")
                    && (error as! APIVersionError).description.contains("API version 1")
            }
        }
        #expect(try object(badges.encode(Badge(label: "gold", level: 2), at: 2))["level"] as? Int == 2)
    }

    @Test("A version that is not in the list is refused by every call, whatever it shows")
    func undeclaredVersion() throws {
        let stray = APIVersion("2025-01-01-beta").showing(Contact.self, asVersion: 9)
        let body = json(#"{"name": "A", "email": "a"}"#)
        let calls: [() throws -> Void] = [
            { _ = try versions.decode(Contact.self, from: body, at: stray) },
            { _ = try versions.encode(ContactAPI.stored, at: stray) },
            { _ = try versions.merge(ContactAPI.stored, at: stray, into: ContactAPI.stored) },
        ]
        for call in calls {
            #expect {
                try call()
            } throws: { error in
                guard case .unknownVersion("2025-01-01-beta", let served) = error as! APIVersionError else {
                    return false
                }
                return served.count == 3
            }
        }
    }

    @Test("A version named alone stands for the one the list declares")
    func nameAlone() throws {
        let data = try versions.encode(ContactAPI.stored, at: "2025-01-01")
        #expect(try object(data)["name"] as? String == "Mary Ann Smith")
    }
}

@Suite("Describing the API versions")
struct DescriptionTests {
    @Test("Each version, the version of each type, and what changed, from the chains")
    func description() throws {
        let described = try ContactAPI.versions().describe()
        #expect(described.versions.map(\.name) == ["2025-01-01", "2025-09-01", "2026-06-01"])
        #expect(described.versions.map(\.isDefault) == [false, true, false])
        let contact = described.versions.map { $0.types.first { $0.type == "Contact" }! }
        #expect(contact.map(\.version) == [1, 2, 3])
        #expect(contact[0].fields == ["name", "email", "phone"] && contact[0].changes.isEmpty)
        let second = try #require(contact[1].changes.first)
        #expect(second.version == 2 && second.versionType == "ContactV2" && second.compatibility == "incompatible")
        #expect(second.added == ["firstName", "lastName", "kind", "labels", "addresses"])
        #expect(second.removed == ["name"])
        #expect(contact[2].changes.first?.added == ["emailAddress", "favorite", "nickname"])
        #expect(contact[2].changes.first?.removed == ["email"])
        let address = described.versions.map { $0.types.first { $0.type == "Address" }! }
        #expect(address.map(\.version) == [1, 1, 2])
        #expect(address[1].changes.isEmpty && address[2].changes.first?.added == ["postalCode"])
        let page = described.markdown
        #expect(page.contains("## 2025-09-01 (default)"))
        #expect(
            page.contains(
                "new in version 3 (`Contact`, incompatible): adds `emailAddress`, `favorite`, `nickname`; removes `email`"
            )
        )
        // The JSON document reads back as the same description.
        let document = try JSONEncoder().encode(described)
        #expect(try JSONDecoder().decode(APIVersionsDescription.self, from: document) == described)
    }

    @Test("A version whose fields cannot be made from empty values is described without them")
    func unlistableFields() throws {
        struct Link: VersionedCodable {
            static let version: Int? = 1
            typealias PreviousVersion = NothingEarlier
            var target: URL
        }
        let described = try APIVersions([APIVersion(1).showing(Link.self, asVersion: 1)], defaultVersion: 1).describe()
        #expect(described.versions[0].types[0].fields == nil)
        #expect(described.versions[0].types[0].versionType.hasSuffix("Link"))
    }
}
