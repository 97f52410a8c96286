import Foundation
import NotesModel
import VersionedCodable

/// A bounded, concurrent load: `concurrency` workers, each owning the notes whose index falls
/// to it, sending reads and writes of random API versions to the instances that answer in
/// them, until the requests are sent or the time is up.
struct Load {
    var fleet: Fleet
    var instances: [Instance]
    var clientVersions: [Int]
    var requests: Int
    var concurrency: Int
    var seconds: Double
    var seed: UInt64
    var plain = false

    /// Runs the load and returns the expected notes after it, and the time it took.
    func run(expecting notes: [String: Expected]) async -> (notes: [String: Expected], seconds: Double) {
        let ids = notes.keys.sorted { index(of: $0) < index(of: $1) }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let perWorker = max(1, requests / concurrency)
        let start = ContinuousClock.now
        let updated = await withTaskGroup(of: [String: Expected].self) { group in
            for worker in 0..<concurrency {
                let owned = ids.enumerated().filter { $0.offset % concurrency == worker }.map(\.element)
                var mine: [String: Expected] = [:]
                for id in owned { mine[id] = notes[id] ?? Expected(note: nil) }
                group.addTask {
                    await runWorker(
                        worker,
                        owned: owned,
                        expected: mine,
                        all: ids,
                        quota: perWorker,
                        deadline: deadline
                    )
                }
            }
            var merged = notes
            for await part in group {
                merged.merge(part) { _, new in new }
            }
            return merged
        }
        let elapsed = ContinuousClock.now - start
        return (updated, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func runWorker(
        _ worker: Int,
        owned: [String],
        expected: [String: Expected],
        all: [String],
        quota: Int,
        deadline: ContinuousClock.Instant
    ) async -> [String: Expected] {
        var random = SplitMix64(seed: seed &+ UInt64(worker) &* 1_000_003)
        var expected = expected
        var revision = 0
        for operation in 0..<quota where ContinuousClock.now < deadline {
            let version = clientVersions.randomElement(using: &random)!
            let eligible = instances.filter { $0.newestVersion >= version }
            let instance = eligible[(operation + worker) % eligible.count]
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 35, let id = owned.randomElement(using: &random) {
                revision += 1
                let note = NoteGenerator.note(id: id, revision: worker * 1_000_000 + revision, using: &random)
                let before = expected[id] ?? Expected(note: nil)
                if await fleet.write(note, id: id, to: instance, version: version, plain: plain) {
                    if plain {
                        expected[id] = Expected(note: note)
                    } else {
                        let oldBuild = instance.newestVersion < NotesAPI.newestVersion
                        expected[id] =
                            (try? before.written(note, asAPIVersion: version, byOldBuild: oldBuild))
                            ?? Expected(note: nil)
                    }
                } else {
                    // The write may or may not have landed: stop comparing until the next one.
                    expected[id] = Expected(note: nil)
                }
            } else if roll < 80, let id = owned.randomElement(using: &random) {
                await fleet.read(id, from: instance, version: version, expected: expected[id], plain: plain)
            } else if let id = all.randomElement(using: &random) {
                await fleet.read(id, from: instance, version: version, expected: nil, plain: plain)
            }
        }
        return expected
    }

    private func index(of id: String) -> Int {
        Int(id.dropFirst()) ?? 0
    }
}
