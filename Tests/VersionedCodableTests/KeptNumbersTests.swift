import Foundation
import Testing
import VersionedCodable

// A number an older build keeps without reading comes back as a plain field of the matching
// Swift type writes it: exactly where an integer type or a `Decimal` holds it, otherwise as the
// `Double` the coder reads. Reading never refuses a number that a plain `Double` field reads.

@Suite("Kept numbers come back as a plain field writes them")
struct KeptNumbersTests {
    /// The newer build's version, with a `Double` the older build does not know.
    struct Reading: VersionedCodable, Equatable {
        static let version: Int? = 3
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = ChoreV2
        var name: String
        var done: Bool
        var value: Double

        init(name: String, done: Bool, value: Double) {
            self.name = name
            self.done = done
            self.value = value
        }

        init(from old: ChoreV2) {
            self.init(name: old.name, done: old.done, value: 0)
        }
    }

    static let doubles: [Double] = [
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e308, 1e-308, .leastNonzeroMagnitude,
        .leastNormalMagnitude,
        0.1, 1.0 / 3, 123_456_789.125, -2.5e-200, 0x1p53 + 2, 0x1p63, 1e22,
    ]

    @Test(
        "A Double a newer build writes is kept by an older build and written back as it was, in every format",
        arguments: SpecTruth.Format.allCases
    )
    func doublesRoundTrip(format: SpecTruth.Format) throws {
        for double in Self.doubles {
            let newer = Reading(name: "n", done: true, value: double)
            let written = try format.write(newer)
            var old = try format.readPlain(Versioned<ChoreV2>.self, written)
            #expect(old.isFromNewerVersion)
            old.wrappedValue.done = false
            let back = try format.readValue(Reading.self, try format.writePlain(old))
            #expect(back == Reading(name: "n", done: false, value: double), "\(double) in \(format)")
        }
    }

    @Test("JSON5 hexadecimal integers that no Double holds are kept as integers")
    func json5HexadecimalIntegers() throws {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let numbers: [(String, String)] = [
            ("0x20000000000001", "9007199254740993"), ("-0x20000000000001", "-9007199254740993"),
            ("0xFFFFFFFFFFFFFFFF", "18446744073709551615"), ("0x1F", "31"),
        ]
        for (hex, decimal) in numbers {
            let document =
                "{version: 3, versionReadableFrom: 2, versionWritableFrom: 2, " + "name: 'n', done: true, x: \(hex)}"
            let read = try decoder.decode(Versioned<ChoreV2>.self, from: Data(document.utf8))
            let back = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
            #expect(back.contains(#""x":\#(decimal)"#), "\(hex) came back as \(back)")
        }
    }

    @Test("JSON numbers come back as the matching plain field writes them")
    func jsonNumbers() throws {
        let header = #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","done":true,"x":"#
        // Integers and numbers whose digits a Decimal holds come back digit for digit.
        let exactNumbers = [
            "-9223372036854775808", "18446744073709551615", "0.1", "3.14159265358979323846", "1.5e-7",
            "12345678901234567890123456789012345678", "0.12345678901234567890123456789012345678",
            "10000000000000000000000000000000000001", "123456789012345678901234567890123456789",
            "340282366920938463463374607431768211455",
        ]
        let greatest = String(decoding: try JSONEncoder().encode(Decimal.greatestFiniteMagnitude), as: UTF8.self)
        for exact in exactNumbers + [greatest] {
            let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: Data((header + exact + "}").utf8))
            struct Field: Decodable { var x: Decimal }
            let back = try JSONDecoder().decode(Field.self, from: JSONEncoder().encode(read))
            #expect(back.x == Decimal(string: exact), "\(exact) came back as \(back.x)")
        }
        // More digits than a Decimal holds: as a Decimal field reads them, with the same digits
        // dropped.
        for long in ["123456789012345678901234567890123456789012", "0.12345678901234567890123456789012345678901"] {
            let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: Data((header + long + "}").utf8))
            struct Field: Codable { var x: Decimal }
            let plain = try JSONDecoder().decode(Field.self, from: Data(#"{"x":\#(long)}"#.utf8))
            let back = try JSONDecoder().decode(Field.self, from: JSONEncoder().encode(read))
            #expect(back.x == plain.x, "\(long) came back as \(back.x), where a Decimal field reads \(plain.x)")
        }
        // Beyond a Decimal's exponents: as the Double a plain field writes.
        for beyond in ["1e308", "-1.7976931348623157e+308", "4.9e-324"] {
            let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: Data((header + beyond + "}").utf8))
            let back = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
            let plain = try #require(try plainDoubleField(beyond))
            #expect(back.contains(#""x":\#(plain)"#), "\(beyond) came back as \(back)")
        }
    }

    /// The newer build's version, with a `Double` under the key the older build keeps.
    struct Measured: VersionedCodable, Equatable {
        static let version: Int? = 3
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = ChoreV2
        var name: String
        var done: Bool
        var x: Double

        init(from old: ChoreV2) {
            name = old.name
            done = old.done
            x = 0
        }
    }

    @Test(
        "A number kept from a JSON document is written back as a number in a property list",
        arguments: [SpecTruth.Format.xmlPlist, .binaryPlist]
    )
    func keptJSONNumberInPropertyLists(format: SpecTruth.Format) throws {
        let header = #"{"version":3,"versionReadableFrom":2,"versionWritableFrom":2,"name":"n","done":true,"x":"#
        // More digits than a Double holds: kept as a Decimal, whose own coding in a property
        // list is a dictionary, not a number. A property list gets the nearest Double, and JSON
        // still every digit.
        let document = Data((header + "3.14159265358979323846}").utf8)
        let read = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: document)
        let back = try format.readValue(Measured.self, try format.writePlain(read))
        #expect(back.x == 3.141592653589793)
        let json = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
        #expect(json.contains(#""x":3.14159265358979323846"#))

        // Inside kept arrays and objects, and through a super encoder, the same.
        let nested = Data((header + #"1,"more":{"a":[2.71828182845904523536]}}"#).utf8)
        let kept = try JSONDecoder().decode(Versioned<ChoreV2>.self, from: nested)
        let list = try PropertyListSerialization.propertyList(from: try format.writePlain(kept), format: nil)
        let more = try #require((list as? [String: Any])?["more"] as? [String: Any])
        #expect((more["a"] as? [Any])?.first as? Double == 2.718281828459045)
        struct Wrapper: Encodable {
            let kept: Versioned<ChoreV2>
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try kept.encode(to: container.superEncoder(forKey: .kept))
            }
            enum CodingKeys: CodingKey { case kept }
        }
        let wrapped = String(decoding: try JSONEncoder().encode(Wrapper(kept: kept)), as: UTF8.self)
        #expect(wrapped.contains(#""a":[2.71828182845904523536]"#))
    }
}
