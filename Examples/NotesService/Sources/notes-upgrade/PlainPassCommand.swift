import ArgumentParser
import Foundation
import NotesModel
import NotesStore
import VersionedCodableStore

/// Reads every note of a share and writes it back with plain `Codable`, through the same store
/// and the same compare-and-set commits as the upgrade: what a store-wide rewrite costs
/// without versioning. Notes that are not of the current version, or do not decode plainly,
/// are left alone, as a plain program would have to.
struct PlainPassCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plain-pass",
        abstract: "Read and write back every current note with plain Codable: the fault test's measure of the upgrade.",
        discussion: """
            Goes through the same store and the same compare-and-set commits as the upgrade, \
            writing every note of the current version back as it was read. Notes of other \
            versions, or that do not decode plainly, are left alone.
            """
    )

    @OptionGroup var pass: PassOptions

    mutating func validate() throws {
        _ = try checkedUpgradeSettings(batchSize: pass.batchSize)
    }

    func run() async throws {
        let share = pass.share
        let batchSize = pass.batchSize
        let output = ProgressOutput(logLines: pass.logLines)
        let name = "plain-pass-share-\(share.index + 1)-of-\(share.count)"
        let (done, written, conflicts) = try await Tool.withDatabase { client in
            let store = PostgresNoteStore(client: client, share: share, logger: Tool.logger)
            let decoder = JSONDecoder()
            let encoder = JSONEncoder()
            var position: String?
            var done = 0
            var written = 0
            var conflicts = 0
            let started = ProcessInfo.processInfo.systemUptime
            let expected = try await store.countOfDocuments(after: nil)
            while true {
                let page = try await store.documents(after: position, limit: batchSize)
                guard let last = page.last else { break }
                func rewrite(_ document: StoredDocument<String, Int>) -> DocumentWrite<String, Int>? {
                    guard let note = try? decoder.decode(PlainNote.self, from: document.data),
                        note.version == Note.version,
                        let data = try? encoder.encode(note)
                    else { return nil }
                    return DocumentWrite(
                        key: document.key,
                        readRevision: document.revision,
                        data: data,
                        version: note.version
                    )
                }
                var writes = page.compactMap(rewrite)
                let checkpoint = UpgradeCheckpoint(name: name, position: last.key, isFinished: false)
                var changed = try await store.commit(writes, checkpoint: checkpoint)
                while !changed.isEmpty {
                    conflicts += changed.count
                    let moved = Set(changed)
                    writes.removeAll { moved.contains($0.key) }
                    for key in changed {
                        if let now = try await store.document(at: key), let write = rewrite(now) {
                            writes.append(write)
                        }
                    }
                    changed = try await store.commit(writes, checkpoint: checkpoint)
                }
                done += page.count
                written += writes.count
                position = last.key
                let elapsed = ProcessInfo.processInfo.systemUptime - started
                output.show(
                    UpgradeProgress(
                        done: done,
                        remaining: max(0, expected - done),
                        upgraded: written,
                        conflictsRetried: conflicts,
                        documentsPerSecond: elapsed > 0 ? Double(done) / elapsed : 0,
                        elapsedSeconds: elapsed
                    )
                )
            }
            return (done, written, conflicts)
        }
        output.finish(done: done, upgraded: written, conflicts: conflicts)
        print("plain pass: read \(done), wrote back \(written), \(conflicts) conflicts retried")
    }
}
