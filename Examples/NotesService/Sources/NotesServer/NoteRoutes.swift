import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import VersionedCodable
import VersionedCodableAPI
import VersionedCodableStore

/// The versioned handlers: a client reads, lists and writes notes at the API version its
/// `Notes-Version` header names, in that version's shape, and a read upgrades the stored
/// document to the versions the fleet stores, through the store library's `UpgradeOnRead`.
/// `VersionedCodableAPI` reads the client's note up the chain, answers down it, and merges an
/// older client's edit so that what its version does not show is kept.
///
/// An edit may name the revision it was made over (`If-Match` with the `ETag` of a read), or
/// ask to create the note (`If-None-Match: *`); it is then refused with 412 when the row
/// moved on, and changes nothing. Without either, the edit is merged over the row as it is.
///
/// A note stored as a newer version than this build knows, whose version declares that builds
/// like this one may write it, is read through `Versioned` as this build's newest version. A
/// client's edit of it is written back through the same wrapper, which keeps the fields this
/// build does not know, and the document's own version.
struct NoteRoutes: Sendable {
    let store: NoteStore
    let fleet: FleetSetting
    let versions: APIVersions
    let logger: Logger

    /// Reads a restored document; it has no settings that change.
    private static let decoder = JSONDecoder()
    /// Writes the list's ids and messages.
    private static let plainEncoder = JSONEncoder()

    /// How many times an edit reads the row again when another write moved it in between.
    private static let attempts = 5

    func add(to router: Router<BasicRequestContext>) {
        router.get("/notes/:id") { request, context in
            try await answering { try await read(request, id: context.parameters.require("id")) }
        }
        router.put("/notes/:id") { request, context in
            try await answering { try await write(request, id: context.parameters.require("id")) }
        }
        router.get("/notes") { request, _ in
            try await answering { try await list(request) }
        }
        router.put("/admin/raw/:id") { request, context in
            try await restore(request, id: context.parameters.require("id"))
        }
    }

    /// Answers the stored note in the version the client asks for. A document stored as older
    /// versions than the fleet stores is written back upgraded by the fleet's `UpgradeOnRead`
    /// reader, through the adapter's compare and swap, unless a client wrote the note since
    /// this read.
    func read(_ request: Request, id: String) async throws -> Response {
        let version: APIVersion
        do {
            version = try apiVersion(request)
        } catch {
            return refusal(error)
        }
        guard let row = try await store.read(id: id) else {
            return .text("No note \(id).\n", status: .notFound)
        }
        // snippet: notes-route-upgrade-on-read
        // The row is read already, with its version column and revision: the reader takes it as
        // it is, and writes it back only if the row is still at that revision.
        let read: UpgradeOnReadResult<Note>
        do {
            read = try await fleet.reader.read(row.document(id: id), from: store.documents, writeBack: true)
        } catch let error as UpgradeError {
            return .text("This build cannot write the note back: \(error)\n", status: .internalServerError)
        } catch {
            return unreadable(id, row: row, error)
        }
        var revision = row.revision
        switch read.writeBack {
        case .written:
            // The adapter's commit raises the revision by one, as every write does: the answer
            // names the revision the reader wrote, which holds the same note.
            revision += 1
        case .failed(let error):
            logger.warning("Note \(id) was read but not written back: \(error)")
        default:
            break
        }
        // end snippet
        return answer(read.value, at: version, storedVersion: row.version, revision: revision)
    }

    /// Stores a note sent at the request's API version over the stored one: the client's note
    /// replaces the fields its version shows, and the fields it does not show are kept, whether
    /// this build knows them (merged through the chain) or only carries them (kept by the
    /// stored document's `Versioned`).
    func write(_ request: Request, id: String) async throws -> Response {
        let version: APIVersion
        let body: Data
        let condition: Condition
        do {
            version = try apiVersion(request)
            condition = try Condition(request)
            body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
        } catch {
            return refusal(error)
        }
        for _ in 0..<(condition == .none ? Self.attempts : 1) {
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
            // snippet: notes-route-merge
            // A new note is the body as its API version shows it; an edit is merged into the
            // stored note, so that what the client's version does not show is kept, and checked
            // against the body as sent.
            let note: Note
            do {
                if let stored {
                    note = try versions.merge(Note.self, from: body, at: version, into: stored.wrappedValue)
                } else {
                    note = try versions.decode(Note.self, from: body, at: version)
                }
            } catch {
                // A body the client must change (400) comes first; an edit that cannot be merged
                // into a revision it never read is a revision to read again (412).
                if (error as? APIVersionError)?.httpStatus != 400,
                    let refused = condition.refusal(row?.revision, id: id)
                {
                    return refused
                }
                return refusal(error)
            }
            // end snippet
            if let refused = condition.refusal(row?.revision, id: id) {
                return refused
            }
            let storage = fleet.storage
            let document: Data
            let storedAs: Int
            do {
                if var newer = stored, newer.isFromNewerVersion, let storedVersion = newer.storedVersion {
                    newer.wrappedValue = note
                    document = try storage.encoder.encode(newer)
                    storedAs = storedVersion
                } else {
                    document = try storage.encoder.encode(versioned: note)
                    storedAs = storage.noteVersion
                }
            } catch {
                return .text("This build cannot store the note: \(error)\n", status: .unprocessableContent)
            }
            let body = String(decoding: document, as: UTF8.self)
            if let revision = try await store.write(id: id, body: body, version: storedAs, ifRevision: row?.revision) {
                return answer(note, at: version, storedVersion: row?.version, revision: revision)
            }
        }
        if condition != .none {
            return .text(
                "Note \(id) changed since the revision the edit names; read it again.\n",
                status: .preconditionFailed
            )
        }
        return .text("Note \(id) kept changing while it was written; try again.\n", status: .conflict)
    }

