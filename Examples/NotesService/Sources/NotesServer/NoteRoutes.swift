import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import VersionedCodable

/// The versioned handlers: a client writes a note of any version this build knows, reads it in
/// the version it asks for, and a read upgrades the stored document when the fleet allows.
struct NoteRoutes: Sendable {
    let store: NoteStore
    let fleet: FleetSetting
    let logger: Logger

    /// Documents are read once per request; the decoder has no settings that change.
    private static let decoder = JSONDecoder()

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

    /// Answers the stored note in the version the client asks for. A document stored as an
    /// older version than the fleet writes is written back upgraded, unless a client wrote the
    /// note since this read.
    func read(_ request: Request, id: String) async throws -> Response {
        let answerVersion = try requestedVersion(request)
        guard let row = try await store.read(id: id) else {
            return .text("No note \(id).\n", status: .notFound)
        }
        let read: Versioned<Note>
        do {
            read = try Self.decoder.decodeWithStoredVersion(Note.self, from: Data(row.body.utf8))
        } catch {
            // A document this build cannot read: the one failure a rolling deploy must never cause.
            logger.error("Note \(id) (stored as version \(row.version)) is unreadable: \(error)")
            return .text("Note \(id) is unreadable by this build: \(error)\n", status: .internalServerError)
        }
        let writeVersion = fleet.writeVersion
        if let stored = read.storedVersion, stored < writeVersion {
            let upgraded = try NotesAPI.encode(read.wrappedValue, asAPIVersion: writeVersion)
            _ = try await store.writeBack(
                id: id,
                body: String(decoding: upgraded, as: UTF8.self),
                version: writeVersion,
                ifRevision: row.revision
            )
        }
        return try answer(read.wrappedValue, as: answerVersion, storedVersion: row.version)
    }

    /// Stores a note sent in any known version, as the version the whole fleet reads.
    func write(_ request: Request, id: String) async throws -> Response {
        let answerVersion = try requestedVersion(request)
        let sent = try await decodeBody(request)
        let writeVersion = fleet.writeVersion
        let document: Data
        do {
            document = try NotesAPI.encode(sent.wrappedValue, asAPIVersion: writeVersion)
        } catch {
            return .text(
                "The note cannot be stored as version \(writeVersion), which every running build reads: \(error)\n",
                status: .unprocessableContent
            )
        }
        try await store.write(id: id, body: String(decoding: document, as: UTF8.self), version: writeVersion)
        return try answer(sent.wrappedValue, as: answerVersion, storedVersion: writeVersion)
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

    /// The version named by the request's header; the version the fleet writes when there is
    /// none, so that a client that does not say gets what every build can give it.
    private func requestedVersion(_ request: Request) throws -> Int {
        guard let header = request.headers[NotesAPI.versionHeaderName] else {
            return fleet.writeVersion
        }
        guard let version = Int(header), NotesAPI.versions.contains(version) else {
            throw HTTPError(
                .notAcceptable,
                message: "This build answers in versions \(NotesAPI.versions), not \(header)."
            )
        }
        return version
    }

    private func answer(_ note: Note, as version: Int, storedVersion: Int) throws -> Response {
        let data = try NotesAPI.encode(note, asAPIVersion: version)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[NotesAPI.versionHeaderName] = String(version)
        headers[NotesAPI.storedVersionHeaderName] = String(storedVersion)
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
