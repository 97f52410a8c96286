import Foundation
import NotesModel
import VersionedCodable
import VersionedCodableAPI

// Drives the notes fleet through a rolling deploy and checks it against a ledger.
//
//   notes-load mixed --old URL,URL --new URL --ledger FILE [options]
//       seeds the notes (some stored as versions 1 and 2, as older systems left them), checks
//       that old instances refuse version 3 clients, runs the load on the mixed fleet, in which
//       old instances edit the version 3 notes the new one stores, and sweeps every note
//       through every instance.
//   notes-load upgraded --new URL,URL,URL --ledger FILE [options]
//       after the deploy: waits for every instance to see the flipped setting, runs the load,
//       sweeps, checks that every note and attachment is stored as the newest version, then
//       runs the same load against the versioned and the plain handlers and prints the summary
//       line.
//
//   notes-load edits [--old URL --old-ids FILE] [--new URL --new-ids FILE] --ledger FILE
//                    --stop-file FILE [--writers N]
//       edits the listed notes through the service until the stop file appears, each build its
//       own list, with N writers each, appending each write to the ledger file: the live load
//       of the upgrade fault test.
//
//   notes-load api-versions --new URL,URL [--requests N] [--concurrency N] [--seed N]
//       clients at API versions 1, 2 and 3 at once create, read, edit and list notes, each in
//       its own version's shape, checked against a ledger of every revision; then the same load
//       with every client at the newest version, for the rate to compare with. Prints the
//       summary line.
//
// Options: --notes N (120), --requests N per load (4000), --compare N per handler (2000),
// --concurrency N (12), --seconds S per load (60), --seed N (16).

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
func number(_ name: String, _ fallback: Int) -> Int { option(name).flatMap(Int.init) ?? fallback }
func urls(_ name: String, version: Int) -> [Instance] {
    (option(name) ?? "").split(separator: ",").map { Instance(url: String($0), newestVersion: version) }
}

