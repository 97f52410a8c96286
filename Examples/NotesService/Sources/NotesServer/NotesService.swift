import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import VersionedCodableSchema
import VersionedCodableStore

/// The notes service: its settings come from the environment, so that the same binary runs
/// as every instance of the fleet.
///
/// - `NOTES_PORT`: the port to listen on, on 127.0.0.1 (8080).
/// - `NOTES_DB_HOST`, `NOTES_DB_PORT`, `NOTES_DB_USER`, `NOTES_DB_NAME`: the PostgreSQL server
///   (127.0.0.1, 5432, notes, postgres), reached without TLS or password, as on loopback.
/// - `NOTES_SETTING_INTERVAL_MS`: how often the fleet setting is read again (250).
/// - `NOTES_WRITE_BACKS_PER_SECOND`: the most notes this instance's reads write back upgraded
///   per second (1000); a read past it answers and leaves the note for a later read.
package enum NotesService {
    /// Runs the service until SIGTERM or SIGINT.
    ///
    /// - Parameter build: The name the health check reports: `old` or `new`.
    package static func run(build: String) async throws {
        let environment = ProcessInfo.processInfo.environment
        var logger = Logger(label: "notes-\(build)")
        logger.logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
        let port = environment["NOTES_PORT"].flatMap(Int.init) ?? 8080

        let client = PostgresClient(
            configuration: .init(
                host: environment["NOTES_DB_HOST"] ?? "127.0.0.1",
                port: environment["NOTES_DB_PORT"].flatMap(Int.init) ?? 5432,
                username: environment["NOTES_DB_USER"] ?? "notes",
                password: nil,
                database: environment["NOTES_DB_NAME"] ?? "postgres",
                tls: .disable
            ),
            backgroundLogger: logger
        )
        let store = NoteStore(client: client, logger: logger)
        let interval = environment["NOTES_SETTING_INTERVAL_MS"].flatMap(Int.init) ?? 250
        var writesBack = 1000.0
        if let text = environment["NOTES_WRITE_BACKS_PER_SECOND"] {
            guard let rate = Double(text) else {
                throw StoreSettingError.outOfRange(
                    setting: "NOTES_WRITE_BACKS_PER_SECOND",
                    value: text,
                    requirement: "a finite number above 0"
                )
            }
            writesBack = rate
        }
        let fleet = try FleetSetting(
            initial: NotesAPI.newestVersion,
            store: store,
            interval: .milliseconds(interval),
            writesBackPerSecond: writesBack
        )

        let router = Router()
        router.get("/health") { _, _ in
            Response.text(
                "build=\(build) newest=\(NotesAPI.newestVersion) readable=\(fleet.readableVersion) "
                    + "stores=note \(fleet.storage.noteVersion), attachment \(fleet.storage.attachmentVersion)\n",
                status: .ok
            )
        }
        router.get("/admin/stored-versions") { _, _ in
            let counts = try await store.storedVersionCounts()
            func list(_ counts: [Int: Int]) -> String {
                counts.keys.sorted().map { "\($0)=\(counts[$0]!)" }.joined(separator: " ")
            }
            return Response.text("\(list(counts.notes)); attachments \(list(counts.attachments))\n", status: .ok)
        }
        let versions = try NotesAPI.makeAPIVersions()
        NoteRoutes(store: store, fleet: fleet, versions: versions, logger: logger).add(to: router)
        // The API versions and what changed in each, from the chains: a page, or JSON for tools,
        // each linking the version's OpenAPI document.
        let described = versions.describe(linkingSchemas: NotesAPI.openAPIPath(of:))
        let page = described.markdown
        let document = try JSONEncoder().encode(described)
        router.get("/api-versions") { request, _ in
            guard request.headers[.accept]?.contains("application/json") == true else {
                return Response.text(page, status: .ok)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: document))
            )
        }
        // snippet: notes-openapi-route
        // The schemas of the note and its attachments at the versions each API version shows
        // them, derived once from the chains: an OpenAPI 3.1 document per API version.
        var documents: [String: Data] = [:]
        for (name, document) in try versions.openAPIDocuments(of: [Note.self], title: NotesAPI.openAPITitle) {
            documents["v\(name).json"] = try document.jsonData()
        }
        let openAPI = documents
        let served = openAPI.keys.sorted().joined(separator: ", ")
        router.get("/openapi/:file") { _, context in
            guard let file = context.parameters.get("file"), let document = openAPI[file] else {
                return Response.text(
                    "No such document; the API versions' documents are \(served).\n",
                    status: .notFound
                )
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: document))
            )
        }
        // end snippet
        PlainNoteRoutes(store: store).add(to: router)

        var app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "notes-\(build)"),
            services: [client, fleet],
            logger: logger
        )
        app.beforeServerStarts {
            try await store.prepare(newestVersion: NotesAPI.newestVersion)
            if let readable = try await store.readableVersion() {
                fleet.set(readable)
            }
        }
        try await app.runService()
    }
}
