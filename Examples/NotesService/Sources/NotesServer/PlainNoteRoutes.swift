import Foundation
import Hummingbird
import NIOCore

/// The same notes through plain `Codable`, for measuring what versioning costs in a real
/// service: no version in the document, no migration, no answer in another version.
///
/// It works on its own table, a copy of the notes, since a plain encode writes no version and
/// its documents would read as another version through the versioned handlers.
struct PlainNoteRoutes: Sendable {
    let store: NoteStore

    private static let decoder = JSONDecoder()
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    func add(to router: Router<BasicRequestContext>) {
        router.get("/plain/notes/:id") { _, context in
            let id = try context.parameters.require("id")
            guard let body = try await store.readPlain(id: id) else {
                return Response.text("No note \(id).\n", status: .notFound)
            }
            let note = try Self.decoder.decode(Note.self, from: Data(body.utf8))
            return Self.answer(try Self.encoder.encode(note))
        }
        router.put("/plain/notes/:id") { request, context in
            let id = try context.parameters.require("id")
            let body = try await request.body.collect(upTo: 1 << 20)
            let note: Note
            do {
                note = try Self.decoder.decode(Note.self, from: Data(body.readableBytesView))
            } catch {
                throw HTTPError(.badRequest, message: "\(error)")
            }
            let document = try Self.encoder.encode(note)
            try await store.writePlain(id: id, body: String(decoding: document, as: UTF8.self))
            return Self.answer(document)
        }
        router.post("/admin/copy-to-plain") { _, _ in
            try await store.copyToPlain()
            return Response.text("Copied.\n", status: .ok)
        }
    }

    private static func answer(_ data: Data) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
