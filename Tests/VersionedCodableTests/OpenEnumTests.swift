import Foundation
import Testing
import VersionedCodable

// An old and a new build of a parcel. The old build's newest version is `Parcel`, whose status
// is open; the new build's `ParcelV2` adds the status `returned` and nothing else, so it
// declares that builds of version 1 may read and write its documents.

// snippet: open-enum-field
/// The statuses the old build knows.
enum ParcelStatus: String, Codable, Sendable {
    case packed, shipped, delivered
}

/// The old build's newest version: its status is open, so it keeps statuses it does not know.
struct Parcel: VersionedCodable, Equatable, Sendable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var recipient: String
    var status: OpenEnum<ParcelStatus>
}
// end snippet

// snippet: open-enum-new-case
/// In the new build the enum has one more case...
enum ParcelStatusV2: String, Codable, Sendable {
    case packed, shipped, delivered, returned
}

/// ...and version 2 adds nothing else, so builds of version 1 may read and write it.
struct ParcelV2: VersionedCodable, Equatable, Sendable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = Parcel

    var recipient: String
    var status: OpenEnum<ParcelStatusV2>

    init(recipient: String, status: ParcelStatusV2) {
        self.recipient = recipient
        self.status = .known(status)
    }

    init(from old: Parcel) {
        recipient = old.recipient
        status = OpenEnum(rawValue: old.status.rawValue)
    }
}
// end snippet

/// An enum backed by integers, as numbers in the document.
enum Floor: Int, Codable, Sendable {
    case ground = 0, first = 1
}

/// A plain `Codable` type with open fields of both kinds of raw value.
struct Delivery: Codable, Equatable, Sendable {
    var status: OpenEnum<ParcelStatus>
    var floor: OpenEnum<Floor>
    var history: [OpenEnum<ParcelStatus>]
    var last: OpenEnum<ParcelStatus>?
}

@Suite("Open enums keep cases this build does not know")
struct OpenEnumTests {
    static func encode<T: Encodable>(_ value: T, format: String) throws -> Data {
        switch format {
        case "json": return try JSONEncoder().encode(value)
        case "xml plist":
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .xml
            return try encoder.encode(value)
        default:
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            return try encoder.encode(value)
        }
    }

    @Test("Known cases and unknown raw values are read, and written back as they were, in every format")
    func roundTripsInEveryFormat() throws {
        for format in ["json", "xml plist", "binary plist"] {
            /// What a newer build might write: a status and a floor this build does not know.
            struct Written: Codable {
                var status = "lost"
                var floor = 7
                var history = ["packed", "held at customs", "shipped"]
                var last: String? = "returned"
            }
            let written = try Self.encode(Written(), format: format)
            let read = try OldAndNewBuildsTests.decode(Delivery.self, written)
            #expect(read.status == .unknown("lost"))
            #expect(read.status.known == nil)
            #expect(read.floor == .unknown(7))
            #expect(read.history == [.known(.packed), .unknown("held at customs"), .known(.shipped)])
            #expect(read.last == .unknown("returned"))
            let back = try OldAndNewBuildsTests.decode(Written.self, try Self.encode(read, format: format))
            #expect(back.status == "lost" && back.floor == 7 && back.last == "returned", "\(format)")
            #expect(back.history == ["packed", "held at customs", "shipped"], "\(format)")
        }
    }

    @Test("An open field is written exactly as the plain enum would be")
    func sameDocumentAsPlainEnum() throws {
        struct Plain: Codable {
            var status: ParcelStatus
            var floor: Floor
        }
        struct Open: Codable {
            var status: OpenEnum<ParcelStatus>
            var floor: OpenEnum<Floor>
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let plain = try encoder.encode(Plain(status: .shipped, floor: .first))
        let open = try encoder.encode(Open(status: .known(.shipped), floor: .known(.first)))
        #expect(plain == open)
        #expect(String(decoding: open, as: UTF8.self) == #"{"floor":1,"status":"shipped"}"#)
        let read = try JSONDecoder().decode(Open.self, from: plain)
        #expect(read.status.known == .shipped && read.floor.known == .first)
    }

    @Test("Values are equal and hash alike when their raw values are, known or not")
    func equalityByRawValue() {
        #expect(OpenEnum<ParcelStatus>.unknown("shipped") == .known(.shipped))
        #expect(OpenEnum<ParcelStatus>(rawValue: "shipped") == .known(.shipped))
        #expect(OpenEnum<ParcelStatus>(rawValue: "shipped").known == .shipped)
        #expect(OpenEnum<ParcelStatus>.unknown("lost") != .known(.shipped))
        #expect(OpenEnum<Floor>(rawValue: 7).rawValue == 7)
        let set: Set<OpenEnum<ParcelStatus>> = [.unknown("shipped"), .known(.shipped), .unknown("lost")]
        #expect(set.count == 2)
    }

    @Test("A value of a type that does not hold the raw value's kind is a decoding error")
    func wrongKindIsAnError() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Delivery.self, from: Data(#"{"status":3,"floor":1,"history":[]}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Delivery.self, from: Data(#"{"status":"packed","floor":"1","history":[]}"#.utf8))
        }
    }

