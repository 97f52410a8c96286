import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import VersionedCodable

/// The versioned handlers: a client writes a note of any version this build knows, reads it in
/// the version it asks for, and a read upgrades the stored document to the versions the fleet
/// stores.
///
/// A note stored as a newer version than this build knows, whose version declares that builds
/// like this one may write it, is read through `Versioned` as this build's newest version. A
/// client's edit of it is written back through the same wrapper, which keeps the fields this
/// build does not know, and the document's own version.
struct NoteRoutes: Sendable {
    let store: NoteStore
    let fleet: FleetSetting
    let logger: Logger

    /// Documents are read once per request; the decoder has no settings that change.
    private static let decoder = JSONDecoder()

    /// How many times an edit reads the row again when another write moved it in between.
    private static let attempts = 5

    func add(to router: Router<BasicRequestContext>) {
        router.get("/notes/:id") { request, context in
            try await read(request, id: context.parameters.require("id"))
        }
        router.put("/notes/:id") { request, context in
            try await write(request, id: context.parameters.require("id"))
        }
        router.put("/admin/raw/:id") { request, context in
            try await restore(request, id: context.parameters.require("id"))
        }
    }

    /// Answers the stored note in the version the client asks for. A document stored as older
    /// versions than the fleet stores is written back upgraded, unless a client wrote the note
    /// since this read.
    func read(_ request: Request, id: String) async throws -> Response {
        let answerVersion = try requestedVersion(request)
        guard let row = try await store.read(id: id) else {
            return .text("No note \(id).\n", status: .notFound)
        }
        let stored: Versioned<Note>
        do {
            stored = try decode(row)
        } catch {
            return unreadable(id, row: row, error)
        }
        let storage = fleet.storage
        if isBehind(stored, storage) {
            let upgraded = try storage.encoder.encode(versioned: stored.wrappedValue)
            _ = try await store.writeBack(
                id: id,
                body: String(decoding: upgraded, as: UTF8.self),
                version: storage.noteVersion,
                ifRevision: row.revision
            )
        }
        return try answer(stored.wrappedValue, as: answerVersion, storedVersion: row.version)
    }

    /// Stores a note sent in any version this build knows, over the stored one: the client's
    /// note replaces the fields its version shows, and the fields of newer versions are kept,
    /// whether this build knows them or only carries them.
    func write(_ request: Request, id: String) async throws -> Response {
        let answerVersion = try requestedVersion(request)
        let sent = try await decodeBody(request)
        let clientVersion = sent.storedVersion ?? NotesAPI.newestVersion
        for _ in 0..<Self.attempts {
            let row = try await store.read(id: id)
            var stored: Versioned<Note>?
            if let row {
                do {
                    stored = try decode(row)
                } catch {
                    // Writing over it would lose what the note holds: refuse, as a read does.
                    return unreadable(id, row: row, error)
                }
            }
            var note = sent.wrappedValue
            if let stored {
                note = note.keepingFieldsUnknown(toAPIVersion: clientVersion, from: stored.wrappedValue)
            }
            let storage = fleet.storage
            let document: Data
            let version: Int
            do {
                if var newer = stored, newer.isFromNewerVersion, let storedVersion = newer.storedVersion {
                    newer.wrappedValue = note
                    document = try storage.encoder.encode(newer)
                    version = storedVersion
                } else {
                    document = try storage.encoder.encode(versioned: note)
                    version = storage.noteVersion
                }
            } catch {
                return .text("This build cannot store the note: \(error)\n", status: .unprocessableContent)
            }
            let body = String(decoding: document, as: UTF8.self)
            if try await store.write(id: id, body: body, version: version, ifRevision: row?.revision) {
                return try answer(note, as: answerVersion, storedVersion: row?.version)
            }
        }
        return .text("Note \(id) kept changing while it was written; try again.\n", status: .conflict)
    }

    /// Stores a document as it is, after checking that this build reads it: how documents
    /// from an older system, or a backup, come into the store.
    func restore(_ request: Request, id: String) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let data = Data(body.readableBytesView)
        let sent: Versioned<Note>
        do {
            sent = try Self.decoder.decodeWithStoredVersion(Note.self, from: data)
        } catch {
            return .text("This build cannot read the document: \(error)\n", status: .unprocessableContent)
        }
        try await store.write(id: id, body: String(decoding: data, as: UTF8.self), version: sent.storedVersion ?? 0)
        return .text("Stored as version \(sent.storedVersion.map(String.init) ?? "none").\n", status: .ok)
    }

    /// Reads a stored document: through `Versioned`, so that a document of a newer version that
    /// builds like this one may write is read as this build's newest version, its other fields
    /// kept in the wrapper.
    private func decode(_ row: NoteStore.Row) throws -> Versioned<Note> {
        try Self.decoder.decode(Versioned<Note>.self, from: Data(row.body.utf8))
    }

    /// A document this build cannot read: the one failure a rolling deploy must never cause.
    private func unreadable(_ id: String, row: NoteStore.Row, _ error: any Error) -> Response {
        logger.error("Note \(id) (stored as version \(row.version)) is unreadable: \(error)")
        return .text("Note \(id) is unreadable by this build: \(error)\n", status: .internalServerError)
    }

    /// Whether the stored note, or one of its attachments, is older than the fleet stores. A
    /// note newer than this build is left as it is: this build carries its fields, it does not
    /// upgrade them.
    private func isBehind(_ stored: Versioned<Note>, _ storage: NotesAPI.Storage) -> Bool {
        guard !stored.isFromNewerVersion, let version = stored.storedVersion, version <= storage.noteVersion else {
            return false
        }
        return version < storage.noteVersion
            || stored.wrappedValue.attachments.contains { ($0.storedVersion ?? 0) < storage.attachmentVersion }
    }

    /// A client's note, which must be of a version this build knows: a client that sends a newer
    /// one expects its fields to be understood, and this build could only carry them.
    private func decodeBody(_ request: Request) async throws -> Versioned<Note> {
        let body = try await request.body.collect(upTo: 1 << 20)
        do {
            return try Self.decoder.decodeWithStoredVersion(Note.self, from: Data(body.readableBytesView))
        } catch let error as VersionedDecodingError {
            // Valid JSON of a version this build does not know.
            throw HTTPError(.unprocessableContent, message: "\(error)")
        } catch {
            throw HTTPError(.badRequest, message: "\(error)")
        }
    }

    /// The version named by the request's header; the newest version every running build
    /// answers in when there is none, so that a client that does not say gets what every build
    /// can give it.
    private func requestedVersion(_ request: Request) throws -> Int {
        guard let header = request.headers[NotesAPI.versionHeaderName] else {
            return fleet.answerVersion
        }
        guard let version = Int(header), NotesAPI.versions.contains(version) else {
            throw HTTPError(
                .notAcceptable,
                message: "This build answers in versions \(NotesAPI.versions), not \(header)."
            )
        }
        return version
    }

    /// The note in the version the client asked for, and the version it was stored as before
    /// the request, if it was stored.
    private func answer(_ note: Note, as version: Int, storedVersion: Int?) throws -> Response {
        let data = try NotesAPI.encode(note, asAPIVersion: version)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[NotesAPI.versionHeaderName] = String(version)
        if let storedVersion {
            headers[NotesAPI.storedVersionHeaderName] = String(storedVersion)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension NotesAPI {
    static let versionHeaderName = HTTPField.Name(versionHeader)!
    static let storedVersionHeaderName = HTTPField.Name(storedVersionHeader)!
}

extension Response {
    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}
