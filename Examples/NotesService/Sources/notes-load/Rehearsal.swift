import Foundation
import NotesModel
import VersionedCodable

struct Settings {
    var notes: Int
    var requests: Int
    var compare: Int
    var concurrency: Int
    var seconds: Double
    var seed: UInt64
}

/// The two halves of the deploy rehearsal, one per run of the load generator.
struct Rehearsal {
    var fleet: Fleet
    var settings: Settings

    /// Before the deploy finishes: two old instances and a new one. The new one stores notes as
    /// version 3 from the start, which old instances read and edit, keeping the fields they do
    /// not know; it stores attachments as version 1, which is all old instances read.
    func mixed(old: [Instance], new: [Instance], ledgerURL: URL) async throws -> Bool {
        let instances = old + new
        print("Mixed fleet: \(instances.map(\.description).joined(separator: ", "))")
        var ledger = Ledger()
        var random = SplitMix64(seed: settings.seed)
        for index in 0..<settings.notes {
            let id = "n\(index)"
            let note = NoteGenerator.note(id: id, revision: 0, using: &random)
            // A third stored as version 1 and a third as version 2, as older releases left
            // them, restored through an old instance; the rest written by version 2 clients,
            // through the new instance, which stores them as version 3.
            let storedVersion = index % 3 == 0 ? 1 : 2
            let instance = instances[index % instances.count]
            if index % 3 == 2 {
                if await fleet.write(note, id: id, to: instance, version: 2) {
                    ledger.notes[id] = Expected(note: try asSeen(note, byAPIVersion: 2))
                }
            } else {
                let body = try NotesAPI.encode(note, asAPIVersion: storedVersion)
                let response = await fleet.send(.PUT, old[index % old.count].url + "/admin/raw/" + id, body: body)
                if response?.status == 200 {
                    ledger.notes[id] = Expected(note: try asSeen(note, byAPIVersion: storedVersion))
                } else if let response {
                    fleet.report(\.failed, "restoring \(id): \(response.status) \(fleet.text(response.body))")
                }
            }
        }
        print("Seeded \(ledger.notes.count) notes; stored versions: \(await storedVersionList(on: new[0])).")

        // The old build refuses what it cannot answer in, loudly, instead of guessing; and a
        // version 3 note from a client, whose fields it could only carry, not understand.
        let note = ledger.notes["n0"]?.note ?? NoteGenerator.note(id: "n0", revision: 0, using: &random)
        let asked = await fleet.send(.GET, old[0].url + "/notes/n0", version: 3)
        let sent = await fleet.send(
            .PUT,
            old[0].url + "/notes/refused",
            body: try NotesAPI.encode(note, asAPIVersion: 3)
        )
        if asked?.status != 400 || sent?.status != 400 {
            fleet.report(
                \.failed,
                "an old instance answered \(asked?.status ?? 0) to v3 and \(sent?.status ?? 0) to a v3 note"
            )
        } else {
            print("Old instances refuse version 3 clients: 400 for API version 3, 400 for a version 3 note.")
        }

        var expected = ledger.notes
        let load = Load(
            fleet: fleet,
            instances: instances,
            clientVersions: [1, 2, 3],
            requests: settings.requests,
            concurrency: settings.concurrency,
            seconds: settings.seconds,
            seed: settings.seed &+ 1
        )
        let before = fleet.totals.requests
        let result = await load.run(expecting: expected)
        expected = result.notes
        print(rate("Load on the mixed fleet", fleet.totals.requests - before, result.seconds))
        await sweep(expected, through: instances)

        ledger.notes = expected
        ledger.totals = fleet.totals
        try ledger.save(to: ledgerURL)
        printProblems()
        print(figures("Mixed phase", ledger.totals))
        return ledger.totals.problems == 0
    }

