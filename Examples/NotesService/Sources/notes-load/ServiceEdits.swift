import Foundation
import NotesModel
import Synchronization
import VersionedCodable

/// Edits notes through the service while a store-wide upgrade runs: each writer owns a share of
/// the notes, reads one (a read may upgrade it on the way), changes it, writes it back as a
/// version 3 client, and, once the service has answered, appends what it sent to the ledger
/// file, one JSON line per write. One writer per note, so a note's last line is its last write.
struct ServiceEdits {
    struct Line: Codable {
        var id: String
        var body: String
    }

    let fleet: Fleet

    func run(
        instances: [Instance],
        ids: [String],
        ledger: URL,
        stopFile: String,
        writers: Int,
        seed: UInt64
    ) async throws -> Int {
        // A file that cannot be made is reported by the FileHandle below.
        _ = FileManager.default.createFile(atPath: ledger.path, contents: nil)
        let file = LedgerFile(handle: try FileHandle(forWritingTo: ledger))
        let written = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                let share = ids.enumerated().filter { $0.offset % writers == writer }.map(\.element)
                group.addTask {
                    var random = SplitMix64(seed: seed &+ UInt64(writer))
                    var writes = 0
                    while !FileManager.default.fileExists(atPath: stopFile),
                        let id = share.randomElement(using: &random)
                    {
                        let instance = instances[writes % instances.count]
                        guard let answer = await fleet.send(.GET, instance.url + "/notes/" + id, version: 3),
                            answer.status == 200
                        else { continue }
                        var note = try JSONDecoder().decode(versioned: Note.self, from: answer.body)
                        note.title = "Note \(id), edited through the service \(writer)-\(writes)"
                        note.pinned.toggle()
                        guard await fleet.write(note, id: id, to: instance, version: 3) else { continue }
                        let body = String(decoding: try JSONEncoder().encode(versioned: note), as: UTF8.self)
                        var line = try JSONEncoder().encode(Line(id: id, body: body))
                        line.append(0x0A)
                        file.append(line)
                        writes += 1
                    }
                    return writes
                }
            }
            return try await group.reduce(0, +)
        }
        try file.close()
        return written
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
