import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

/// The samples of the article "Serving Clients at Their Own Versions", compiled and run.
@Suite("Serving clients at their own versions: the article's samples")
struct ServingClientsTests {
    /// A store of one contact with a revision, as a service's database holds it.
    final class ContactStore: @unchecked Sendable {
        var contact = ContactAPI.stored
        var revision = 1

        struct Conflict: Error {}
        struct Unavailable: Error {}

        var isDown = false

        func save(_ contact: Contact, ifStillAt revision: Int) throws {
            guard !isDown else { throw Unavailable() }
            guard revision == self.revision else { throw Conflict() }
            self.contact = contact
            self.revision += 1
        }
    }

    let store = ContactStore()

    func makeVersions() throws -> APIVersions {
        // snippet: api-version-declaration
        let versions = try APIVersions(
            [
                APIVersion("2025-01-01").showing(Contact.self, asVersion: 1).showing(Address.self, asVersion: 1),
                APIVersion("2025-09-01").showing(Contact.self, asVersion: 2).showing(Address.self, asVersion: 1),
                APIVersion("2026-06-01"),
            ],
            defaultVersion: "2025-01-01"
        )
        // end snippet
        return versions
    }

    /// A PUT handler as a service writes it, without a web framework.
    func put(
        headers: [String: String],
        body: Data,
        versions: APIVersions,
        readAt readRevision: Int? = nil
    ) -> (status: Int, body: Data) {
        let (stored, revision) = (store.contact, readRevision ?? store.revision)
        // snippet: api-versions-handler
        let version: APIVersion
        let merged: Contact
        do {
            version = try versions.version(named: headers["API-Version"])
            merged = try versions.merge(Contact.self, from: body, at: version, into: stored)
        } catch let error as APIVersionError {
            return (error.httpStatus, Data(error.description.utf8))
        } catch {
            // A migration step's own error: the body holds a value the current type refuses.
            return (422, Data("\(error)".utf8))
        }
        do {
            try store.save(merged, ifStillAt: revision)
        } catch is ContactStore.Conflict {
            return (412, Data("The contact changed since it was read; read it again.".utf8))
        } catch {
            // The store's failure, not the client's: it may send the same request again later.
            return (503, Data("The contacts store is unavailable; try again.".utf8))
        }
        do {
            return (200, try versions.encode(merged, at: version))
        } catch {
            // Stored, but not showable at the client's version (406): it reads it at a newer one.
            return ((error as? APIVersionError)?.httpStatus ?? 500, Data("\(error)".utf8))
        }
        // end snippet
    }

    @Test("A client of the first API version edits a contact; what it cannot see is kept")
    func oldClientEdit() throws {
        let versions = try makeVersions()
        let (status, answer) = put(
            headers: ["API-Version": "2025-01-01"],
            body: Data(#"{"name": "Mary Ann Smith", "email": "mas@example.com", "phone": null}"#.utf8),
            versions: versions
        )
        #expect(status == 200)
        #expect(try object(answer)["email"] as? String == "mas@example.com")
        var expected = ContactAPI.stored
        expected.emailAddress = "mas@example.com"
        expected.phone = nil
        #expect(store.contact == expected && store.revision == 2)
    }

    @Test("Bad requests get their status and words, and change nothing stored")
    func badRequests() throws {
        let versions = try makeVersions()
        let cases: [([String: String], String, Int, String)] = [
            (["API-Version": "2024-01-01"], "{}", 400, "2025-01-01, 2025-09-01, 2026-06-01"),
            (["API-Version": "v2"], "{}", 400, "is not an API version"),
            ([:], #"{"firstName": "A", "email": "a"}"#, 400, "not a Contact of API version 2025-01-01"),
            (["API-Version": "2025-01-01"], #"{"name": "A", "email": "a", "favorite": true}"#, 400, "favorite"),
            (["API-Version": "2025-01-01"], #"{"version": 2, "name": "A", "email": "a"}"#, 400, "version 2"),
            (["API-Version": "2025-01-01"], #"{"name": "Mary Ann Jones", "email": "a"}"#, 409, "at name"),
        ]
        for (headers, body, status, words) in cases {
            let answer = put(headers: headers, body: Data(body.utf8), versions: versions)
            #expect(answer.status == status, "\(body)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains(words), "\(body)")
        }
        #expect(store.contact == ContactAPI.stored && store.revision == 1)
    }

    @Test("An edit made over a revision that is no longer stored is refused and changes nothing")
    func staleRevision() throws {
        let versions = try makeVersions()
        let answer = put(
            headers: ["API-Version": "2025-01-01"],
            body: Data(#"{"name": "Mary Ann Smith", "email": "new@example.com"}"#.utf8),
            versions: versions,
            readAt: 0
        )
        #expect(answer.status == 412)
        #expect(store.contact == ContactAPI.stored && store.revision == 1)
    }

    @Test("A store that is down is a 503, never a 4xx that tells the client its request is wrong")
    func storeDown() throws {
        let versions = try makeVersions()
        store.isDown = true
        let answer = put(
            headers: ["API-Version": "2025-01-01"],
            body: Data(#"{"name": "Mary Ann Smith", "email": "new@example.com"}"#.utf8),
            versions: versions
        )
        #expect(answer.status == 503)
        #expect(store.contact == ContactAPI.stored && store.revision == 1)
    }

    @Test("A client that sends no version is read and answered at the oldest, as it was built")
    func clientWithoutHeader() throws {
        let versions = try makeVersions()
        let answer = put(
            headers: [:],
            body: Data(#"{"name": "Mary Ann Smith", "email": "new@example.com", "phone": "555-0100"}"#.utf8),
            versions: versions
        )
        #expect(answer.status == 200)
        #expect(try object(answer.body)["name"] as? String == "Mary Ann Smith")
        #expect(store.contact.emailAddress == "new@example.com" && store.contact.nickname == "Em")
    }

    @Test("The description the article serves")
    func description() throws {
        let versions = try makeVersions()
        // snippet: api-versions-description
        let page = versions.describe().markdown
        let document = try JSONEncoder().encode(versions.describe())
        // end snippet
        #expect(page.hasPrefix("# API versions\n\n## 2026-06-01\n"))
        #expect(!document.isEmpty)
    }
}
