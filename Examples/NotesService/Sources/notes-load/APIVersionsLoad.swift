import Foundation
import NIOHTTP1
import NotesModel
import Synchronization
import VersionedCodable
import VersionedCodableAPI
import VersionedCodableSchema

/// Clients at several API versions at once, each creating, reading, editing and listing notes
/// in its own version's shape, all of them editing the same notes, checked against a ledger of
/// every revision.
///
/// Each edit names the revision it read (`If-Match`), so the service applies it over exactly
/// that revision or refuses it with 412, and the client reads the note again and retries. The
/// ledger therefore knows what every revision must hold: the revision the edit was made over,
/// with the fields the client's version shows replaced by the client's. A read or a listing
/// at any version is compared with the revision it names, field by field, for the fields that
/// version shows: a field that differs is a field lost.
struct APIVersionsLoad {
    var fleet: Fleet
    var urls: [String]
    var clientVersions: [Int]
    var requests: Int
    var concurrency: Int
    var seed: UInt64
    /// The first letters of the ids this load creates.
    var prefix: String
    var versions: APIVersions
    /// The note's schema at each API version, from the OpenAPI document the service serves.
    var schemas: [Int: JSONSchema]
    var ledger: RevisionLedger
    var counts: Counts

    /// What the load found, beyond the fleet's request and failure counts.
    final class Counts: Sendable {
        private struct State {
            var fieldsLost = 0
            var conflictsRetried = 0
            var unknownRefused = 0
            var badBodiesRefused = 0
            var hiddenListEdits = 0
            var bodiesWithoutPartVersions = 0
            var validated = 0
            var invalid = 0
        }

        private let state = Mutex(State())

        var fieldsLost: Int { state.withLock { $0.fieldsLost } }
        var conflictsRetried: Int { state.withLock { $0.conflictsRetried } }
        var unknownRefused: Int { state.withLock { $0.unknownRefused } }
        var badBodiesRefused: Int { state.withLock { $0.badBodiesRefused } }
        /// Edits stored in which an old client removed, inserted, moved or renamed attachments
        /// whose captions it cannot see.
        var hiddenListEdits: Int { state.withLock { $0.hiddenListEdits } }
        /// Bodies sent whose attachments carried no version keys.
        var bodiesWithoutPartVersions: Int { state.withLock { $0.bodiesWithoutPartVersions } }

        /// Answers checked against their API version's schema.
        var validated: Int { state.withLock { $0.validated } }
        /// Answers that broke it.
        var invalid: Int { state.withLock { $0.invalid } }

        func lost(_ fields: Int) { state.withLock { $0.fieldsLost += fields } }
        func validated(valid: Bool) {
            state.withLock {
                $0.validated += 1
                if !valid { $0.invalid += 1 }
            }
        }
        func conflict() { state.withLock { $0.conflictsRetried += 1 } }
        func unknownVersion() { state.withLock { $0.unknownRefused += 1 } }
        func badBody() { state.withLock { $0.badBodiesRefused += 1 } }
        func hiddenListEdit() { state.withLock { $0.hiddenListEdits += 1 } }
        func bodyWithoutPartVersions() { state.withLock { $0.bodiesWithoutPartVersions += 1 } }
    }

