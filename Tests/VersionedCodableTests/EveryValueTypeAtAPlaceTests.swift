import Foundation
import Testing
import VersionedCodable

// Where a spec writes and reads, the library's containers pass each of the coders' own value
// types on through a method of its own (`encode(_: Int32, forKey:)`, `decodeIfPresent(_:forKey:)`
// and so on). Each of those methods is run here, at the root and in `_metadata`, with values at
// the ends of their ranges and with `nil`: the document is the plain one plus the version, and
// reads back as the value.

@Suite("Every value type a coder writes by its own method passes where a spec writes")
struct EveryValueTypeAtAPlaceTests {
    /// One field of each type the containers have a method for, and an optional of each.
    struct Gauges: Codable, Equatable {
        var flag: Bool
        var name: String
        var ratio: Double
        var level: Float
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var maybeFlag: Bool?
        var maybeName: String?
        var maybeRatio: Double?
        var maybeLevel: Float?
        var maybeInt: Int?
        var maybeInt8: Int8?
        var maybeInt16: Int16?
        var maybeInt32: Int32?
        var maybeInt64: Int64?
        var maybeUInt: UInt?
        var maybeUInt8: UInt8?
        var maybeUInt16: UInt16?
        var maybeUInt32: UInt32?
        var maybeUInt64: UInt64?

        /// Every field at the low end of its range, the optionals set, or all of them `nil`.
        static func low(optionalsSet: Bool) -> Self {
            Self(
                flag: false,
                name: "",
                ratio: -1.5,
                level: -0.25,
                int: .min,
                int8: .min,
                int16: .min,
                int32: .min,
                int64: .min,
                uint: .min,
                uint8: .min,
                uint16: .min,
                uint32: .min,
                uint64: .min,
                maybeFlag: optionalsSet ? false : nil,
                maybeName: optionalsSet ? "" : nil,
                maybeRatio: optionalsSet ? -2.5 : nil,
                maybeLevel: optionalsSet ? -0.5 : nil,
                maybeInt: optionalsSet ? .min : nil,
                maybeInt8: optionalsSet ? .min : nil,
                maybeInt16: optionalsSet ? .min : nil,
                maybeInt32: optionalsSet ? .min : nil,
                maybeInt64: optionalsSet ? .min : nil,
                maybeUInt: optionalsSet ? .min : nil,
                maybeUInt8: optionalsSet ? .min : nil,
                maybeUInt16: optionalsSet ? .min : nil,
                maybeUInt32: optionalsSet ? .min : nil,
                maybeUInt64: optionalsSet ? .min : nil
            )
        }

        /// Every field at the high end of its range, and every optional set.
        static let high = Self(
            flag: true,
            name: "gauge",
            ratio: 1e300,
            level: 3.5,
            int: .max,
            int8: .max,
            int16: .max,
            int32: .max,
            int64: .max,
            uint: .max,
            uint8: .max,
            uint16: .max,
            uint32: .max,
            uint64: .max,
            maybeFlag: true,
            maybeName: "spare",
            maybeRatio: 0.125,
            maybeLevel: 7.75,
            maybeInt: .max,
            maybeInt8: .max,
            maybeInt16: .max,
            maybeInt32: .max,
            maybeInt64: .max,
            maybeUInt: .max,
            maybeUInt8: .max,
            maybeUInt16: .max,
            maybeUInt32: .max,
            maybeUInt64: .max
        )
    }

    /// The gauges' fields at the root, beside the default spec's `version`.
    struct Panel: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        var gauges: Gauges

        init(_ gauges: Gauges) { self.gauges = gauges }
        init(from decoder: any Decoder) throws { gauges = try Gauges(from: decoder) }
        func encode(to encoder: any Encoder) throws { try gauges.encode(to: encoder) }
    }

    /// Keeps the version at `_metadata.version`.
    struct MetadataSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.metadata.version }
        struct Metadata: Codable {
            var version: Int?
        }
        var metadata: Metadata
        enum CodingKeys: String, CodingKey {
            case metadata = "_metadata"
        }
        init(withVersion version: Int?) { metadata = Metadata(version: version) }
    }

    /// The gauges' fields in `_metadata`, beside the spec's `version` there.
    struct Dial: VersionedCodable, Equatable {
        static let version: Int? = 4
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataSpec
        var metadata: Gauges
        var title = "dial"

        enum CodingKeys: String, CodingKey {
            case metadata = "_metadata"
            case title
        }
        init(_ gauges: Gauges) { metadata = gauges }
    }

    /// Each value as the parser of the format gave it, described: two documents read by the same
    /// parser have the same descriptions where they hold the same values.
    static func described(_ object: [String: Any]) -> [String: String] {
        object.mapValues { "\(type(of: $0)) \($0)" }
    }

    static let samples: [Gauges] = [.low(optionalsSet: true), .low(optionalsSet: false), .high]

    @Test(
        "At the root, each value is written as a plain encode writes it and reads back",
        arguments: SpecTruth.Format.allCases,
        samples.indices
    )
    func atTheRoot(format: SpecTruth.Format, sample: Int) throws {
        let value = Panel(Self.samples[sample])
        let written = try format.write(value)
        var object = try format.object(written)
        #expect(object.removeValue(forKey: "version") as? Int == 3)
        let plain = try format.object(format.writePlain(value.gauges))
        #expect(Self.described(object) == Self.described(plain))
        #expect(try format.readValue(Panel.self, written) == value)
    }

    @Test(
        "In `_metadata`, each value is written as a plain encode writes it and reads back",
        arguments: SpecTruth.Format.allCases,
        samples.indices
    )
    func inMetadata(format: SpecTruth.Format, sample: Int) throws {
        let value = Dial(Self.samples[sample])
        let written = try format.write(value)
        let object = try format.object(written)
        var metadata = try #require(object["_metadata"] as? [String: Any])
        #expect(metadata.removeValue(forKey: "version") as? Int == 4)
        let plain = try format.object(format.writePlain(value.metadata))
        #expect(Self.described(metadata) == Self.described(plain))
        #expect(try format.readValue(Dial.self, written) == value)
    }
}
