import Foundation
import NotesModel
import Synchronization
import VersionedCodable

/// Edits notes through the service while a store-wide upgrade runs. Each build of the fleet
/// edits a share of the notes of its own, as a client of its newest API version: a writer reads
/// a note (a read may upgrade it on the way), changes it, writes it back, and, once the service
/// has answered, appends what it sent to the ledger file, one JSON line per write. One writer
/// per note, so a note's last line is its last write.
struct ServiceEdits {
    struct Line: Codable {
        var id: String
        /// The note as sent, in the client's API version: read through the chain, it is the
        /// value the store must give back.
        var body: String
        /// The version the build that took the write stores the note as: its newest, since
        /// the notes a build edits here were never stored as a newer one.
        var version: Int
    }

    /// The notes one instance edits.
    struct Share {
        var instance: Instance
        var ids: [String]
    }

    let fleet: Fleet

    /// Runs `writers` writers on each share until the stop file appears; returns the writes made.
    func run(
        shares: [Share],
        ledger: URL,
        stopFile: String,
        writers: Int,
        seed: UInt64
    ) async throws -> Int {
        // A file that cannot be made is reported by the FileHandle below.
        _ = FileManager.default.createFile(atPath: ledger.path, contents: nil)
        let file = LedgerFile(handle: try FileHandle(forWritingTo: ledger))
        let written = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, share) in shares.enumerated() {
                for writer in 0..<writers {
                    let ids = share.ids.enumerated().filter { $0.offset % writers == writer }.map(\.element)
                    let name = "\(index)-\(writer)"
                    let seed = seed &+ UInt64(index * writers + writer)
                    group.addTask {
                        try await edit(ids, through: share.instance, name: name, seed: seed, stopFile, file)
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        try file.close()
        return written
    }

    private func edit(
        _ ids: [String],
        through instance: Instance,
        name: String,
        seed: UInt64,
        _ stopFile: String,
        _ file: LedgerFile
    ) async throws -> Int {
        var random = SplitMix64(seed: seed)
        let version = instance.newestVersion
        var writes = 0
        while !FileManager.default.fileExists(atPath: stopFile), let id = ids.randomElement(using: &random) {
            let url = instance.url + "/notes/" + id
            // A transport error is counted by `send`; an answer other than the note is a failure
            // too, so that a note the build cannot read is not quietly left out of the edits.
            guard let answer = await fleet.send(.GET, url, version: version) else { continue }
            guard answer.status == 200 else {
                fleet.report(\.failed, "GET \(url) as v\(version): \(answer.status) \(fleet.text(answer.body))")
                continue
            }
            var note = try JSONDecoder().decode(versioned: Note.self, from: answer.body)
            note.title = "Note \(id), edited through the service \(name)-\(writes)"
            // A client of version 2 is never shown `pinned`: it changes only what it sees.
            if version >= 3 {
                note.pinned.toggle()
            }
            guard await fleet.write(note, id: id, to: instance, version: version) else { continue }
            let body = String(decoding: try NotesAPI.encode(note, asAPIVersion: version), as: UTF8.self)
            var line = try JSONEncoder().encode(Line(id: id, body: body, version: version))
            line.append(0x0A)
            file.append(line)
            writes += 1
        }
        return writes
    }
}

/// The ledger file, written by every writer task in turn.
final class LedgerFile: Sendable {
    private let handle: Mutex<FileHandle>

    init(handle: FileHandle) {
        self.handle = Mutex(handle)
    }

    func append(_ line: Data) {
        handle.withLock { $0.write(line) }
    }

    func close() throws {
        try handle.withLock { try $0.close() }
    }
}
