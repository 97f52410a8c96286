import Foundation
import Testing
import VersionedCodable

/// Random values of every version, written as that version writes them and read back as the
/// current version, must equal the same migration done in memory: decoding loses nothing that
/// a migration step did not mean to drop.
///
/// The values come from a seeded generator, so a failure names the seed that reproduces it;
/// set `ROUND_TRIP_SEED` to run with another one.
@Suite("Round trips of random values of every version")
struct RoundTripPropertyTests {
    // MARK: - A four-version type whose steps reshape, rename and drop fields

    struct RecipeV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var name: String
        var steps: [String]
        var notes: String?
    }

    /// Groups the steps, and adds a field that the next version drops on purpose.
    struct RecipeV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = RecipeV0
        var name: String
        var steps: [[String]]
        var notes: String?
        var legacyCode: String?
        var servings: Int

        init(name: String, steps: [[String]], notes: String?, legacyCode: String?, servings: Int) {
            self.name = name
            self.steps = steps
            self.notes = notes
            self.legacyCode = legacyCode
            self.servings = servings
        }

        init(from old: RecipeV0) throws {
            self.init(name: old.name, steps: [old.steps], notes: old.notes, legacyCode: nil, servings: 1)
        }
    }

    /// Renames `name` to `title`, drops `legacyCode`, adds tags.
    struct RecipeV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = RecipeV1
        var title: String
        var steps: [[String]]
        var notes: String?
        var servings: Int
        var tags: [String]

        init(title: String, steps: [[String]], notes: String?, servings: Int, tags: [String]) {
            self.title = title
            self.steps = steps
            self.notes = notes
            self.servings = servings
            self.tags = tags
        }

        init(from old: RecipeV1) throws {
            self.init(title: old.name, steps: old.steps, notes: old.notes, servings: old.servings, tags: [])
        }
    }

    /// Turns each group of steps into a section with an optional heading, and adds a weight.
    struct Recipe: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = RecipeV2

        struct Section: Codable, Equatable {
            var heading: String?
            var lines: [String]
        }

        var title: String
        var sections: [Section]
        var notes: String?
        var servings: Int
        var tags: [String]
        var grams: Double?

        init(title: String, sections: [Section], notes: String?, servings: Int, tags: [String], grams: Double?) {
            self.title = title
            self.sections = sections
            self.notes = notes
            self.servings = servings
            self.tags = tags
            self.grams = grams
        }

        init(from old: RecipeV2) throws {
            self.init(
                title: old.title,
                sections: old.steps.map { Section(heading: nil, lines: $0) },
                notes: old.notes,
                servings: old.servings,
                tags: old.tags,
                grams: nil
            )
        }
    }

    // MARK: - A seeded generator

    /// SplitMix64: tiny, fast, and the same sequence for the same seed on every platform,
    /// which `SystemRandomNumberGenerator` is not.
    struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    /// Makes random values of every version from a seed.
    struct ValueSource {
        var random: SplitMix64

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
        }

        /// Characters that coders have been known to mangle: quotes, escapes, controls, XML
        /// markup, characters beyond the BMP, combining marks, right-to-left text and a
        /// zero-width joiner sequence.
        static let alphabet: [String] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r\n", "<", ">", "&", "&amp;", "]]>", "'",
            "é", "e\u{301}", "ß", "Ω", "中", "文", "😀", "👩‍👩‍👧", "🇨🇭", "\u{200B}", "\u{FEFF}",
            "\u{1F}", "\u{7F}", "שלום", "\u{10FFFF}", "%", "{", "}", "version",
        ]

        mutating func int(in range: ClosedRange<Int>) -> Int {
            Int.random(in: range, using: &random)
        }

        mutating func bool() -> Bool {
            Bool.random(using: &random)
        }

        mutating func string() -> String {
            switch int(in: 0...9) {
            case 0:
                return ""
            case 1:
                return String(repeating: "long ", count: int(in: 50...200))
            default:
                return (0..<int(in: 1...12)).map { _ in Self.alphabet.randomElement(using: &random)! }.joined()
            }
        }

        mutating func optionalString() -> String? {
            bool() ? string() : nil
        }

        mutating func strings(upTo count: Int = 6) -> [String] {
            (0..<int(in: 0...count)).map { _ in string() }
        }

        mutating func nestedStrings() -> [[String]] {
            (0..<int(in: 0...4)).map { _ in strings(upTo: 4) }
        }

        mutating func anyInt() -> Int {
            switch int(in: 0...5) {
            case 0: return [Int.min, Int.max, 0, -1, 1].randomElement(using: &random)!
            case 1: return Int(truncatingIfNeeded: random.next())
            default: return int(in: -1_000...1_000)
            }
        }

        /// Finite doubles only: JSON has no infinity or NaN, and NaN never equals itself.
        mutating func optionalGrams() -> Double? {
            switch int(in: 0...3) {
            case 0: return nil
            case 1:
                return [0.1, -0.0, 1e-300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude].randomElement(
                    using: &random
                )!
            default:
                var value: Double
                repeat {
                    value = Double(bitPattern: random.next())
                } while !value.isFinite
                return value
            }
        }

        mutating func v0() -> RecipeV0 {
            RecipeV0(name: string(), steps: strings(), notes: optionalString())
        }

        mutating func v1() -> RecipeV1 {
            RecipeV1(
                name: string(),
                steps: nestedStrings(),
                notes: optionalString(),
                legacyCode: optionalString(),
                servings: anyInt()
            )
        }

        mutating func v2() -> RecipeV2 {
            RecipeV2(
                title: string(),
                steps: nestedStrings(),
                notes: optionalString(),
                servings: anyInt(),
                tags: strings()
            )
        }

        mutating func v3() -> Recipe {
            let sections = (0..<int(in: 0...4)).map { _ in
                Recipe.Section(heading: optionalString(), lines: strings(upTo: 4))
            }
            return Recipe(
                title: string(),
                sections: sections,
                notes: optionalString(),
                servings: anyInt(),
                tags: strings(),
                grams: optionalGrams()
            )
        }
    }

    // MARK: - Formats

    enum Format: String, CaseIterable, CustomTestStringConvertible {
        case json
        case xmlPlist
        case binaryPlist

        var testDescription: String { rawValue }

        func encode(_ value: some VersionedCodable) throws -> Data {
            switch self {
            case .json:
                return try JSONEncoder().encode(versioned: value)
            case .xmlPlist, .binaryPlist:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = self == .xmlPlist ? .xml : .binary
                return try encoder.encode(versioned: value)
            }
        }

        func decode(_ data: Data) throws -> Versioned<Recipe> {
            switch self {
            case .json:
                return try JSONDecoder().decodeWithStoredVersion(Recipe.self, from: data)
            case .xmlPlist, .binaryPlist:
                return try PropertyListDecoder().decodeWithStoredVersion(Recipe.self, from: data)
            }
        }
    }

    static let casesPerVersion = 250

    /// The seed of the first case; case `n` uses `baseSeed + n`.
    static let baseSeed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["ROUND_TRIP_SEED"], let seed = UInt64(text) {
            return seed
        }
        return 0x5EED_2026
    }()

    // MARK: - Properties

    /// Writes `value` as its own version, reads it as the current one, and compares with
    /// `expected`, the same migration done in memory.
    static func checkRoundTrip<Old: VersionedCodable>(
        _ value: Old,
        expected: Recipe,
        format: Format,
        seed: UInt64
    ) {
        do {
            let data = try format.encode(value)
            let read = try format.decode(data)
            #expect(read.storedVersion == Old.version, "seed \(seed)")
            #expect(read.wrappedValue == expected, "seed \(seed): \(Old.self) \(value)")
        } catch {
            Issue.record("seed \(seed): \(Old.self) \(value) did not round-trip: \(error)")
        }
    }

    @Test("Version nil documents read as the current version lose nothing", arguments: Format.allCases)
    func oldestVersion(format: Format) throws {
        for index in 0..<Self.casesPerVersion {
            let seed = Self.baseSeed &+ UInt64(index)
            var source = ValueSource(seed: seed)
            let value = source.v0()
            let expected = try Recipe(from: RecipeV2(from: RecipeV1(from: value)))
            // What the migration keeps, stated without the migration's own code.
            #expect(expected.title == value.name && expected.notes == value.notes, "seed \(seed)")
            #expect(expected.sections.flatMap(\.lines) == value.steps, "seed \(seed)")
            Self.checkRoundTrip(value, expected: expected, format: format, seed: seed)
        }
    }

    @Test("Version 1 documents read as the current version lose only legacyCode", arguments: Format.allCases)
    func version1(format: Format) throws {
        for index in 0..<Self.casesPerVersion {
            let seed = Self.baseSeed &+ UInt64(index)
            var source = ValueSource(seed: seed)
            let value = source.v1()
            let expected = try Recipe(from: RecipeV2(from: value))
            #expect(expected.sections.map(\.lines) == value.steps, "seed \(seed)")
            #expect(expected.servings == value.servings, "seed \(seed)")
            Self.checkRoundTrip(value, expected: expected, format: format, seed: seed)
        }
    }

    @Test("Version 2 documents read as the current version lose nothing", arguments: Format.allCases)
    func version2(format: Format) throws {
        for index in 0..<Self.casesPerVersion {
            let seed = Self.baseSeed &+ UInt64(index)
            var source = ValueSource(seed: seed)
            let value = source.v2()
            let expected = try Recipe(from: value)
            #expect(expected.tags == value.tags && expected.title == value.title, "seed \(seed)")
            Self.checkRoundTrip(value, expected: expected, format: format, seed: seed)
        }
    }

    @Test("Current documents read back equal, every field and every bit of the weight", arguments: Format.allCases)
    func currentVersion(format: Format) {
        for index in 0..<Self.casesPerVersion {
            let seed = Self.baseSeed &+ UInt64(index)
            var source = ValueSource(seed: seed)
            let value = source.v3()
            Self.checkRoundTrip(value, expected: value, format: format, seed: seed)
            if let grams = value.grams, let read = try? format.decode(format.encode(value)).wrappedValue.grams {
                // `==` calls -0.0 and 0.0 equal; the bits must match too.
                #expect(read.bitPattern == grams.bitPattern, "seed \(seed): \(grams) read as \(read)")
            }
        }
    }

    /// The plain encoding of `value` (no version) with the top-level entries of its spec's own
    /// encoding added: what a versioned document must be, exactly.
    static func expectPlainPlusSpec<Value: VersionedCodable>(_ value: Value, format: Format, seed: UInt64) throws {
        func object(_ data: Data) throws -> [String: Any] {
            let parsed: Any =
                format == .json
                ? try JSONSerialization.jsonObject(with: data)
                : try PropertyListSerialization.propertyList(from: data, format: nil)
            return try #require(parsed as? [String: Any], "seed \(seed)")
        }
        func plain(_ encodable: some Encodable) throws -> Data {
            if format == .json {
                return try JSONEncoder().encode(encodable)
            }
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format == .xmlPlist ? .xml : .binary
            return try encoder.encode(encodable)
        }
        var expected = try object(plain(value))
        for (key, entry) in try object(plain(Value.VersionSpec(withVersion: Value.version))) {
            expected[key] = entry
        }
        let document = try object(format.encode(value))
        #expect(document as NSDictionary == expected as NSDictionary, "seed \(seed): \(Value.self) \(value)")
    }

    @Test("Every versioned document is the plain encoding plus what the spec writes", arguments: Format.allCases)
    func documentIsPlainPlusSpec(format: Format) throws {
        for index in 0..<Self.casesPerVersion {
            let seed = Self.baseSeed &+ UInt64(index)
            var source = ValueSource(seed: seed)
            try Self.expectPlainPlusSpec(source.v0(), format: format, seed: seed)
            try Self.expectPlainPlusSpec(source.v1(), format: format, seed: seed)
            try Self.expectPlainPlusSpec(source.v2(), format: format, seed: seed)
            try Self.expectPlainPlusSpec(source.v3(), format: format, seed: seed)
        }
    }

    // MARK: - The generator itself

    @Test("The generator gives the same values for the same seed and others for another")
    func generatorIsReproducible() {
        var first = ValueSource(seed: 42)
        var second = ValueSource(seed: 42)
        var other = ValueSource(seed: 43)
        let a = (0..<20).map { _ in first.v3() }
        #expect(a == (0..<20).map { _ in second.v3() })
        #expect(a != (0..<20).map { _ in other.v3() })
    }

    @Test("SplitMix64 gives its published first outputs for seed 0")
    func splitMixKnownAnswer() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("The cases cover empty strings, nil and non-nil, non-ASCII text and empty and nested arrays")
    func generatorCoversTheEdges() {
        var sawEmptyString = false
        var sawNil = false
        var sawNonNil = false
        var sawNonASCII = false
        var sawEmptyArray = false
        var sawNestedNonEmpty = false
        for index in 0..<Self.casesPerVersion {
            var source = ValueSource(seed: Self.baseSeed &+ UInt64(index))
            let value = source.v1()
            let strings = [value.name] + value.steps.flatMap { $0 }
            sawEmptyString = sawEmptyString || strings.contains("")
            sawNil = sawNil || value.notes == nil
            sawNonNil = sawNonNil || value.notes != nil
            sawNonASCII = sawNonASCII || strings.contains { $0.unicodeScalars.contains { !$0.isASCII } }
            sawEmptyArray = sawEmptyArray || value.steps.isEmpty || value.steps.contains { $0.isEmpty }
            sawNestedNonEmpty = sawNestedNonEmpty || value.steps.contains { $0.count > 1 }
        }
        #expect(sawEmptyString && sawNil && sawNonNil && sawNonASCII && sawEmptyArray && sawNestedNonEmpty)
    }
}
