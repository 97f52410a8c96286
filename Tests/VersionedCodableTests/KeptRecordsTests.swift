import Foundation
import Testing
import VersionedCodable

// An array of records that an old build does not know is read with each field tried first as
// the kind it had in the records before. These tests hold that reading to what reading each
// record on its own gives, whatever the records do from one to the next.

@Suite("Kept arrays of records")
struct KeptRecordsTests {
    static let header = #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","done":true,"#

    /// Records whose fields change kind, appear and disappear from one record to the next, with
    /// other kinds of element between them.
    static let records = [
        #"{"a":"text","b":1,"c":true,"d":[1,2],"e":{"x":1},"f":null,"g":0.5}"#,
        #"{"a":2,"b":"two","c":[true],"d":{"y":[]},"e":null,"f":false,"g":"0.5"}"#,
        #"{"a":null,"b":{"z":"deep"},"c":3.25,"d":"d","e":[{"q":1},{"q":"one"}],"f":[],"g":1e5}"#,
        #"{"a":[],"b":[{"k":1},{"k":2,"l":[{"m":null},{"m":7}]}],"c":{},"d":false,"e":"e","f":{"f":{}},"g":-0}"#,
        "17", #""plain""#, "null", "[1,[2]]", "{}",
        #"{"a":9007199254740993,"b":9007199254740992,"c":18446744073709551615,"d":-9223372036854775808}"#,
        #"{"a":0.1234567890123456,"b":1.5e-120,"c":2.5e-127,"d":123456789012345678901234567890,"g":1.0}"#,
        #"{"a":"new keys from here","h":1,"i":{"j":[1,"2",null]}}"#,
        #"{"h":"h","i":2,"a":3}"#,
        #"{"a":"text","b":1,"c":true,"d":[1,2],"e":{"x":1},"f":null,"g":0.5}"#,
    ]

