// A newer document with about 10 MB of fields that the older build does not know: the older
// build reads it through `Versioned<Note>` and writes it back, against a plain `Codable` type
// that declares every field of the document, reading and writing the same bytes.
//
// Time: the two run round-robin in this process, a round timing one read and write-back of
// each (the order alternating between rounds), and the figure is the median of the per-round
// ratios. Memory: each side runs once in a process of its own, which reports how far its
// resident memory rose above what it held with the document loaded.
//
//     swift run -c release --package-path Benchmarks large-newer-document [--rounds N] [--megabytes N]

import BenchmarkDocuments
import Foundation
import VersionedCodable

var rounds = 9
var megabytes = 10
var memorySide: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--rounds": rounds = arguments.next().flatMap(Int.init) ?? rounds
    case "--megabytes": megabytes = arguments.next().flatMap(Int.init) ?? megabytes
    case "--memory": memorySide = arguments.next()
    default:
        print("usage: large-newer-document [--rounds N] [--megabytes N]")
        exit(2)
    }
}

let document = try JSONEncoder().encode(PlainLargeNote.sample(bytes: megabytes * 1_000_000))

/// One read and write-back of the document by each side.
let sides: [(name: String, operation: () throws -> Int)] = [
    (
        "plain",
        {
            let note = try JSONDecoder().decode(PlainLargeNote.self, from: document)
            return try JSONEncoder().encode(note).count
        }
    ),
    (
        "versioned",
        {
            let note = try JSONDecoder().decode(Versioned<Note>.self, from: document)
            precondition(note.isFromNewerVersion)
            return try JSONEncoder().encode(note).count
        }
    ),
    (
        "plain older",
        {
            // The older type alone, which drops what it does not know: for reference.
            let note = try JSONDecoder().decode(PlainNote.self, from: document)
            return try JSONEncoder().encode(note).count
        }
    ),
]

/// A field of /proc/self/status, in bytes.
func status(_ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }
    return nil
}

if let memorySide {
    // Forget the high-water mark that making the document left, so that the peak is the
    // operation's.
    let reset = FileHandle(forWritingAtPath: "/proc/self/clear_refs")
    try reset?.write(contentsOf: Data("5".utf8))
    guard reset != nil, let operation = sides.first(where: { $0.name == memorySide })?.operation,
        let before = status("VmRSS")
    else {
        print("n/a")
        exit(0)
    }
    _ = try operation()
    print((status("VmHWM") ?? 0) - before)
    exit(0)
}

// The versioned write-back holds what the document held.
let written = try JSONEncoder().encode(try JSONDecoder().decode(Versioned<Note>.self, from: document))
let writtenBack = try JSONDecoder().decode(PlainLargeNote.self, from: written)
let readDirectly = try JSONDecoder().decode(PlainLargeNote.self, from: document)
precondition(writtenBack == readDirectly)

func seconds(_ operation: () throws -> Int) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try operation()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

var times: [String: [Double]] = [:]
var ratios: [String: [Double]] = [:]
for round in 0..<rounds {
    var roundTimes: [String: Double] = [:]
    for side in round % 2 == 0 ? sides : sides.reversed() {
        roundTimes[side.name] = try seconds(side.operation)
    }
    for (name, time) in roundTimes {
        times[name, default: []].append(time)
        ratios[name, default: []].append(time / roundTimes["plain"]!)
    }
}

print("Newer document of \(document.count) bytes, read and written back; \(rounds) rounds")
print("| side | median time | vs plain | peak memory rise | vs document |")
print("|---|---|---|---|---|")
for side in sides {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--megabytes", "\(megabytes)", "--memory", side.name]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let rise = Int(output.trimmingCharacters(in: .whitespacesAndNewlines))
    let memory = rise.map { String(format: "%.1f MB | %.2fx", Double($0) / 1e6, Double($0) / Double(document.count)) }
    print(
        "| \(side.name) | \(String(format: "%.1f ms", median(times[side.name]!) * 1000)) | "
            + "\(String(format: "%.2fx", median(ratios[side.name]!))) | \(memory ?? "n/a | n/a") |"
    )
}
