import Foundation
import VersionedCodable

// Reads every bundled document, whatever version it was written with, migrates it to the
// current `Poem`, and prints what happened to each.

guard let folder = Bundle.module.url(forResource: "Documents", withExtension: nil) else {
    fatalError("The sample documents are missing from the bundle.")
}
let documents = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    .filter { $0.pathExtension == "json" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }

// snippet: decoding
let decoder = JSONDecoder()
var rows: [(document: String, stored: String, result: String)] = []
for url in documents {
    let data = try Data(contentsOf: url)
    do {
        let read = try decoder.decodeWithStoredVersion(Poem.self, from: data)
        let poem = read.wrappedValue
        let stored = read.storedVersion.map { "v\($0)" } ?? "none"
        let outcome = read.wasMigrated ? "migrated to v4" : "current"
        rows.append((url.lastPathComponent, stored, "\(outcome): \"\(poem.title)\" by \(poem.author.name)"))
    } catch {
        // A document that cannot be read as a Poem still says which version wrote it, unless
        // the version itself cannot be read.
        let stored = (try? decoder.storedVersion(of: Poem.self, from: data)).map { $0.map { "v\($0)" } ?? "none" }
        rows.append((url.lastPathComponent, stored ?? "?", "error: \(error)"))
    }
}
// end snippet

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

let documentWidth = max(8, rows.map(\.document.count).max() ?? 0)
print(pad("Document", documentWidth) + "  Stored  Result")
print(String(repeating: "-", count: documentWidth) + "  ------  " + String(repeating: "-", count: 40))
for row in rows {
    print(pad(row.document, documentWidth) + "  " + pad(row.stored, 6) + "  " + row.result)
}

// snippet: encoding
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
let tyger = Poem(
    author: Author(name: "William Blake", born: 1757),
    title: "The Tyger",
    stanzas: [["Tyger Tyger, burning bright"]],
    stars: 5
)
let current = try encoder.encode(versioned: tyger)
let forVersion3Readers = try encoder.encode(versioned: tyger, asVersion: 3)
// end snippet

print("")
print("Written as the current version: \(String(decoding: current, as: UTF8.self))")
print("Written for version 3 readers:  \(String(decoding: forVersion3Readers, as: UTF8.self))")