    /// The document with `elements` in a kept array, read by the old build and written back with
    /// sorted keys: the kept array is last, as `zz`.
    static func writtenBack(_ elements: [String], decoder: JSONDecoder = JSONDecoder()) throws -> String {
        let document = Data((header + #""zz":["# + elements.joined(separator: ",") + "]}").utf8)
        let read = try decoder.decode(Versioned<ChoreV2>.self, from: document)
        #expect(read.isFromNewerVersion)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(read), as: UTF8.self)
    }

    /// What a kept array's elements were written back as, from a document that `writtenBack`
    /// wrote.
    static func keptElements(_ written: String) throws -> Substring {
        let start = try #require(written.range(of: #""zz":["#))
        #expect(written.hasSuffix("]}"))
        return written[start.upperBound..<written.index(written.endIndex, offsetBy: -2)]
    }

    @Test("Each record comes back as it does when it is alone in its array")
    func recordsReadByKindsAsAlone() throws {
        let alone = try Self.records.map { try Self.keptElements(try Self.writtenBack([$0])) }
        let together = try Self.keptElements(try Self.writtenBack(Self.records))
        #expect(together == alone.joined(separator: ","))
        // And the values are those of the document.
        let original = try JSONSerialization.jsonObject(
            with: Data(("[" + Self.records.joined(separator: ",") + "]").utf8)
        )
        let back = try JSONSerialization.jsonObject(with: Data(("[" + together + "]").utf8))
        #expect((original as? NSArray) == (back as? NSArray))
    }

    @Test("Records nested in records, many of them, come back as they are alone")
    func nestedRecords() throws {
        let inner = (0..<40).map { #"{"n":\#($0),"s":"\#($0)","l":[{"x":\#($0)},{"x":"\#($0)"}]}"# }
        let outer = (0..<30).map { #"{"id":\#($0),"items":[\#(inner.joined(separator: ","))],"when":null}"# }
        let alone = try outer.map { try Self.keptElements(try Self.writtenBack([$0])) }
        #expect(try Self.keptElements(try Self.writtenBack(outer)) == alone.joined(separator: ","))
    }

    @Test(
        "Under key strategies, records keep their keys as written",
        arguments: ["snake case", "capitals lowercased", "writing only in snake case", "writing only capitalized"]
    )
    func recordsUnderKeyStrategies(strategy: String) throws {
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        if strategy == "snake case" {
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            encoder.keyEncodingStrategy = .convertToSnakeCase
        } else if strategy == "writing only in snake case" {
            encoder.keyEncodingStrategy = .convertToSnakeCase
        } else if strategy == "writing only capitalized" {
            // The document's own keys are not the type's, so only a kept key could change.
            encoder.keyEncodingStrategy = .custom { path in
                let key = path.last!.stringValue
                return ChoreKey(stringValue: path.count > 1 ? key.capitalized : key)
            }
        } else {
            // Keys that start with a capital are lowercased.
            decoder.keyDecodingStrategy = .custom { path in
                let key = path.last!.stringValue
                return ChoreKey(stringValue: key.first?.isUppercase == true ? key.lowercased() : key)
            }
        }
        // Keys that each strategy reads as the same key, in records after records without them.
        let records = [
            #"{"plain":1,"createdAt":"a","other":[{"x":1}]}"#, #"{"plain":2,"createdAt":"b","other":[{"x":2}]}"#,
            #"{"plain":3,"created_at":"c","Plain":4}"#, #"{"plain":6,"CREATEDAT":"d","other":[{"X":3},{"x":4}]}"#,
            #"{"snake_key":7,"camelKey":8,"a__b":9,"createdAt":"e"}"#, #"{"plain":10,"created_at":"f"}"#,
            #"{"CREATEDAT":"g","snake_key":11}"#, #"{"plain":12,"createdAt":"h"}"#,
        ]
        // Arrays of fewer than eight elements are read and written the general way.
        #expect(records.count >= 8)
        let document = Data((Self.header + #""zz":["# + records.joined(separator: ",") + "]}").utf8)
        let read = try decoder.decode(Versioned<ChoreV2>.self, from: document)
        let object = try VersionPlacementTests.object(try encoder.encode(read))
        let kept = try #require(object["zz"] as? NSArray)
        let original = try JSONSerialization.jsonObject(with: Data(("[" + records.joined(separator: ",") + "]").utf8))
        #expect(kept == original as? NSArray)
    }

    /// A key a custom strategy makes.
    struct ChoreKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test("A number deep in records of records with more digits than a Decimal holds reads back as a Decimal field")
    func errorDeepInRecords() throws {
        // Each level's first record has an array where the second has the next level, so every
        // level is read by kinds; the number at the bottom has more digits than can be kept.
        var level = #"{"a":[],"n":123456789012345678901234567890123456789012}"#
        for _ in 0..<25 {
            level =
                String(repeating: #"{"a":[],"o":{}},"#, count: 7)
                + #"{"a":[\#(level)],"o":{"p":[{"q":1},{"q":2}]}}"#
            level = #"{"a":["# + level + #"],"o":{}}"#
        }
        let document = Data((Self.header + #""zz":["# + level + "]}").utf8)
        let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: document)
        let back = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
        // What a `Decimal` field reads of the number, as JSONEncoder writes it.
        let digits = "123456789012345678901234567890123456789012"
        let decimal = try JSONDecoder().decode(Decimal.self, from: Data(digits.utf8))
        let plain = String(decoding: try JSONEncoder().encode(decimal), as: UTF8.self)
        #expect(back.contains(#""n":\#(plain)"#), "\(back.suffix(80))")
    }

    @Test("A string that a float strategy reads as infinite stays a string among numbers")
    func nonConformingFloatStrings() throws {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan"
        )
        let records = Array(repeating: [#"{"x":1.5}"#, #"{"x":"inf"}"#, #"{"x":2}"#, #"{"x":"nan"}"#], count: 2)
            .joined()
            .map { $0 }
        let together = try Self.keptElements(try Self.writtenBack(records, decoder: decoder))
        #expect(together == records.joined(separator: ","))
    }

    @Test(
        "Records whose fields change kind come back as they were in property lists",
        arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml]
    )
    func recordsInPropertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        // Property lists have no null; every other kind changes from one record to the next.
        let records: [Any] = [
            ["a": "text", "b": 1, "c": true, "d": [1, 2], "e": ["x": 1], "g": 0.5],
            ["a": 2, "b": "two", "c": [true], "d": ["y": [Int]()], "e": Date(timeIntervalSinceReferenceDate: 9)],
            17, "plain", [1, [2]], [String: Int](),
            [
                "a": Data([1, 2]), "b": ["z": "deep"], "c": 3.25, "d": "d", "e": [["q": 1], ["q": "one"]], "g": 100_000,
            ],
            ["a": [Int](), "b": [["k": 1], ["k": 2.5]], "c": [String: Int](), "d": false, "e": "e"],
            ["a": "text", "b": 1, "c": true, "d": [1, 2], "e": ["x": 1], "g": 0.5],
            ["h": "new", "a": 3],
        ]
        let document: [String: Any] = [
            "version": 3, "versionReadableFrom": 2, "versionWritableFrom": 2, "name": "n", "done": false,
            "zz": records,
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: document, format: format, options: 0)
        var read = try PropertyListDecoder().decode(Versioned<ChoreV2>.self, from: data)
        read.wrappedValue.done = true
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let back = try VersionPlacementTests.object(try encoder.encode(read))
        #expect((back["zz"] as? NSArray) == (records as NSArray))
        #expect(back["done"] as? Bool == true)
    }

    /// A record with the kinds property lists add.
    struct Entry: Codable, Equatable {
        var at: Date
        var blob: Data
        var score: Double?
        var count: Int?
        var tags: [String]
    }

    /// A newer document with records.
    struct ChoreWithEntries: Codable, Equatable {
        var version = 3
        var versionReadableFrom = 2
        var versionWritableFrom = 2
        var name = "a"
        var done = false
        var entries = (0..<50).map(Self.entry)

        static func entry(_ index: Int) -> Entry {
            let score: Double? = index % 3 == 0 ? nil : Double(index) / 8
            let count: Int? = index % 4 == 0 ? nil : index
            let tags: [String] = index % 2 == 0 ? [] : ["t\(index)"]
            let at = Date(timeIntervalSinceReferenceDate: Double(index * 1000))
            return Entry(at: at, blob: Data([UInt8(index), 0, 255]), score: score, count: count, tags: tags)
        }
    }

    @Test("Records with dates and data come back in every format", arguments: ["json", "xml plist", "binary plist"])
    func recordsInEveryFormat(format: String) throws {
        let encode = try #require(OldAndNewBuildsTests.formats.first { $0.name == format }).encode
        var read = try OldAndNewBuildsTests.decode(Versioned<ChoreV2>.self, try encode(ChoreWithEntries()))
        read.wrappedValue.done = true
        var expected = ChoreWithEntries()
        expected.done = true
        #expect(try OldAndNewBuildsTests.decode(ChoreWithEntries.self, try encode(read)) == expected)
    }
}