    /// Up to `limit` notes (20 unless the query says, at most 100) whose ids sort after the
    /// query's `after`, each as the request's API version shows it, with its revision:
    /// `{"notes": [{"id": …, "revision": …, "note": {…}}], "next": id or null}`. A note this
    /// build cannot read or the version cannot show is listed with an `error` instead.
    func list(_ request: Request) async throws -> Response {
        let version: APIVersion
        do {
            version = try apiVersion(request)
        } catch {
            return refusal(error)
        }
        let after = request.uri.queryParameters["after"].map(String.init) ?? ""
        let limit = min(max(request.uri.queryParameters["limit"].flatMap { Int(String($0)) } ?? 20, 1), 100)
        let rows = try await store.list(after: after, limit: limit)
        var output = Data("{\"notes\":[".utf8)
        for (index, (id, row)) in rows.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: #"{"id":"#.utf8)
            output.append(try Self.plainEncoder.encode(id))
            output.append(contentsOf: #","revision":\#(row.revision),"#.utf8)
            do {
                let note = try versions.encode(decode(row).wrappedValue, at: version)
                output.append(contentsOf: #""note":"#.utf8)
                output.append(note)
            } catch {
                logger.error("Note \(id) cannot be listed at API version \(version): \(error)")
                output.append(contentsOf: #""error":"#.utf8)
                output.append(try Self.plainEncoder.encode("\(error)"))
            }
            output.append(UInt8(ascii: "}"))
        }
        output.append(contentsOf: #"],"next":"#.utf8)
        output.append(try Self.plainEncoder.encode(rows.count == limit ? rows.last?.id : nil))
        output.append(UInt8(ascii: "}"))
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[NotesAPI.versionHeaderName] = version.name
        headers[.vary] = NotesAPI.versionHeader
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: output)))
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
        try StoredNoteCoder.read(Note.self, from: Data(row.body.utf8))
    }

    /// A document this build cannot read: the one failure a rolling deploy must never cause.
    private func unreadable(_ id: String, row: NoteStore.Row, _ error: any Error) -> Response {
        logger.error("Note \(id) (stored as version \(row.version)) is unreadable: \(error)")
        return .text("Note \(id) is unreadable by this build: \(error)\n", status: .internalServerError)
    }

    // snippet: notes-route-version
    /// The API version the request's header names; when it names none, the declaration's
    /// default, the oldest: a client that sends no header was built before there was one.
    private func apiVersion(_ request: Request) throws(APIVersionError) -> APIVersion {
        try versions.version(named: request.headers[NotesAPI.versionHeaderName])
    }
    // end snippet

    /// The note as the API version shows it, with the version it was stored as before the
    /// request, if it was stored, and its revision as the `ETag` an edit names.
    private func answer(_ note: Note, at version: APIVersion, storedVersion: Int?, revision: Int) -> Response {
        let data: Data
        do {
            data = try versions.encode(note, at: version)
        } catch {
            return refusal(error)
        }
        // snippet: notes-route-answer-headers
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        // The version the answer is in, and that answers differ by the request's version, so
        // that a cache keeps one per version.
        headers[NotesAPI.versionHeaderName] = version.name
        headers[.vary] = NotesAPI.versionHeader
        headers[.eTag] = "\"\(revision)\""
        // end snippet
        if let storedVersion {
            headers[NotesAPI.storedVersionHeaderName] = String(storedVersion)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Runs a handler; an error it lets through is the store's (the database is down or
    /// refused the statement), not the client's: 503, so that the client tries again later, and
    /// never a 4xx that tells it to change its request.
    private func answering(_ handler: () async throws -> Response) async throws -> Response {
        do {
            return try await handler()
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.error("The notes store failed: \(error)")
            return .text("The notes store is unavailable; try again.\n", status: .serviceUnavailable)
        }
    }

    // snippet: notes-route-refusal
    /// A request refused: an API version's error with its status and words, any other (a
    /// migration step's, a body too large) as 400.
    private func refusal(_ error: any Error) -> Response {
        if let error = error as? APIVersionError {
            return .text("\(error)\n", status: HTTPResponse.Status(code: error.httpStatus))
        }
        if let error = error as? HTTPError {
            return .text("\(error.body ?? "\(error)")\n", status: error.status)
        }
        return .text("\(error)\n", status: .badRequest)
    }
    // end snippet
}

/// What an edit says about the row it was made over.
enum Condition: Equatable {
    /// Nothing: the edit is merged over the row as it is when written.
    case none
    /// `If-Match: "r"`: only over revision r.
    case revision(Int)
    /// `If-None-Match: *`: only when there is no note yet.
    case absent

    init(_ request: Request) throws {
        if let match = request.headers[.ifMatch] {
            let digits = match.drop { $0 == "W" || $0 == "/" || $0 == "\"" }.prefix { $0.isNumber }
            guard let revision = Int(digits) else {
                throw HTTPError(.badRequest, message: "If-Match must name a revision, as an ETag gives it: \(match)")
            }
            self = .revision(revision)
        } else if request.headers[.ifNoneMatch] == "*" {
            self = .absent
        } else {
            self = .none
        }
    }

    /// The answer when the row is not the one the edit was made over.
    func refusal(_ revision: Int?, id: String) -> Response? {
        switch self {
        case .none:
            return nil
        case .revision(let expected) where revision != expected:
            return .text(
                "Note \(id) is at revision \(revision.map(String.init) ?? "none"), not \(expected); read it again.\n",
                status: .preconditionFailed
            )
        case .absent where revision != nil:
            return .text("Note \(id) exists already.\n", status: .preconditionFailed)
        default:
            return nil
        }
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
