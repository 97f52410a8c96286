import Foundation
import Testing
import VersionedCodable

/// The order in which a process first uses its types changes no result. Each order runs in a
/// fresh child process, so that nothing an earlier test used is already known.
@Suite("The spec is the truth: the order of first use changes no result")
struct SpecIsTheTruthFirstUseOrderTests {
    typealias Format = SpecTruth.Format

    /// How a process first uses the unversioned letter, before any versioned one.
    enum LetterFirstUse: String, CaseIterable, Codable, Sendable {
        case encodeUnversioned
        case decodeUnversioned
        case versionedFirst
    }

    @Test(
        "Letters read as their versions after the unversioned letter of 1.2's nested spec is used first",
        arguments: LetterFirstUse.allCases
    )
    func unversionedLetterFirst(firstUse: LetterFirstUse) async {
        await #expect(processExitsWith: .success) { [firstUse] in
            SpecTruth.endChildProcess {
                for format in Format.allCases {
                    switch firstUse {
                    case .encodeUnversioned:
                        try SpecTruth.encodeUnversionedLetter(in: format)
                    case .decodeUnversioned:
                        try SpecTruth.decodeUnversionedLetter(in: format)
                    case .versionedFirst:
                        break
                    }
                    try SpecTruth.checkLetters(in: format)
                    try SpecTruth.encodeUnversionedLetter(in: format)
                    try SpecTruth.checkLetters(in: format)
                }
            }
        }
    }

    /// How a process first uses the chain that shares the ticket's spec.
    enum PriceFirstUse: String, CaseIterable, Codable, Sendable {
        case decodePrice
        case encodePrice
        case ticketFirst
    }

    @Test(
        "A ticket of version 3 reads as version 3 whichever chain sharing its spec is used first",
        arguments: PriceFirstUse.allCases
    )
    func sharedSpecFirst(firstUse: PriceFirstUse) async {
        await #expect(processExitsWith: .success) { [firstUse] in
            SpecTruth.endChildProcess {
                for format in Format.allCases {
                    switch firstUse {
                    case .decodePrice:
                        try SpecTruth.usePrice(in: format, encoding: false)
                        try SpecTruth.checkTickets(in: format)
                    case .encodePrice:
                        try SpecTruth.usePrice(in: format, encoding: true)
                        try SpecTruth.checkTickets(in: format)
                    case .ticketFirst:
                        try SpecTruth.checkTickets(in: format)
                        try SpecTruth.usePrice(in: format, encoding: false)
                        try SpecTruth.checkTickets(in: format)
                    }
                }
            }
        }
    }

    /// The four uses whose order is permuted: the default spec, 1.2's nested spec through its
    /// unversioned type, a string label, and a spec that counts its writes.
    static let uses: [(String, @Sendable (Format) throws -> Void)] = [
        ("default spec", checkMemos),
        ("nested spec, unversioned", SpecTruth.encodeUnversionedLetter),
        ("string label", checkBadges),
        ("counting spec", checkGauges),
    ]

    static func checkMemos(in format: Format) throws {
        let v1 = try format.read(SpecTruth.Memo.self, try format.document(["version": 1, "note": "n"]))
        try SpecTruth.check(v1.storedVersion, 1, "memo version 1")
        try SpecTruth.check(v1.wrappedValue, SpecTruth.Memo(note: "n+2"), "memo migrated")
        let written = try format.write(SpecTruth.Memo(note: "m"))
        try SpecTruth.check(SpecTruth.int(try format.object(written), "version"), 2, "memo written")
        try SpecTruth.check(try format.read(SpecTruth.Memo.self, written).storedVersion, 2, "memo read back")
    }

    static func checkBadges(in format: Format) throws {
        let written = try format.write(SpecTruth.Badge(name: "b"))
        try SpecTruth.check(try format.object(written)["schema"] as? String, "v2", "badge label")
        let read = try format.read(SpecTruth.Badge.self, written)
        try SpecTruth.check(read.storedVersion, 2, "badge read back")
        try SpecTruth.check(read.wrappedValue, SpecTruth.Badge(name: "b"), "badge value")
        let v1 = try format.document(["schema": "v1", "name": "a"])
        try SpecTruth.check(try format.readValue(SpecTruth.Badge.self, v1), SpecTruth.Badge(name: "a+2"), "badge v1")
    }

    static func checkGauges(in format: Format) throws {
        for (value, version) in [(SpecTruth.Gauge(reading: "g"), 3), (SpecTruth.GaugeV1(reading: "g"), 1)]
            as [(any VersionedCodable, Int)]
        {
            let written = try format.write(value)
            try SpecTruth.check(try format.read(SpecTruth.Gauge.self, written).storedVersion, version, "gauge")
        }
    }

    /// The permutation of `uses` with the given index, in lexicographic order.
    static func permutation(_ index: Int) -> [Int] {
        var remaining = Array(uses.indices)
        var index = index
        var order: [Int] = []
        while !remaining.isEmpty {
            let count = (1..<remaining.count).reduce(1, *)
            order.append(remaining.remove(at: index / count))
            index %= count
        }
        return order
    }

    @Test("Each order of first use of four specs gives the same results", arguments: 0..<24)
    func everyOrderOfFirstUse(permutation: Int) async {
        await #expect(processExitsWith: .success) { [permutation] in
            SpecTruth.endChildProcess {
                let order = SpecIsTheTruthFirstUseOrderTests.permutation(permutation)
                for format in Format.allCases {
                    for index in order {
                        let (name, use) = SpecIsTheTruthFirstUseOrderTests.uses[index]
                        do {
                            try use(format)
                        } catch {
                            throw SpecTruth.Mismatch("\(format), order \(order), \(name): \(error)")
                        }
                    }
                    // The nested spec's versioned letters, after all the others.
                    try SpecTruth.checkLetters(in: format)
                }
            }
        }
    }
}
