import Foundation
import Testing
import VersionedCodable

/// Specs that VersionedCodable 1.2 reads and writes by decoding and encoding the spec: each
/// writes the version in its own form, and reads it back from every document.
@Suite("The spec is the truth: every form of spec 1.2 reads")
struct SpecIsTheTruthSpecFormsTests {
    typealias Format = SpecTruth.Format

    @Test("A version written as a string label reads and writes", arguments: Format.allCases)
    func stringLabel(format: Format) throws {
        let written = try format.write(SpecTruth.Badge(name: "b"))
        let object = try format.object(written)
        #expect(object["schema"] as? String == "v2")
        let read = try format.read(SpecTruth.Badge.self, written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == SpecTruth.Badge(name: "b"))
        let v1 = try format.read(SpecTruth.Badge.self, try format.document(["schema": "v1", "name": "a"]))
        #expect(v1.storedVersion == 1)
        #expect(v1.wrappedValue == SpecTruth.Badge(name: "a+2"))
        #expect(try format.object(try format.write(SpecTruth.BadgeV1(name: "a")))["schema"] as? String == "v1")
    }

    @Test("A key path through an array subscript reads and writes", arguments: Format.allCases)
    func keyPathThroughSubscript(format: Format) throws {
        let written = try format.write(SpecTruth.Shelf(books: ["Emma"]))
        let headers = try #require(try format.object(written)["headers"] as? [[String: Any]])
        #expect(headers.count == 1)
        #expect(headers.first.flatMap { SpecTruth.int($0, "version") } == 2)
        let read = try format.read(SpecTruth.Shelf.self, written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == SpecTruth.Shelf(books: ["Emma"]))
        let v1 = try format.document(["headers": [["version": 1]], "books": ["Ulysses"]])
        #expect(try format.readValue(SpecTruth.Shelf.self, v1) == SpecTruth.Shelf(books: ["Ulysses", "+2"]))
    }

    @Test("A key path through a force-unwrapped first element reads and writes", arguments: Format.allCases)
    func keyPathThroughFirst(format: Format) throws {
        let written = try format.write(SpecTruth.Crate(label: "c"))
        let items = try #require(try format.object(written)["items"] as? [[String: Any]])
        #expect(items.first.flatMap { SpecTruth.int($0, "version") } == 2)
        let read = try format.read(SpecTruth.Crate.self, written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == SpecTruth.Crate(label: "c"))
        let v1 = try format.document(["items": [["version": 1]], "label": "old"])
        #expect(try format.readValue(SpecTruth.Crate.self, v1) == SpecTruth.Crate(label: "old+2"))
    }

    @Test("A sentinel 0 for the nil version is written and read as nil", arguments: Format.allCases)
    func sentinelForNil(format: Format) throws {
        let unversioned = try format.write(SpecTruth.PostcardV0(greeting: "hi"))
        #expect(SpecTruth.int(try format.object(unversioned), "version") == 0)
        let read = try format.read(SpecTruth.Postcard.self, unversioned)
        #expect(read.storedVersion == nil)
        #expect(read.wrappedValue == SpecTruth.Postcard(greeting: "hi+1"))

        let current = try format.write(SpecTruth.Postcard(greeting: "hello"))
        #expect(SpecTruth.int(try format.object(current), "version") == 1)
        let readCurrent = try format.read(SpecTruth.Postcard.self, current)
        #expect(readCurrent.storedVersion == 1)
        #expect(readCurrent.wrappedValue == SpecTruth.Postcard(greeting: "hello"))

        let asNil = try format.write(SpecTruth.Postcard(greeting: "down"), asVersion: nil)
        #expect(SpecTruth.int(try format.object(asNil), "version") == 0)
        #expect(try format.read(SpecTruth.Postcard.self, asNil).storedVersion == nil)
    }

    @Test("A spec that throws for nil writes and reads the versions it does write", arguments: Format.allCases)
    func specThrowingForNil(format: Format) throws {
        let written = try format.write(SpecTruth.Receipt(total: 3, currency: "EUR"))
        #expect(SpecTruth.int(try format.object(written), "version") == 2)
        let read = try format.read(SpecTruth.Receipt.self, written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == SpecTruth.Receipt(total: 3, currency: "EUR"))
        let v1 = try format.write(SpecTruth.Receipt(total: 4, currency: "EUR"), asVersion: 1)
        #expect(SpecTruth.int(try format.object(v1), "version") == 1)
        let readV1 = try format.read(SpecTruth.Receipt.self, v1)
        #expect(readV1.storedVersion == 1)
        #expect(readV1.wrappedValue == SpecTruth.Receipt(total: 4, currency: "+2"))
    }

