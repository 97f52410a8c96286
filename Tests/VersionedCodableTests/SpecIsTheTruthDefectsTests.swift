import Foundation
import Testing
import VersionedCodable

/// Defects found beside the spec's reading and writing: a tree of optional parts on a small
/// stack, dictionary keys under key strategies, what refusals say, and damaged bytes.
@Suite("The spec is the truth: shapes, refusals and damaged documents")
struct SpecIsTheTruthDefectsTests {
    typealias Format = SpecTruth.Format

    /// Runs `work` on a thread with a 512 KB stack, the size of a secondary thread's stack on
    /// Apple platforms, and waits for it.
    static func onSmallStack(_ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.stackSize = 512 * 1_024
        thread.start()
        done.wait()
    }

    @Test("A tree of 128 nested versioned parts with an optional child reads and writes on a 512 KB stack")
    func optionalChildTreeFitsASmallStack() async {
        await #expect(processExitsWith: .success) {
            SpecIsTheTruthDefectsTests.onSmallStack {
                SpecTruth.endChildProcess {
                    // The root and 128 nested parts: the innermost is 128 keys deep, at the limit.
                    let depth = maximumVersionedPartDepth + 1
                    let tree = SpecTruth.Branch.tree(depth: depth)
                    var text = String(repeating: #"{"version":1,"child":"#, count: depth - 1)
                    text += #"{"version":1,"leaf":"# + "\(depth)}" + String(repeating: "}", count: depth - 1)
                    let read = try JSONDecoder().decode(versioned: SpecTruth.Branch.self, from: Data(text.utf8))
                    try SpecTruth.check(read.depth, depth, "depth read")
                    try SpecTruth.check(read, tree, "tree read")
                    for format in Format.allCases {
                        let written = try format.write(tree)
                        let back = try format.readValue(SpecTruth.Branch.self, written)
                        try SpecTruth.check(back.depth, depth, "\(format) depth written and read")
                        try SpecTruth.check(back, tree, "\(format) tree written and read")
                    }
                }
            }
        }
    }

    @Test(
        "A root dictionary of structs keeps its keys under key strategies as a plain encode does",
        arguments: ["snake case", "default keys"]
    )
    func dictionaryOfStructsUnderKeyStrategies(strategy: String) throws {
        let board = SpecTruth.Scoreboard(scores: [
            "HomeTeam": .init(points: 3, bestRound: 1),
            "away_team": .init(points: 2, bestRound: 2),
            "midGame": .init(points: 1, bestRound: 3),
            "a__b": .init(points: 0, bestRound: 4),
        ])
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = strategy == "snake case" ? .convertToSnakeCase : .useDefaultKeys
        let versioned = try Format.json.object(try encoder.encode(versioned: board))
        var plain = try Format.json.object(try encoder.encode(board.scores))
        plain["version"] = 3
        let sorted = { (object: [String: Any]) in
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
        }
        #expect(try sorted(versioned) == sorted(plain))
    }

