import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NotesModel
import Synchronization
import VersionedCodable

/// A running instance of the service, as the load balancer knows it.
struct Instance: Sendable, CustomStringConvertible {
    var url: String
    /// The newest API version the instance's build answers in.
    var newestVersion: Int

    var description: String { "\(url) (v\(newestVersion))" }
}

/// The HTTP side of the load generator: each call checks its answer and counts what it found.
final class Fleet: Sendable {
    let client: HTTPClient
    let timeout: TimeAmount = .seconds(10)
    private let counts = Mutex(Totals())
    private let messages = Mutex<[String]>([])

    init(connectionsPerInstance: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(30),
            concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerInstance
        )
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    var totals: Totals { counts.withLock { $0 } }

    /// The first problems found, for the report.
    var problems: [String] { messages.withLock { $0 } }

    func count(_ update: (inout Totals) -> Void) {
        counts.withLock { update(&$0) }
    }

    func report(_ kind: WritableKeyPath<Totals, Int>, _ message: String) {
        counts.withLock { $0[keyPath: kind] += 1 }
        messages.withLock { if $0.count < 20 { $0.append(message) } }
    }

    /// Sends a request and returns its status and body; `nil` after a transport error, which
    /// is counted as a failure.
    func send(
        _ method: HTTPMethod,
        _ url: String,
        version: Int? = nil,
        body: Data? = nil,
        headers: [(String, String)] = []
    ) async -> (status: Int, body: Data, headers: HTTPHeaders)? {
        count { $0.requests += 1 }
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let version {
            request.headers.add(name: NotesAPI.versionHeader, value: String(version))
        }
        for (name, value) in headers {
            request.headers.add(name: name, value: value)
        }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(request, timeout: timeout)
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return (Int(response.status.code), Data(bytes.readableBytesView), response.headers)
        } catch {
            report(\.failed, "\(method) \(url): \(error)")
            return nil
        }
    }

    /// Reads a note as an API version and checks that it is readable and, when `expected` is
    /// given, that it is the expected note as that version shows it.
    func read(_ id: String, from instance: Instance, version: Int, expected: Expected?, plain: Bool = false) async {
        let url = instance.url + (plain ? "/plain/notes/" : "/notes/") + id
        guard let response = await send(.GET, url, version: plain ? nil : version) else { return }
        switch response.status {
        case 200:
            break
        case 500...:
            report(\.unreadable, "GET \(url) as v\(version): \(response.status) \(text(response.body))")
            return
        case 404:
            report(\.lost, "GET \(url): the note is gone")
            return
        default:
            report(\.failed, "GET \(url) as v\(version): \(response.status) \(text(response.body))")
            return
        }
        check(response.body, from: "GET \(url)", version: version, expected: expected, plain: plain)
    }

    /// Writes a note as an API version and checks the answer.
    func write(_ note: Note, id: String, to instance: Instance, version: Int, plain: Bool = false) async -> Bool {
        let url = instance.url + (plain ? "/plain/notes/" : "/notes/") + id
        let body: Data
        do {
            body = plain ? try JSONEncoder().encode(note) : try NotesAPI.encode(note, asAPIVersion: version)
        } catch {
            report(\.failed, "cannot write note \(id) as v\(version): \(error)")
            return false
        }
        guard let response = await send(.PUT, url, version: plain ? nil : version, body: body) else { return false }
        guard response.status == 200 else {
            report(\.failed, "PUT \(url) as v\(version): \(response.status) \(text(response.body))")
            return false
        }
        // The answer says which version the note was stored as before this edit.
        let storedVersion = response.headers.first(name: NotesAPI.storedVersionHeader).flatMap { Int($0) }
        if let storedVersion, storedVersion > instance.newestVersion {
            count { $0.newerEditedByOld += 1 }
        }
        check(response.body, from: "PUT \(url)", version: version, expected: Expected(note: note), plain: plain)
        return true
    }

    private func check(_ body: Data, from request: String, version: Int, expected: Expected?, plain: Bool) {
        let read: Versioned<Note>
        do {
            if plain {
                read = Versioned(try JSONDecoder().decode(Note.self, from: body))
            } else {
                read = try JSONDecoder().decodeWithStoredVersion(Note.self, from: body)
            }
        } catch {
            report(\.unreadable, "\(request): the answer does not decode: \(error)")
            return
        }
        if !plain, read.storedVersion != version {
            report(\.failed, "\(request): answered as v\(read.storedVersion ?? 0), asked for v\(version)")
        }
        guard let expected, let note = expected.note else { return }
        do {
            let seen = try asSeen(note, byAPIVersion: version)
            let answered = read.wrappedValue
            if answered == seen {
                if expected.editedByOldBuild, seen.hasVersion3Fields {
                    count { $0.unknownFieldsKept += 1 }
                }
            } else if answered.withoutVersion3Fields == seen.withoutVersion3Fields {
                report(
                    \.unknownFieldsLost,
                    "\(request) as v\(version): pinned \(answered.pinned), checklist \(answered.checklist), not the "
                        + "pinned \(seen.pinned), checklist \(seen.checklist) a version 3 client wrote"
                )
            } else {
                report(\.lost, "\(request) as v\(version): \(answered) is not the expected \(seen)")
            }
        } catch {
            report(\.failed, "\(request): cannot compute the expected note: \(error)")
        }
    }

    func text(_ data: Data) -> String {
        String(decoding: data.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func shutdown() async throws {
        try await client.shutdown()
    }
}