    /// After the deploy: new instances only, the setting flipped.
    func upgraded(new: [Instance], ledgerURL: URL) async throws -> Bool {
        var ledger = try Ledger.load(from: ledgerURL)
        print("Upgraded fleet: \(new.map(\.description).joined(separator: ", "))")
        try await waitForSetting(on: new)

        var expected = ledger.notes
        let load = Load(
            fleet: fleet,
            instances: new,
            clientVersions: [1, 2, 3],
            requests: settings.requests,
            concurrency: settings.concurrency,
            seconds: settings.seconds,
            seed: settings.seed &+ 2
        )
        var before = fleet.totals.requests
        let result = await load.run(expecting: expected)
        expected = result.notes
        print(rate("Load on the upgraded fleet", fleet.totals.requests - before, result.seconds))
        await sweep(expected, through: new)
        let notAtNewest = await storedVersions(on: new[0])

        // The same load, newest clients only, through the versioned and the plain handlers,
        // alternating in rounds so that both see the same machine state.
        _ = await fleet.send(.POST, new[0].url + "/admin/copy-to-plain")
        var plainExpected = expected
        var versionedSeconds = 0.0
        var plainSeconds = 0.0
        var versionedRequests = 0
        var plainRequests = 0
        let rounds = 6
        for round in 0..<rounds {
            for plain in [false, true] {
                var compare = load
                compare.clientVersions = [3]
                compare.requests = settings.compare / rounds
                compare.seed = settings.seed &+ 100 &+ UInt64(round)
                compare.plain = plain
                before = fleet.totals.requests
                let measured = await compare.run(expecting: plain ? plainExpected : expected)
                let sent = fleet.totals.requests - before
                if plain {
                    plainExpected = measured.notes
                    plainSeconds += measured.seconds
                    plainRequests += sent
                } else {
                    expected = measured.notes
                    versionedSeconds += measured.seconds
                    versionedRequests += sent
                }
            }
        }
        let versionedRate = Double(versionedRequests) / versionedSeconds
        let plainRate = Double(plainRequests) / plainSeconds
        print(rate("Versioned handlers", versionedRequests, versionedSeconds))
        print(rate("Plain Codable handlers", plainRequests, plainSeconds))
        print(String(format: "Versioned throughput is %.2fx the plain one.", versionedRate / plainRate))

        let phaseTotals = fleet.totals
        print(figures("Upgraded phase", phaseTotals))
        let totals = ledger.totals + phaseTotals
        ledger.totals = totals
        ledger.notes = expected
        try ledger.save(to: ledgerURL)
        printProblems()
        print("Notes or attachments not stored as the newest version at the end: \(notAtNewest)")
        print(
            "fleet: \(totals.requests) requests, \(totals.failed) failed, \(totals.lost) lost, "
                + "\(totals.unreadable) unreadable, \(totals.newerEditedByOld) newer notes edited by old builds, "
                + "\(totals.unknownFieldsLost) unknown fields lost, \(Int(versionedRate.rounded())) requests/s "
                + "versioned vs \(Int(plainRate.rounded())) plain"
        )
        return totals.problems == 0 && notAtNewest == 0
    }

    /// Reads every note through every instance, in the newest version each answers in.
    private func sweep(_ expected: [String: Expected], through instances: [Instance]) async {
        let before = fleet.totals
        for instance in instances {
            for id in expected.keys.sorted() {
                await fleet.read(id, from: instance, version: instance.newestVersion, expected: expected[id])
            }
        }
        let after = fleet.totals
        print(
            "Swept \(expected.count) notes through \(instances.count) instances: "
                + "\(after.unreadable - before.unreadable) unreadable, \(after.lost - before.lost) lost, "
                + "\(after.failed - before.failed) failed, "
                + "\(after.unknownFieldsLost - before.unknownFieldsLost) unknown fields lost."
        )
    }

    /// Waits, at most ten seconds, until every instance stores the newest versions.
    private func waitForSetting(on instances: [Instance]) async throws {
        let newest = NotesAPI.storage(whileOldestBuildKnows: NotesAPI.newestVersion)
        let stores = "stores=note \(newest.noteVersion), attachment \(newest.attachmentVersion)"
        for _ in 0..<100 {
            var ready = 0
            for instance in instances {
                let response = await fleet.send(.GET, instance.url + "/health")
                if let response, fleet.text(response.body).hasSuffix(stores) {
                    ready += 1
                }
            }
            if ready == instances.count {
                print(
                    "Every instance stores notes as version \(newest.noteVersion) and attachments as version "
                        + "\(newest.attachmentVersion)."
                )
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        fleet.report(\.failed, "the instances did not see the flipped setting within 10 s")
    }

    /// How many notes, and attachments inside them, are stored as another version than the
    /// newest.
    private func storedVersions(on instance: Instance) async -> Int {
        let text = await storedVersionList(on: instance)
        print("Stored versions after the sweep: \(text)")
        let newest = NotesAPI.storage(whileOldestBuildKnows: NotesAPI.newestVersion)
        // "1=3 3=117; attachments 1=2 2=150"
        let lists = text.split(separator: ";")
        guard lists.count == 2 else { return -1 }
        func behind(_ list: Substring, newest: Int) -> Int {
            list.split(separator: " ").reduce(0) { behind, pair in
                let parts = pair.split(separator: "=")
                guard parts.count == 2, parts[0] != "\(newest)" else { return behind }
                return behind + (Int(parts[1]) ?? 0)
            }
        }
        return behind(lists[0], newest: newest.noteVersion) + behind(lists[1], newest: newest.attachmentVersion)
    }

    /// The service's count of notes and attachments stored as each version.
    private func storedVersionList(on instance: Instance) async -> String {
        guard let response = await fleet.send(.GET, instance.url + "/admin/stored-versions") else {
            return "unknown"
        }
        return fleet.text(response.body)
    }

    private func printProblems() {
        for problem in fleet.problems {
            print("  problem: \(problem)")
        }
    }

    private func rate(_ label: String, _ requests: Int, _ seconds: Double) -> String {
        String(
            format: "%@: %d requests in %.2f s, %.0f requests/s.",
            label,
            requests,
            seconds,
            Double(requests) / seconds
        )
    }

    private func figures(_ label: String, _ totals: Totals) -> String {
        "\(label): \(totals.requests) requests, \(totals.failed) failed, \(totals.lost) lost, "
            + "\(totals.unreadable) unreadable, \(totals.newerEditedByOld) newer notes edited by old builds, "
            + "\(totals.unknownFieldsLost) unknown fields lost; \(totals.unknownFieldsKept) answers showed the "
            + "version 3 fields kept through old builds' edits."
    }
}