    @Test(
        "A spec that throws for versions older than its own writes and reads the versions it does write",
        arguments: Format.allCases
    )
    func specThrowingForOlderVersions(format: Format) throws {
        let written = try format.write(SpecTruth.Policy(clause: "c"))
        #expect(SpecTruth.int(try format.object(written), "version") == 4)
        let read = try format.read(SpecTruth.Policy.self, written)
        #expect(read.storedVersion == 4)
        #expect(read.wrappedValue == SpecTruth.Policy(clause: "c"))
        let v3 = try format.write(SpecTruth.Policy(clause: "d"), asVersion: 3)
        #expect(SpecTruth.int(try format.object(v3), "version") == 3)
        let readV3 = try format.read(SpecTruth.Policy.self, v3)
        #expect(readV3.storedVersion == 3)
        #expect(readV3.wrappedValue == SpecTruth.Policy(clause: "d+4"))
    }

    @Test("A version kept as an Int-backed enum reads and writes", arguments: Format.allCases)
    func intBackedEnum(format: Format) throws {
        let written = try format.write(SpecTruth.Gadget(model: "g"))
        #expect(SpecTruth.int(try format.object(written), "level") == 2)
        let read = try format.read(SpecTruth.Gadget.self, written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == SpecTruth.Gadget(model: "g"))
        let v1 = try format.read(SpecTruth.Gadget.self, try format.document(["level": 1, "model": "m"]))
        #expect(v1.storedVersion == 1)
        #expect(v1.wrappedValue == SpecTruth.Gadget(model: "m+2"))
    }

    @Test("A version kept as a RawRepresentable struct reads and writes", arguments: Format.allCases)
    func rawRepresentableStruct(format: Format) throws {
        let written = try format.write(SpecTruth.Widget(part: "w"))
        #expect(SpecTruth.int(try format.object(written), "revision") == 2)
        let read = try format.read(SpecTruth.Widget.self, written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == SpecTruth.Widget(part: "w"))
        let v1 = try format.read(SpecTruth.Widget.self, try format.document(["revision": 1, "part": "p"]))
        #expect(v1.storedVersion == 1)
        #expect(v1.wrappedValue == SpecTruth.Widget(part: "p+2"))
    }

    @Test("An optional header written as null for the nil version reads and writes")
    func optionalHeaderWrittenAsNull() throws {
        let unversioned = try JSONEncoder().encode(versioned: SpecTruth.PamphletV0(topic: "t"))
        let object = try Format.json.object(unversioned)
        #expect(object.keys.contains("header"))
        #expect(object["header"] is NSNull)
        let read = try JSONDecoder().decodeWithStoredVersion(SpecTruth.Pamphlet.self, from: unversioned)
        #expect(read.storedVersion == nil)
        #expect(read.wrappedValue == SpecTruth.Pamphlet(topic: "t+1"))
        for format in Format.allCases {
            let written = try format.write(SpecTruth.Pamphlet(topic: "now"))
            #expect(SpecTruth.int(try SpecTruth.nested(try format.object(written), "header"), "version") == 1)
            let current = try format.read(SpecTruth.Pamphlet.self, written)
            #expect(current.storedVersion == 1)
            #expect(current.wrappedValue == SpecTruth.Pamphlet(topic: "now"))
            let old = try format.read(SpecTruth.Pamphlet.self, try format.document(["topic": "older"]))
            #expect(old.wrappedValue == SpecTruth.Pamphlet(topic: "older+1"))
        }
    }

    @Test("A spec that forwards through a single-value container reads and writes", arguments: Format.allCases)
    func singleValueForwardingSpec(format: Format) throws {
        let written = try format.write(SpecTruth.Leaflet(text: "l"))
        #expect(SpecTruth.int(try format.object(written), "revision") == 2)
        let read = try format.read(SpecTruth.Leaflet.self, written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == SpecTruth.Leaflet(text: "l"))
        let v1 = try format.read(SpecTruth.Leaflet.self, try format.document(["revision": 1, "text": "o"]))
        #expect(v1.storedVersion == 1)
        #expect(v1.wrappedValue == SpecTruth.Leaflet(text: "o+2"))
    }

