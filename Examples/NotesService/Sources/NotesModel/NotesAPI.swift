import Foundation
import VersionedCodable
import VersionedCodableAPI

/// The versions of the notes API: each shows the note as one of its versions, and the
/// attachments inside it as the version that API had. Requests are read, answers written and
/// old clients' edits merged by `VersionedCodableAPI` from this list alone.
package enum NotesAPI {
    /// The header a client sends to choose its API version, and the server sends to say which
    /// version it answered in.
    package static let versionHeader = "Notes-Version"

    /// The header in which the server says which version the document was stored as before
    /// the request.
    package static let storedVersionHeader = "Notes-Stored-Version"

    /// The API versions this build serves, oldest first: note version 1 has no attachments,
    /// version 2 shows them as attachment version 1, and API version 3 (new in the next build)
    /// shows everything as it is.
    package static func makeAPIVersions() throws -> APIVersions {
        #if NOTES_NEXT
            let versions = [
                APIVersion(1).showing(Note.self, asVersion: 1).showing(Attachment.self, asVersion: 1),
                APIVersion(2).showing(Note.self, asVersion: 2).showing(Attachment.self, asVersion: 1),
                APIVersion(3),
            ]
        #else
            let versions = [APIVersion(1).showing(Note.self, asVersion: 1), APIVersion(2)]
        #endif
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // A client that sends no version header was built before the header existed: against
        // the first API. Attachments are told apart by their address, which every version that
        // shows them shows.
        return try APIVersions(
            versions,
            defaultVersion: 1,
            elementIdentity: attachmentIdentity,
            encoder: encoder
        )
    }

    /// How a merge matches a client's attachments with the stored ones: by their address
    /// (`href` in the current version, `url` in version 1).
    package static let attachmentIdentity = ElementIdentity.member("id").identifying(
        elementsOf: "attachments",
        by: Attachment.self == AttachmentV1.self ? "url" : "href"
    )

    /// Where the service serves an API version's OpenAPI document: `/openapi/v2.json`.
    package static func openAPIPath(of version: APIVersion) -> String {
        "/openapi/v\(version.name).json"
    }

    /// The title of the service's OpenAPI documents.
    package static let openAPITitle = "Notes"

    /// The API versions, for the code that cannot throw: the list is checked by the model's
    /// tests, and the service checks it again when it starts.
    package static let apiVersions = Result { try makeAPIVersions() }

    /// The versions this build reads and writes, oldest first.
    package static var versions: [Int] { Array(1...newestVersion) }

    /// The newest version this build knows.
    package static var newestVersion: Int { Note.version ?? 1 }

    /// The attachment version an API version shows.
    package static func attachmentVersion(forAPIVersion version: Int) -> Int {
        guard let versions = try? apiVersions.get(), let apiVersion = try? versions.version(named: String(version))
        else { return Attachment.version ?? 1 }
        return apiVersion.version(of: Attachment.self) ?? 1
    }

    /// One encoder per API version, made once from the list: an encoder may be shared by
    /// concurrent encodes as long as nobody changes its settings.
    package static let encoders: [Int: JSONEncoder] = Dictionary(
        uniqueKeysWithValues: ((try? apiVersions.get().versions) ?? []).compactMap { version in
            guard let number = Int(version.name) else { return nil }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.userInfo[.versionsToWrite] = version.versionsToWrite
            return (number, encoder)
        }
    )

    /// How a build writes notes to the store while the oldest running build's newest API
    /// version is a given one: the newest version of each versioned type that such a build may
    /// read and write back.
    package struct Storage: Sendable {
        /// The version notes are stored as.
        package let noteVersion: Int
        /// The version attachments are stored as.
        package let attachmentVersion: Int
        /// Writes notes for the store. It lists only the types stored as another version than
        /// this build's newest: a note read from a document newer than this build must be
        /// written back as that document's version, which a list that names the note refuses.
        package let encoder: JSONEncoder
    }

    /// How this build stores notes while the oldest running build knows API versions up to
    /// `apiVersion`: the fleet setting that the deploy raises once the last old instance is gone.
    ///
    /// A version that declares itself compatible with the previous one is stored as soon as
    /// builds of the previous one run beside this one, since they read it and write it back
    /// keeping what they do not know: note version 3 is stored from the start. A version that
    /// declares nothing waits until no running build is older than it: attachment version 2
    /// waits for API version 3.
    ///
    /// - Parameter apiVersion: The newest API version that every running build knows.
    /// - Returns: The versions to store and the encoder that writes them.
    package static func storage(whileOldestBuildKnows apiVersion: Int) -> Storage {
        storages[min(max(apiVersion, 1), newestVersion)]!
    }

    private static let storages: [Int: Storage] = Dictionary(
        uniqueKeysWithValues: versions.map { apiVersion in
            let note = newestVersion(of: Note.self, writableByBuildsOf: apiVersion)
            let attachment = newestVersion(
                of: Attachment.self,
                writableByBuildsOf: attachmentVersion(forAPIVersion: apiVersion)
            )
            var list = VersionsToWrite()
            if note != Note.version {
                list = list.writing(Note.self, asVersion: note)
            }
            if attachment != Attachment.version {
                list = list.writing(Attachment.self, asVersion: attachment)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.userInfo[.versionsToWrite] = list
            return (apiVersion, Storage(noteVersion: note, attachmentVersion: attachment, encoder: encoder))
        }
    )

    /// The newest version of `type` that builds whose newest version of it is `version` may
    /// read and write back: the versions' own declarations, followed down the chain, say how far
    /// back each one's writers go.
    ///
    /// - Parameters:
    ///   - type: The newest version of a versioned type in this build.
    ///   - version: The newest version of the type in the older build.
    /// - Returns: A version in the chain of `type`; `version` when none newer qualifies.
    package static func newestVersion<Value: VersionedCodable>(
        of type: Value.Type,
        writableByBuildsOf version: Int
    ) -> Int {
        let types = VersionChain(for: type).types
        for (index, candidate) in types.enumerated() {
            guard let candidateVersion = candidate.version else { continue }
            var oldestWriter = index
            while oldestWriter + 1 < types.count, types[oldestWriter].compatibility == .compatible {
                oldestWriter += 1
            }
            if let writer = types[oldestWriter].version, writer <= version {
                return candidateVersion
            }
        }
        return version
    }

    /// Writes a note as an API version shows it.
    ///
    /// - Parameters:
    ///   - note: The note.
    ///   - version: The API version, at most ``newestVersion``.
    /// - Returns: The JSON document.
    /// - Throws: `APIVersionError` when the version is not served or the note cannot be
    ///   written as it.
    package static func encode(_ note: Note, asAPIVersion version: Int) throws -> Data {
        let versions = try apiVersions.get()
        return try versions.encode(note, at: versions.version(named: String(version)))
    }
}