    @Test("An old build with an open field reads, edits and writes back a newer document's new case")
    func oldBuildKeepsNewCase() throws {
        // snippet: open-enum-old-build
        // The new build writes a parcel with a status the old build does not know.
        let written = try JSONEncoder().encode(versioned: ParcelV2(recipient: "Ada", status: .returned))

        // The old build reads it, and changes the recipient.
        var read = try JSONDecoder().decode(Versioned<Parcel>.self, from: written)
        // read.wrappedValue.status == .unknown("returned")
        read.wrappedValue.recipient = "Grace"

        // The status it does not know goes back as it came.
        let edited = try JSONEncoder().encode(read)
        let parcel = try JSONDecoder().decode(versioned: ParcelV2.self, from: edited)
        // parcel == ParcelV2(recipient: "Grace", status: .returned)
        // end snippet
        #expect(read.isFromNewerVersion)
        #expect(read.wrappedValue.status == .unknown("returned"))
        #expect(parcel == ParcelV2(recipient: "Grace", status: .returned))
        #expect(try VersionPlacementTests.object(edited)["status"] as? String == "returned")
    }

    @Test(
        "The old build keeps a new case in every format, in versioned parts",
        arguments: ["json", "xml plist", "binary plist"]
    )
    func oldBuildInEveryFormat(format: String) throws {
        struct Shipment<Item: VersionedCodable & Equatable>: Codable, Equatable {
            var parcels: [Versioned<Item>]
        }
        let newer = Shipment(parcels: [
            Versioned(ParcelV2(recipient: "a", status: .returned)),
            Versioned(ParcelV2(recipient: "b", status: .shipped)),
        ])
        let written = try Self.encode(newer, format: format)
        var old = try OldAndNewBuildsTests.decode(Shipment<Parcel>.self, written)
        #expect(old.parcels.map(\.wrappedValue.status) == [.unknown("returned"), .known(.shipped)])
        old.parcels[0].wrappedValue.recipient = "c"
        let back = try OldAndNewBuildsTests.decode(Shipment<ParcelV2>.self, try Self.encode(old, format: format))
        #expect(
            back.parcels.map(\.wrappedValue) == [
                ParcelV2(recipient: "c", status: .returned), ParcelV2(recipient: "b", status: .shipped),
            ]
        )
        #expect(back.parcels.map(\.storedVersion) == [2, 2])
    }

    @Test("Open values can be sent to and read from another task")
    func sendable() async throws {
        let parcel = Parcel(recipient: "Ada", status: .unknown("returned"))
        let data = try await Task.detached {
            try JSONEncoder().encode(versioned: parcel)
        }.value
        let read = try await Task.detached {
            try JSONDecoder().decode(versioned: Parcel.self, from: data)
        }.value
        #expect(read == parcel)
    }
}

@Suite("Open enums as dictionary keys")
struct OpenEnumKeyTests {
    enum Kind: String, Codable, CodingKeyRepresentable, Hashable, Sendable { case north, parcel }
    enum Level: Int, Codable, CodingKeyRepresentable, Hashable, Sendable { case low = 1, high = 2 }

    @Test("A dictionary keyed by an open enum is written and read as one keyed by the plain enum")
    func writtenAsThePlainEnum() throws {
        let open: [OpenEnum<Kind>: Int] = [.known(.north): 1, .known(.parcel): 2]
        let plain: [Kind: Int] = [.north: 1, .parcel: 2]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(open) == encoder.encode(plain))
        #expect(try JSONDecoder().decode([OpenEnum<Kind>: Int].self, from: encoder.encode(plain)) == open)
        let levels: [OpenEnum<Level>: String] = [.known(.low): "a"]
        #expect(try encoder.encode(levels) == encoder.encode([Level.low: "a"]))
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let plistEncoder = PropertyListEncoder()
            plistEncoder.outputFormat = format
            let written = try plistEncoder.encode(open)
            #expect(try PropertyListDecoder().decode([Kind: Int].self, from: written) == plain)
        }
    }

    @Test("Keys this build does not know are kept and written back unchanged")
    func unknownKeysRoundTrip() throws {
        let document = Data(#"{"north":1,"drone":5}"#.utf8)
        let read = try JSONDecoder().decode([OpenEnum<Kind>: Int].self, from: document)
        #expect(read == [.known(.north): 1, .unknown("drone"): 5])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(read), as: UTF8.self) == #"{"drone":5,"north":1}"#)
        let levels = try JSONDecoder().decode([OpenEnum<Level>: Int].self, from: Data(#"{"1":1,"7":7}"#.utf8))
        #expect(levels == [.known(.low): 1, .unknown(7): 7])
    }

    @Test("Equal values are interchangeable: known gives the case for any raw value this build knows")
    func knownForAnyRawValue() {
        #expect(OpenEnum<Kind>.unknown("parcel").known == .parcel)
        #expect(OpenEnum<Kind>.unknown("parcel") == .known(.parcel))
        #expect(OpenEnum<Kind>.unknown("drone").known == nil)
        #expect(OpenEnum<Kind>(rawValue: "north").known == .north)
    }
}
