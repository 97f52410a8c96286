import Foundation
import VersionedCodable

/// The versions of the notes API: each is a version of the note document, with the versions
/// of its parts that clients of that API know.
package enum NotesAPI {
    /// The header a client sends to choose the version of the answer, and the server sends to
    /// say which version it answered in.
    package static let versionHeader = "Notes-Version"

    /// The header in which the server says which version the document was stored as before
    /// the request.
    package static let storedVersionHeader = "Notes-Stored-Version"

    /// The versions this build reads and writes, oldest first.
    package static var versions: [Int] { Array(1...newestVersion) }

    /// The newest version this build knows.
    package static var newestVersion: Int { Note.version ?? 1 }

    /// Which version each versioned type is written as for a client or a build of an API
    /// version: the note as that version, its attachments as the version that API had.
    ///
    /// - Parameter version: A version of the API, at most ``newestVersion``.
    /// - Returns: The list to put in an encoder's `userInfo`.
    package static func versionsToWrite(forAPIVersion version: Int) -> VersionsToWrite {
        VersionsToWrite()
            .writing(Note.self, asVersion: version)
            .writing(Attachment.self, asVersion: attachmentVersion(forAPIVersion: version))
    }

    /// The attachment version of an API version: 2 from API version 3 on.
    package static func attachmentVersion(forAPIVersion version: Int) -> Int {
        min(version >= 3 ? 2 : 1, Attachment.version ?? 1)
    }

    /// One encoder per API version, made once: an encoder may be shared by concurrent encodes
    /// as long as nobody changes its settings.
    package static let encoders: [Int: JSONEncoder] = Dictionary(
        uniqueKeysWithValues: versions.map { version in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.userInfo[.versionsToWrite] = versionsToWrite(forAPIVersion: version)
            return (version, encoder)
        }
    )

    /// Writes a note as an API version.
    ///
    /// - Parameters:
    ///   - note: The note.
    ///   - version: The API version, at most ``newestVersion``.
    /// - Returns: The JSON document.
    /// - Throws: `VersionedEncodingError` when the note cannot be written as that version.
    package static func encode(_ note: Note, asAPIVersion version: Int) throws -> Data {
        guard let encoder = encoders[version] else {
            throw VersionedEncodingError.versionNotInChain(version, chain: VersionChain(for: Note.self))
        }
        return try encoder.encode(versioned: note)
    }
}