    /// Runs the load and returns the seconds it took.
    func run() async -> Double {
        let perWorker = max(1, requests / concurrency)
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var client = Client(
                        load: self,
                        worker: worker,
                        version: clientVersions[worker % clientVersions.count],
                        random: SplitMix64(seed: seed &+ UInt64(worker) &* 7_919)
                    )
                    await client.run(quota: perWorker)
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// Every revision of every note, as it must read, and the ids to pick from.
final class RevisionLedger: Sendable {
    private let revisions = Mutex<[String: [Int: Note]]>([:])
    private let ids = Mutex<[String]>([])

    func record(_ note: Note, id: String, revision: Int) {
        revisions.withLock { $0[id, default: [:]][revision] = note }
    }

    func add(_ id: String) {
        ids.withLock { $0.append(id) }
    }

    func randomID(using random: inout SplitMix64, recent: Bool) -> String? {
        ids.withLock { ids in
            guard !ids.isEmpty else { return nil }
            let pool = recent ? ids.suffix(8) : ids[...]
            return pool[pool.index(pool.startIndex, offsetBy: Int.random(in: 0..<pool.count, using: &random))]
        }
    }

    /// The note a revision must hold. The client that wrote it records it as soon as the answer
    /// arrives, which may be just after another client read it: wait a little.
    func expected(_ id: String, revision: Int) async -> Note? {
        for _ in 0..<2000 {
            if let note = revisions.withLock({ $0[id]?[revision] }) {
                return note
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    var noteCount: Int { ids.withLock { $0.count } }
}

/// One client: an API version, and the requests it makes in that version's shape.
struct Client {
    let load: APIVersionsLoad
    let worker: Int
    let version: Int
    var random: SplitMix64
    private var created = 0
    private var sent = 0

    init(load: APIVersionsLoad, worker: Int, version: Int, random: SplitMix64) {
        self.load = load
        self.worker = worker
        self.version = version
        self.random = random
    }

    private var fleet: Fleet { load.fleet }
    private var url: String { load.urls[(worker + sent) % load.urls.count] }
    private var versions: APIVersions { load.versions }
    private static let unknownNames = ["0", "4", "2025-01-01", "latest", " 3.0"]

    mutating func run(quota: Int) async {
        while sent < quota {
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<2: await askUnknownVersion()
            case 2..<3: await sendBadBody()
            case 3..<15: await create()
            case 15..<45: await read()
            case 45..<85: await edit()
            default: await list()
            }
        }
    }

    private mutating func send(
        _ method: HTTPMethodName,
        _ path: String,
        body: Data? = nil,
        headers: [(String, String)] = [],
        versionName: String? = nil
    ) async -> (status: Int, body: Data, etag: Int?)? {
        sent += 1
        let response = await fleet.send(
            method.method,
            url + path,
            body: body,
            headers: [(NotesAPI.versionHeader, versionName ?? String(version))] + headers
        )
        guard let response else { return nil }
        let etag = response.headers.first(name: "ETag").flatMap { Int($0.filter(\.isNumber)) }
        return (response.status, response.body, etag)
    }

    /// A new note, sent as this client's version shows it, half of the time without its version.
    private mutating func create() async {
        created += 1
        let id = "\(load.prefix)\(worker)-\(created)"
        let note = NoteGenerator.note(id: id, revision: created, using: &random)
        let body: Data
        let expected: Note
        do {
            body = try withoutVersionKeys(versions.encode(note, at: APIVersion(version)))
            expected = try JSONDecoder().decode(
                versioned: Note.self,
                from: versions.encode(note, at: APIVersion(version))
            )
        } catch {
            fleet.report(\.failed, "cannot write a note as API version \(version): \(error)")
            return
        }
        guard let response = await send(.put, "/notes/\(id)", body: body, headers: [("If-None-Match", "*")]) else {
            return
        }
        guard response.status == 200, let revision = response.etag else {
            fleet.report(\.failed, "PUT new \(id) at v\(version): \(response.status) \(fleet.text(response.body))")
            return
        }
        load.ledger.record(expected, id: id, revision: revision)
        load.ledger.add(id)
        check(response.body, expected: expected, from: "PUT new \(id)")
    }

    private mutating func read() async {
        guard let id = load.ledger.randomID(using: &random, recent: false) else { return await create() }
        _ = await readChecked(id)
    }

    /// Reads a note at this client's version and checks it against the revision it names.
    private mutating func readChecked(_ id: String) async -> (seen: Note, revision: Int)? {
        guard let response = await send(.get, "/notes/\(id)") else { return nil }
        guard response.status == 200, let revision = response.etag else {
            fleet.report(\.failed, "GET \(id) at v\(version): \(response.status) \(fleet.text(response.body))")
            return nil
        }
        guard let expected = await load.ledger.expected(id, revision: revision) else {
            fleet.report(\.failed, "GET \(id): revision \(revision) is not in the ledger")
            return nil
        }
        return check(response.body, expected: expected, from: "GET \(id)").map { ($0, revision) }
    }

    /// Edits what this client's version shows of a note, over the revision it read; reads it
    /// again and retries when another client's edit came first.
    private mutating func edit() async {
        let recent = Bool.random(using: &random)
        guard let id = load.ledger.randomID(using: &random, recent: recent) else { return await create() }
        for attempt in 0..<10 {
            guard let (seen, revision) = await readChecked(id) else { return }
            guard let base = await load.ledger.expected(id, revision: revision) else { return }
            let fresh = NoteGenerator.note(id: id, revision: worker * 1_000_000 + attempt, using: &random)
            var changed = seen
            if Bool.random(using: &random) { changed.title = fresh.title }
            if Bool.random(using: &random) { changed.body = fresh.body }
            if Bool.random(using: &random) { changed.tags = fresh.tags }
            var listEdited = false
            if version >= 2, Bool.random(using: &random) {
                listEdited = editAttachments(&changed.attachments, of: id)
            }
            if version >= 3 {
                if Bool.random(using: &random) { changed.pinned.toggle() }
                if Bool.random(using: &random) { changed.checklist = fresh.checklist }
                if !changed.attachments.isEmpty, Bool.random(using: &random) {
                    let index = Int.random(in: 0..<changed.attachments.count, using: &random)
                    changed.attachments[index].wrappedValue.caption = "\(worker)-\(attempt)-\(random.next() % 1000)"
                }
            }
            let body: Data
            do {
                body = try withoutVersionKeys(versions.encode(changed, at: APIVersion(version)))
            } catch {
                fleet.report(\.failed, "cannot write \(id) as API version \(version): \(error)")
                return
            }
            guard
                let response = await send(.put, "/notes/\(id)", body: body, headers: [("If-Match", "\"\(revision)\"")])
            else { return }
            switch response.status {
            case 200:
                guard let written = response.etag else {
                    fleet.report(\.failed, "PUT \(id): no ETag")
                    return
                }
                let expected = applied(changed, over: base)
                load.ledger.record(expected, id: id, revision: written)
                if listEdited, version < 3, base.attachments.contains(where: { $0.wrappedValue.caption != nil }) {
                    load.counts.hiddenListEdit()
                }
                check(response.body, expected: expected, from: "PUT \(id)")
                return
            case 412:
                load.counts.conflict()
            default:
                fleet.report(\.failed, "PUT \(id) at v\(version): \(response.status) \(fleet.text(response.body))")
                return
            }
        }
        fleet.report(\.failed, "PUT \(id) at v\(version): ten conflicts in a row")
    }

    /// Removes, inserts, moves or renames attachments of note `id` as a client would; whether
    /// it did. A new attachment has an address no other attachment of the note has had.
    private mutating func editAttachments(_ attachments: inout [Versioned<Attachment>], of id: String) -> Bool {
        let before = attachments.map(\.wrappedValue)
        let added = Versioned(
            Attachment(fileName: "added.txt", href: "/files/\(id)/w\(worker)-\(random.next() % 1_000_000_000)")
        )
        switch Int.random(in: 0..<5, using: &random) {
        case 0 where !attachments.isEmpty:
            attachments.remove(at: Int.random(in: 0..<attachments.count, using: &random))
        case 1:
            attachments.insert(added, at: Int.random(in: 0...attachments.count, using: &random))
        case 2 where attachments.count > 1:
            attachments.swapAt(0, attachments.count - 1)
        case 3 where !attachments.isEmpty:
            attachments[Int.random(in: 0..<attachments.count, using: &random)].wrappedValue.fileName += "-renamed"
        default:
            // Several at once: the first removed, the rest reversed, a new one in front.
            if !attachments.isEmpty { attachments.removeFirst() }
            attachments.reverse()
            attachments.insert(added, at: 0)
        }
        return attachments.map(\.wrappedValue) != before
    }

    /// The body with the version keys of its attachments, and half of the time its own, left
    /// out, as a client that builds it from its own model sends it.
    private mutating func withoutVersionKeys(_ body: Data) throws -> Data {
        guard Bool.random(using: &random) else { return body }
        var object = try JSONSerialization.jsonObject(with: body) as! [String: Any]
        if Bool.random(using: &random) {
            object["version"] = nil
        }
        if let attachments = object["attachments"] as? [[String: Any]], !attachments.isEmpty {
            object["attachments"] = attachments.map { part in
                var part = part
                part["version"] = nil
                return part
            }
            load.counts.bodyWithoutPartVersions()
        }
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// What the service must store: the revision the edit was made over, with the fields this
    /// client's version shows taken from the client. A client that does not see captions keeps
    /// each attachment's own, found by its address; a new attachment has none.
    private func applied(_ client: Note, over base: Note) -> Note {
        var note = base
        note.title = client.title
        note.body = client.body
        note.tags = client.tags
        if version == 2 {
            note.attachments = client.attachments.map { part in
                var attachment = part.wrappedValue
                attachment.caption =
                    base.attachments.first { $0.wrappedValue.href == attachment.href }?.wrappedValue
                    .caption
                return Versioned(attachment)
            }
        }
        if version >= 3 { note.attachments = client.attachments }
        if version >= 3 {
            note.pinned = client.pinned
            note.checklist = client.checklist
        }
        return note
    }

    private mutating func list() async {
        let after = "\(load.prefix)\(Int.random(in: 0..<load.concurrency, using: &random))-"
        guard let response = await send(.get, "/notes?limit=10&after=\(after)") else { return }
        guard response.status == 200,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let notes = object["notes"] as? [[String: Any]]
        else {
            fleet.report(\.failed, "GET list at v\(version): \(response.status) \(fleet.text(response.body))")
            return
        }
        for entry in notes {
            guard let id = entry["id"] as? String, let revision = entry["revision"] as? Int,
                let note = entry["note"], let body = try? JSONSerialization.data(withJSONObject: note)
            else {
                fleet.report(\.failed, "GET list at v\(version): an entry without a note: \(entry)")
                continue
            }
            guard let expected = await load.ledger.expected(id, revision: revision) else {
                fleet.report(\.failed, "GET list: \(id) revision \(revision) is not in the ledger")
                continue
            }
            check(body, expected: expected, from: "GET list \(id)")
        }
    }

    /// A request at a version the service does not serve: refused with 400, naming the ones it
    /// serves.
    private mutating func askUnknownVersion() async {
        guard let id = load.ledger.randomID(using: &random, recent: false) else { return await create() }
        let name = Self.unknownNames.randomElement(using: &random)!
        guard let response = await send(.get, "/notes/\(id)", versionName: name) else { return }
        if response.status == 400, fleet.text(response.body).contains("1, 2, 3") {
            load.counts.unknownVersion()
        } else {
            fleet.report(\.failed, "GET \(id) at version \"\(name)\": \(response.status) \(fleet.text(response.body))")
        }
    }

    /// A body with a field its version does not have: refused with 400, and nothing stored
    /// changes (the revision it names stays as it was, as the next read checks).
    private mutating func sendBadBody() async {
        guard version < 3, let id = load.ledger.randomID(using: &random, recent: false),
            let (seen, revision) = await readChecked(id)
        else { return }
        do {
            var object =
                try JSONSerialization.jsonObject(with: versions.encode(seen, at: APIVersion(version))) as! [String: Any]
            object["pinned"] = true
            let body = try JSONSerialization.data(withJSONObject: object)
            guard
                let response = await send(.put, "/notes/\(id)", body: body, headers: [("If-Match", "\"\(revision)\"")])
            else { return }
            if response.status == 400, fleet.text(response.body).contains("pinned") {
                load.counts.badBody()
            } else {
                fleet.report(
                    \.failed,
                    "PUT \(id) with a field v\(version) lacks: \(response.status) \(fleet.text(response.body))"
                )
            }
        } catch {
            fleet.report(\.failed, "cannot write \(id): \(error)")
        }
    }

    /// Compares an answer with what its revision holds, for the fields this client's version
    /// shows, and returns it as read; first checks it against the schema of its API version.
    @discardableResult
    private func check(_ body: Data, expected: Note, from request: String) -> Note? {
        validate(body, from: request)
        let read: Versioned<Note>
        do {
            read = try JSONDecoder().decodeWithStoredVersion(Note.self, from: body)
        } catch {
            fleet.report(\.unreadable, "\(request) at v\(version): the answer does not decode: \(error)")
            return nil
        }
        if read.storedVersion != version {
            fleet.report(\.failed, "\(request): answered as v\(read.storedVersion ?? 0), asked for v\(version)")
        }
        let note = read.wrappedValue
        var differing: [String] = []
        if note.title != expected.title { differing.append("title") }
        if note.body != expected.body { differing.append("body") }
        if note.tags != expected.tags { differing.append("tags") }
        // Version 2 shows attachments without captions; version 3 shows the captions, and a
        // caption that moved to another attachment, or went, is a field lost.
        if version >= 2,
            note.attachments.map({ [$0.wrappedValue.fileName, $0.wrappedValue.href] })
                != expected.attachments.map({ [$0.wrappedValue.fileName, $0.wrappedValue.href] })
        {
            differing.append("attachments")
        }
        if version >= 3,
            note.attachments.map(\.wrappedValue.caption) != expected.attachments.map(\.wrappedValue.caption)
        {
            differing.append("captions")
        }
        if version >= 3 {
            if note.pinned != expected.pinned { differing.append("pinned") }
            if note.checklist != expected.checklist { differing.append("checklist") }
        }
        if !differing.isEmpty {
            load.counts.lost(differing.count)
            fleet.report(\.lost, "\(request) at v\(version): \(differing.joined(separator: ", ")) not as written")
        }
        return note
    }
}

extension Client {
    /// Checks a note the service answered against the note's schema in the OpenAPI document of
    /// this client's API version, as the service serves it.
    fileprivate func validate(_ body: Data, from request: String) {
        guard let schema = load.schemas[version] else {
            load.counts.validated(valid: false)
            fleet.report(\.failed, "\(request) at v\(version): the service served no schema for this version")
            return
        }
        let problems: [SchemaViolation]
        do {
            problems = try schema.violations(in: body)
        } catch {
            load.counts.validated(valid: false)
            fleet.report(\.failed, "\(request) at v\(version): the answer is not JSON: \(error)")
            return
        }
        load.counts.validated(valid: problems.isEmpty)
        if !problems.isEmpty {
            let listed = problems.prefix(3).map(\.description).joined(separator: "; ")
            fleet.report(\.failed, "\(request) at v\(version): the answer breaks its schema: \(listed)")
        }
    }
}

/// The note's schema at each API version, read from the OpenAPI documents the service serves.
func servedNoteSchemas(from url: String, versions: APIVersions, fleet: Fleet) async -> [Int: JSONSchema] {
    var schemas: [Int: JSONSchema] = [:]
    for version in versions.versions {
        guard let number = Int(version.name) else { continue }
        let path = NotesAPI.openAPIPath(of: version)
        guard let response = await fleet.send(.GET, url + path), response.status == 200 else {
            fleet.report(\.failed, "GET \(path) did not answer the API version's OpenAPI document")
            continue
        }
        do {
            let document = try JSONDecoder().decode(OpenAPIDocument.self, from: response.body)
            guard document.openapi == OpenAPIDocument.openAPIVersion, document.info.version == version.name else {
                fleet.report(\.failed, "GET \(path) answered OpenAPI \(document.openapi) for \(document.info.version)")
                continue
            }
            schemas[number] = try document.schema(named: OpenAPIDocument.componentName(of: Note.self))
        } catch {
            fleet.report(\.failed, "GET \(path): \(error)")
        }
    }
    return schemas
}

enum HTTPMethodName {
    case get, put

    var method: HTTPMethod { self == .get ? .GET : .PUT }
}