    @Test("A root dictionary of structs reads back under snake-case strategies both ways")
    func dictionaryOfStructsRoundTrips() throws {
        let board = SpecTruth.Scoreboard(scores: [
            "HomeTeam": .init(points: 3, bestRound: 1), "x_y": .init(points: 1, bestRound: 0),
        ])
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let written = try encoder.encode(versioned: board)
        let plainScores = try decoder.decode([String: SpecTruth.Score].self, from: try encoder.encode(board.scores))
        let read = try decoder.decodeWithStoredVersion(SpecTruth.Scoreboard.self, from: written)
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue.scores == plainScores)
        #expect(read.wrappedValue == board)
    }

    @Test(
        "Refusing a root that is a single value or an array names the type and the version",
        arguments: Format.allCases
    )
    func rootRefusalsNameTypeAndVersion(format: Format) throws {
        do {
            _ = try format.write(SpecTruth.Stamp(text: "s"))
            Issue.record("a single-value root was written with a version")
        } catch {
            let text = "\(error)"
            #expect(text.contains("Stamp"), "\(text)")
            #expect(text.contains("37"), "\(text)")
        }
        do {
            _ = try format.write(SpecTruth.Roster(names: ["a"]))
            Issue.record("an array root was written with a version")
        } catch {
            let text = "\(error)"
            #expect(text.contains("Roster"), "\(text)")
            #expect(text.contains("41"), "\(text)")
        }
    }

    @Test("Writing back a read-only compatible part inside a document says which part", arguments: Format.allCases)
    func readOnlyPartSaysWhichPart(format: Format) throws {
        let board = Board<StrictChore>(
            title: "home",
            tasks: [Versioned(StrictChore(name: "a", done: true, checkedBy: "Ada"))]
        )
        let old = try format.readPlain(Board<ChoreV2>.self, try format.writePlain(board))
        #expect(old.tasks.first?.isFromNewerVersion == true)
        #expect(old.tasks.first?.wrappedValue == ChoreV2(name: "a", done: true))
        do {
            _ = try format.writePlain(old)
            Issue.record("a read-only part was written back")
        } catch {
            let text = "\(error)"
            #expect(text.contains("tasks"), "\(text)")
            #expect(text.contains("ChoreV2") || text.contains("StrictChore"), "\(text)")
        }
    }

    /// Every position of the document, with a few values that damage it in different ways.
    static func damagedCopies(of document: Data) -> [(position: Int, byte: UInt8, data: Data)] {
        var copies: [(Int, UInt8, Data)] = []
        for position in document.indices {
            let original = document[position]
            let bits = (0..<8).map { original ^ UInt8(1 << $0) }
            for byte in Set(bits + [0x00, 0x7F, 0xD0, 0xFF]) where byte != original {
                var copy = document
                copy[position] = byte
                copies.append((position - document.startIndex, byte, copy))
            }
        }
        return copies
    }

    /// Decodes every damaged copy of `value`'s binary property list plainly as `Plain` and
    /// versioned as `T`, and returns the copies where the versioned decode threw an error of
    /// another kind than a plain decode's, or read what the plain decode refused.
    static func damagedDecodes<T: VersionedCodable, Plain: Decodable>(
        of value: T,
        plain: Plain.Type
    ) throws -> (foreignErrors: [String], readWhatPlainRefuses: [String]) {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let document = try encoder.encode(versioned: value)
        var foreignErrors: [String] = []
        var readWhatPlainRefuses: [String] = []
        for (position, byte, damaged) in damagedCopies(of: document) {
            let plain = Result { try PropertyListDecoder().decode(Plain.self, from: damaged) }
            let versioned = Result { try PropertyListDecoder().decode(versioned: T.self, from: damaged) }
            let part = Result { try PropertyListDecoder().decode(Versioned<T>.self, from: damaged) }
            for (route, result) in [("decode(versioned:)", versioned), ("Versioned", part.map(\.wrappedValue))] {
                switch (plain, result) {
                case (.failure(let plainError), .success(let value)):
                    readWhatPlainRefuses.append("\(route), byte \(position) = \(byte): \(value); plain: \(plainError)")
                case (.failure(let plainError), .failure(let error)) where plainError is DecodingError:
                    if !(error is DecodingError || error is VersionedDecodingError) {
                        foreignErrors.append("\(route), byte \(position) = \(byte): \(type(of: error)) \(error)")
                    }
                case (.success, .failure(let error)) where !(error is DecodingError || error is VersionedDecodingError):
                    foreignErrors.append("\(route), byte \(position) = \(byte): \(type(of: error)) \(error)")
                default:
                    break
                }
            }
        }
        return (foreignErrors, readWhatPlainRefuses)
    }

    /// A ticket as a plain decode reads it; the chain has no `nil` version, so a damaged
    /// version's key is an error for both.
    struct PlainTicket: Decodable {
        struct Header: Decodable {
            var format: Int?
            var revision: Int
        }
        var header: Header
        var seat: String
    }

    @Test("A damaged binary property list throws what a plain decode throws, and never reads what it refuses")
    func damagedBinaryPropertyList() throws {
        let sample = SpecTruth.Sample(title: "Ode", count: 7, ratio: 0.5, tags: ["a", "bb"])
        let atRoot = try Self.damagedDecodes(of: sample, plain: SpecTruth.PlainSample.self)
        let nested = try Self.damagedDecodes(
            of: SpecTruth.Ticket(seat: "12A"),
            plain: PlainTicket.self
        )
        for (name, found) in [("default spec", atRoot), ("nested spec", nested)] {
            #expect(
                found.foreignErrors.isEmpty,
                "\(name): \(found.foreignErrors.count): \(found.foreignErrors.prefix(3))"
            )
            #expect(
                found.readWhatPlainRefuses.isEmpty,
                "\(name): \(found.readWhatPlainRefuses.count): \(found.readWhatPlainRefuses.prefix(3))"
            )
        }
    }
}