if arguments.first == "edits" {
    let editsUsage =
        "usage: notes-load edits [--old URL --old-ids FILE] [--new URL --new-ids FILE] --ledger FILE "
        + "--stop-file FILE [--writers N] [--seed N]"
    guard let ledgerPath = option("ledger"), let stopFile = option("stop-file") else {
        print(editsUsage)
        exit(2)
    }
    var shares: [ServiceEdits.Share] = []
    for (build, version) in [("old", 2), ("new", 3)] {
        guard let url = option(build) else { continue }
        guard let idsPath = option(build + "-ids") else {
            print(editsUsage)
            exit(2)
        }
        let ids = try String(contentsOfFile: idsPath, encoding: .utf8).split(separator: "\n").map(String.init)
        shares.append(ServiceEdits.Share(instance: Instance(url: url, newestVersion: version), ids: ids))
    }
    guard !shares.isEmpty else {
        print(editsUsage)
        exit(2)
    }
    let fleet = Fleet(connectionsPerInstance: 4)
    let edits = try await ServiceEdits(fleet: fleet).run(
        shares: shares,
        ledger: URL(fileURLWithPath: ledgerPath),
        stopFile: stopFile,
        writers: number("writers", 2),
        seed: UInt64(number("seed", 16))
    )
    let totals = fleet.totals
    print("service edits: \(edits) writes, \(totals.requests) requests, \(totals.failed) failed")
    for problem in fleet.problems {
        print("  \(problem)")
    }
    try await fleet.shutdown()
    exit(totals.failed == 0 ? 0 : 1)
}
if arguments.first == "api-versions" {
    let instances = (option("new") ?? "").split(separator: ",").map(String.init)
    guard !instances.isEmpty else {
        print("usage: notes-load api-versions --new URL,URL [--requests N] [--concurrency N] [--seed N]")
        exit(2)
    }
    let versions = try NotesAPI.makeAPIVersions()
    let fleet = Fleet(connectionsPerInstance: number("concurrency", 12))
    // The service describes its versions from the same declaration.
    if let page = await fleet.send(.GET, instances[0] + "/api-versions", headers: [("Accept", "application/json")]),
        let described = try? JSONDecoder().decode(APIVersionsDescription.self, from: page.body),
        described == versions.describe(linkingSchemas: NotesAPI.openAPIPath(of:))
    {
        print("The service describes API versions \(described.versions.map(\.name).joined(separator: ", ")).")
    } else {
        fleet.report(\.failed, "GET /api-versions does not describe the declared versions")
    }
    // Every answer is checked against the schema of its API version, as the service serves it.
    let schemas = await servedNoteSchemas(from: instances[0], versions: versions, fleet: fleet)
    print("The service serves OpenAPI documents for API versions \(schemas.keys.sorted()).")
    let ledger = RevisionLedger()
    let counts = APIVersionsLoad.Counts()
    var load = APIVersionsLoad(
        fleet: fleet,
        urls: instances,
        clientVersions: versions.versions.compactMap { Int($0.name) },
        requests: number("requests", 10_000),
        concurrency: number("concurrency", 12),
        seed: UInt64(number("seed", 16)),
        prefix: "m",
        versions: versions,
        schemas: schemas,
        ledger: ledger,
        counts: counts
    )
    let mixedSeconds = await load.run()
    let mixed = fleet.totals
    let (mixedConflicts, mixedUnknown) = (counts.conflictsRetried, counts.unknownRefused)
    print("Clients at API versions \(load.clientVersions): \(mixed.requests) requests in \(Int(mixedSeconds)) s")
    load.clientVersions = [NotesAPI.newestVersion]
    load.prefix = "n"
    load.seed &+= 1
    let newestSeconds = await load.run()
    let totals = fleet.totals
    let newestRequests = totals.requests - mixed.requests
    print(
        "Clients at API version \(NotesAPI.newestVersion) only: \(newestRequests) requests in \(Int(newestSeconds)) s"
    )
    for problem in fleet.problems {
        print("  \(problem)")
    }
    print(
        "Notes created: \(ledger.noteCount); bodies with fields their version lacks refused: "
            + "\(counts.badBodiesRefused); failures and lost fields count both runs"
    )
    print(
        "Old clients' edits that removed, inserted, moved or renamed captioned attachments: "
            + "\(counts.hiddenListEdits); bodies whose attachments carried no version keys: "
            + "\(counts.bodiesWithoutPartVersions)"
    )
    let failed = totals.failed + totals.unreadable
    let rate = Int((Double(mixed.requests) / mixedSeconds).rounded())
    let newestRate = Int((Double(newestRequests) / newestSeconds).rounded())
    let apiVersionCount = versions.versions.count
    let lost = counts.fieldsLost
    var line = "api versions: \(mixed.requests) requests at \(apiVersionCount) API versions, \(failed) failed, "
    line += "\(lost) fields lost, \(mixedConflicts) conflicts retried, \(mixedUnknown) unknown versions refused, "
    line += "\(rate) requests/s vs \(newestRate) at the newest version only, "
    line += "\(counts.validated) answers validated against their API version's schema, \(counts.invalid) invalid"
    print(line)
    try await fleet.shutdown()
    // A run in which no old client edited a captioned attachment list proved nothing about them,
    // and one that validated no answer proved nothing about the schemas.
    let exercised = counts.unknownRefused > 0 && counts.hiddenListEdits > 0 && counts.bodiesWithoutPartVersions > 0
    let validated = counts.validated > 0 && counts.invalid == 0
    exit(failed == 0 && counts.fieldsLost == 0 && totals.lost == 0 && exercised && validated ? 0 : 1)
}
guard let phase = arguments.first, ["mixed", "upgraded"].contains(phase), let ledgerPath = option("ledger") else {
    print("usage: notes-load mixed|upgraded --old URLS --new URLS --ledger FILE [options]")
    print(
        "       notes-load edits [--old URL --old-ids FILE] [--new URL --new-ids FILE] --ledger FILE "
            + "--stop-file FILE [--writers N] [--seed N]"
    )
    exit(2)
}
let ledgerURL = URL(fileURLWithPath: ledgerPath)
let settings = Settings(
    notes: number("notes", 120),
    requests: number("requests", 4000),
    compare: number("compare", 2000),
    concurrency: number("concurrency", 12),
    seconds: Double(number("seconds", 60)),
    seed: UInt64(number("seed", 16))
)
let fleet = Fleet(connectionsPerInstance: settings.concurrency)
let newInstances = urls("new", version: 3)
let succeeded: Bool
if phase == "mixed" {
    succeeded = try await Rehearsal(fleet: fleet, settings: settings)
        .mixed(old: urls("old", version: 2), new: newInstances, ledgerURL: ledgerURL)
} else {
    succeeded = try await Rehearsal(fleet: fleet, settings: settings).upgraded(new: newInstances, ledgerURL: ledgerURL)
}
try await fleet.shutdown()
exit(succeeded ? 0 : 1)