    /// Runs in a child process: a regression that overflows the stack fails this test only.
    @Test("A spec whose version is 500 objects deep reads and writes")
    func fiveHundredObjectsDeep() async {
        await #expect(processExitsWith: .success) {
            SpecTruth.endChildProcess {
                for format in Format.allCases {
                    let written = try format.write(SpecTruth.Abyss(name: "deep"))
                    var level: Any? = try format.object(written)["a"]
                    var depth = 0
                    while let object = level as? [String: Any], let next = object["a"] {
                        depth += 1
                        level = next
                    }
                    try SpecTruth.check(depth, SpecTruth.DeepPathSpec.depth - 1, "\(format) levels above the version")
                    try SpecTruth.check(
                        (level as? [String: Any]).flatMap { SpecTruth.int($0, "version") },
                        2,
                        "\(format) version at the bottom"
                    )
                    let read = try format.read(SpecTruth.Abyss.self, written)
                    try SpecTruth.check(read.storedVersion, 2, "\(format) stored version")
                    try SpecTruth.check(read.wrappedValue, SpecTruth.Abyss(name: "deep"), "\(format) value")
                    let v1 = try format.document(SpecTruth.DeepPathSpec.document(version: 1, fields: ["name": "old"]))
                    try SpecTruth.check(
                        try format.readValue(SpecTruth.Abyss.self, v1),
                        SpecTruth.Abyss(name: "old+2"),
                        "\(format) version 1"
                    )
                }
            }
        }
    }

    /// Puts the version 600 objects down, deeper than a spec may nest.
    struct BottomlessSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.a.version }
        var a: SpecTruth.DeepLevel

        init(withVersion version: Int?) {
            var level = SpecTruth.DeepLevel.leaf(version)
            for _ in 1..<600 {
                level = .level(level)
            }
            a = level
        }
    }

    struct Bottomless: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = BottomlessSpec
        var name: String
    }

    /// Runs in a child process: a regression that overflows the stack fails this test only.
    @Test("A spec that nests deeper than a spec may is refused with a reason, not followed")
    func specTooDeep() async {
        await #expect(processExitsWith: .success) {
            SpecTruth.endChildProcess {
                do {
                    _ = try JSONEncoder().encode(versioned: Bottomless(name: "n"))
                    throw SpecTruth.Mismatch("written")
                } catch VersionedDecodingError.invalidVersionChain(.unsupportedSpec(_, let reason)) {
                    try SpecTruth.check(reason.contains("nests objects more than"), true, "the reason: \(reason)")
                }
            }
        }
    }

    /// Names the chain's three versions and stops the process when asked for any other, as a
    /// spec that maps its versions with a table may.
    struct TableSpec: VersionPathSpec {
        static let names = [1: "alpha", 2: "beta", 3: "gamma"]
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.number }
        var format: String?
        var number: Int? { format.flatMap { name in Self.names.first { $0.value == name }?.key } }
        init(withVersion version: Int?) {
            guard let version else {
                format = nil
                return
            }
            guard let name = Self.names[version] else { fatalError("asked for version \(version)") }
            format = name
        }
    }

    struct TableV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = TableSpec
        var name: String
    }

    struct TableV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = TableV1
        typealias VersionSpec = TableSpec
        var name: String
        init(name: String) { self.name = name }
        init(from old: TableV1) { name = old.name }
        func downgraded() -> TableV1 { TableV1(name: name) }
    }

    struct Table: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = TableV2
        typealias VersionSpec = TableSpec
        var name: String
        init(name: String) { self.name = name }
        init(from old: TableV2) { name = old.name }
        func downgraded() -> TableV2 { TableV2(name: name) }
    }

    /// Runs in a child process: a spec asked for a version outside the chain stops it.
    @Test("A spec is asked only for versions of the chain, on every path")
    func specAskedOnlyForTheChainsVersions() async {
        await #expect(processExitsWith: .success) {
            SpecTruth.endChildProcess {
                try Table.validateVersionChain()
                for format in Format.allCases {
                    for version in [3, 2, 1] {
                        let data = try format.write(Table(name: "a"), asVersion: version)
                        let read = try format.read(Table.self, data)
                        try SpecTruth.check(read.storedVersion, version, "\(format) version \(version)")
                        try SpecTruth.check(read.wrappedValue, Table(name: "a"), "\(format) value of \(version)")
                    }
                }
            }
        }
    }

    /// Names the `nil` version and version 1 only, and stops the process when asked for any
    /// other.
    struct PairSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.number }
        var format: String?
        var number: Int? { format == "alpha" ? 1 : nil }
        init(withVersion version: Int?) {
            switch version {
            case nil: format = nil
            case 1: format = "alpha"
            default: fatalError("asked for version \(version!)")
            }
        }
    }

    struct PairV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = PairSpec
        var name: String
        var format: String?
    }

    struct Pair: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = PairV0
        typealias VersionSpec = PairSpec
        var name: String
        init(name: String) { self.name = name }
        init(from old: PairV0) { name = old.name }
        func downgraded() -> PairV0 { PairV0(name: name, format: nil) }
    }

    /// Runs in a child process, as the test above.
    @Test("A chain of the nil version and one other asks its spec for those two only")
    func specOfTwoVersionsAskedOnlyForThem() async {
        await #expect(processExitsWith: .success) {
            SpecTruth.endChildProcess {
                try Pair.validateVersionChain()
                for format in Format.allCases {
                    for version in [1, nil] as [Int?] {
                        let data = try format.write(Pair(name: "a"), asVersion: version)
                        let read = try format.read(Pair.self, data)
                        try SpecTruth.check(
                            read.storedVersion,
                            version,
                            "\(format) version \(String(describing: version))"
                        )
                        try SpecTruth.check(read.wrappedValue, Pair(name: "a"), "\(format) value")
                    }
                    // The nil version's own value where version 1's name goes is refused.
                    do {
                        _ = try format.write(PairV0(name: "a", format: "alpha"))
                        throw SpecTruth.Mismatch("\(format): the nil version's own format was written")
                    } catch VersionedEncodingError.typeHasClashingVersionField {}
                }
            }
        }
    }

    @Test("A document that is no object reads as the nil version through a lenient spec", arguments: Format.allCases)
    func nonObjectLegacyDocuments(format: Format) throws {
        for (legacy, lines) in [("hello", ["hello"]), (["a", "b"], ["a", "b"])] as [(Any, [String])] {
            let document = try format.document(legacy)
            // Where the format reads such a root at all, the versioned decode reads it as the
            // unversioned type.
            guard (try? format.readPlain(SpecTruth.ScrapV0.self, document)) != nil else { continue }
            let read = try format.read(SpecTruth.Scrap.self, document)
            #expect(read.storedVersion == nil)
            #expect(read.wrappedValue == SpecTruth.Scrap(lines: lines, migrated: true))
        }
        let written = try format.write(SpecTruth.Scrap(lines: ["x"], migrated: false))
        #expect(SpecTruth.int(try format.object(written), "version") == 1)
        #expect(try format.readValue(SpecTruth.Scrap.self, written) == SpecTruth.Scrap(lines: ["x"], migrated: false))
    }

    @Test("A bare JSON string and array read as the nil version through a lenient spec")
    func nonObjectLegacyJSON() throws {
        let string = try JSONDecoder().decodeWithStoredVersion(SpecTruth.Scrap.self, from: Data(#""hello""#.utf8))
        #expect(string.storedVersion == nil)
        #expect(string.wrappedValue == SpecTruth.Scrap(lines: ["hello"], migrated: true))
        let array = try JSONDecoder().decode(versioned: SpecTruth.Scrap.self, from: Data(#"["a","b"]"#.utf8))
        #expect(array == SpecTruth.Scrap(lines: ["a", "b"], migrated: true))
    }

    @Test(
        "A version 1 whose own field sits where version 2's spec puts the number is written and read as version 1",
        arguments: Format.allCases
    )
    func olderSpecIsAskedWhenTheNewerOneCannotRead(format: Format) throws {
        let value = SpecTruth.Draft(title: "t", draft: 3)
        let v1 = try format.write(value, asVersion: 1)
        let object = try format.object(v1)
        #expect(object["version"] as? String == "draft-3")
        #expect(SpecTruth.int(try SpecTruth.nested(object, "_meta"), "v") == 1)
        let read = try format.read(SpecTruth.Draft.self, v1)
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == value)
        let direct = try format.write(SpecTruth.DraftV1(version: "draft-4", title: "u"))
        #expect(try format.readValue(SpecTruth.Draft.self, direct) == SpecTruth.Draft(title: "u", draft: 4))

        let v2 = try format.write(value)
        #expect(SpecTruth.int(try format.object(v2), "version") == 2)
        let readV2 = try format.read(SpecTruth.Draft.self, v2)
        #expect(readV2.storedVersion == 2)
        #expect(readV2.wrappedValue == value)
    }

    @Test("When no spec of the chain reads a version, the requested type's spec's error stands")
    func firstSpecsErrorStands() throws {
        // Version 2's spec finds a string; version 1's finds no `_meta`.
        let document = Data(#"{"version":"draft-3","title":"t"}"#.utf8)
        #expect {
            try JSONDecoder().decode(versioned: SpecTruth.Draft.self, from: document)
        } throws: { error in
            guard case DecodingError.typeMismatch = error else { return false }
            return true
        }
    }

    @Test(
        "A key the spec writes only for older versions is no clash for a newer version's own field",
        arguments: Format.allCases
    )
    func keyWrittenOnlyForOlderVersions(format: Format) throws {
        let tool = SpecTruth.Tool(name: "saw", legacy: false)
        let written = try format.write(tool)
        let object = try format.object(written)
        #expect((object["legacy"] as? NSNumber)?.boolValue == false)
        #expect(SpecTruth.int(object, "version") == 3)
        let read = try format.read(SpecTruth.Tool.self, written)
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue == tool)

        let old = try format.write(tool, asVersion: 2)
        let oldObject = try format.object(old)
        #expect((oldObject["legacy"] as? NSNumber)?.boolValue == true)
        #expect(SpecTruth.int(oldObject, "version") == 2)
        #expect(try format.readValue(SpecTruth.Tool.self, old) == SpecTruth.Tool(name: "saw+3", legacy: true))
    }

    @Test("A camel-case spec property reads back its own documents under snake-case strategies")
    func camelCaseSpecUnderSnakeCase() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let recipe = SpecTruth.Recipe(cookingTime: 20, servingSize: 4)
        let written = try encoder.encode(versioned: recipe)
        let object = try Format.json.object(written)
        #expect(SpecTruth.int(object, "schema_version") == 2)
        #expect(SpecTruth.int(object, "cooking_time") == 20)
        #expect(object["schemaVersion"] == nil)
        let read = try decoder.decodeWithStoredVersion(SpecTruth.Recipe.self, from: written)
        #expect(read.storedVersion == 2)
        #expect(read.wrappedValue == recipe)

        let v1 = try encoder.encode(versioned: SpecTruth.RecipeV1(cookingTime: 5))
        #expect(SpecTruth.int(try Format.json.object(v1), "schema_version") == 1)
        let readV1 = try decoder.decodeWithStoredVersion(SpecTruth.Recipe.self, from: v1)
        #expect(readV1.storedVersion == 1)
        #expect(readV1.wrappedValue == SpecTruth.Recipe(cookingTime: 5, servingSize: 0))

        // Without the decoding strategy the snake-case key is not the spec's, as in a plain decode.
        #expect(try JSONDecoder().storedVersion(of: SpecTruth.Recipe.self, from: written) == nil)
    }

    @Test("A snake-case spec property reads what a plain decode of the spec reads, under each decoding strategy")
    func snakeCaseSpecUnderSnakeCase() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let written = try encoder.encode(versioned: SpecTruth.Ledger(balance: 10))
        let object = try Format.json.object(written)
        #expect(SpecTruth.int(object, "schema_version") == 2)
        #expect(SpecTruth.int(object, "balance") == 10)
        let plain = JSONDecoder()
        #expect(try plain.decode(SpecTruth.SnakeVersionSpec.self, from: written).schema_version == 2)
        #expect(try plain.storedVersion(of: SpecTruth.Ledger.self, from: written) == 2)
        #expect(
            try plain.decode(versioned: SpecTruth.Ledger.self, from: written) == SpecTruth.Ledger(balance: 10)
        )
        // Converted from snake case, the document's key is no longer the spec's, in a plain
        // decode of the spec as in the versioned one.
        let fromSnake = JSONDecoder()
        fromSnake.keyDecodingStrategy = .convertFromSnakeCase
        let specReads = try fromSnake.decode(SpecTruth.SnakeVersionSpec.self, from: written).schema_version
        #expect(try fromSnake.storedVersion(of: SpecTruth.Ledger.self, from: written) == specReads)
    }
}
