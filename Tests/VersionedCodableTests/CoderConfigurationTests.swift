import Foundation
import Testing
import VersionedCodable

@Suite("The coder's own configuration applies to the version and every field")
struct CoderConfigurationTests {
    struct EventV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SchemaVersionSpec
        var eventName: String
        var startsAt: Date
    }

    struct Event: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = EventV1
        typealias VersionSpec = SchemaVersionSpec
        var eventTitle: String
        var startsAt: Date
        var organiser: String?

        init(eventTitle: String, startsAt: Date, organiser: String?) {
            self.eventTitle = eventTitle
            self.startsAt = startsAt
            self.organiser = organiser
        }
        init(from old: EventV1) throws {
            eventTitle = old.eventName
            startsAt = old.startsAt
            organiser = nil
        }
    }

    static let userInfoKey = CodingUserInfoKey(rawValue: "defaultOrganiser")!

    /// Reads a default from the decoder's user info, as a type configured by its caller does.
    struct Configured: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var organiser: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            organiser =
                try container.decodeIfPresent(String.self, forKey: .organiser)
                ?? (decoder.userInfo[CoderConfigurationTests.userInfoKey] as? String ?? "none")
        }
    }

    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("Key and date strategies apply to the version and to old versions' fields")
    func decodingStrategies() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let old = Data(#"{"schema_version": 1, "event_name": "Launch", "starts_at": "2023-11-14T22:13:20Z"}"#.utf8)
        let read = try decoder.decodeWithStoredVersion(Event.self, from: old)
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == Event(eventTitle: "Launch", startsAt: Self.start, organiser: nil))

        let current = Data(#"{"schema_version": 2, "event_title": "Launch", "starts_at": "2023-11-14T22:13:20Z"}"#.utf8)
        #expect(try decoder.decode(versioned: Event.self, from: current).eventTitle == "Launch")
    }

    @Test("Key and date strategies and output formatting apply when encoding")
    func encodingStrategies() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(versioned: Event(eventTitle: "Launch", startsAt: Self.start, organiser: "Ada"))
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"event_title":"Launch","organiser":"Ada","schema_version":2,"starts_at":"2023-11-14T22:13:20Z"}"#
        )
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let pretty = String(
            decoding: try encoder.encode(versioned: Event(eventTitle: "L", startsAt: Self.start, organiser: nil)),
            as: UTF8.self
        )
        #expect(pretty.contains("\n  \"schema_version\" : 2"))
    }

    @Test("The decoder's user info reaches the historical type's init(from:)")
    func userInfoReachesTheType() throws {
        let decoder = JSONDecoder()
        decoder.userInfo[Self.userInfoKey] = "Grace"
        #expect(
            try decoder.decode(versioned: Configured.self, from: Data(#"{"version": 1}"#.utf8)).organiser == "Grace"
        )
        let plistDecoder = PropertyListDecoder()
        plistDecoder.userInfo[Self.userInfoKey] = "Lin"
        let plist = try PropertyListEncoder().encode(["version": 1])
        #expect(try plistDecoder.decode(versioned: Configured.self, from: plist).organiser == "Lin")
    }

    @Test("Dates in property lists use the property-list date type in every version")
    func propertyListDates() throws {
        let value = Event(eventTitle: "Launch", startsAt: Self.start, organiser: nil)
        let data = try PropertyListEncoder().encode(versioned: value)
        let object = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(object["startsAt"] as? Date == Self.start)
        #expect(object["schemaVersion"] as? Int == 2)
        #expect(try PropertyListDecoder().decode(versioned: Event.self, from: data) == value)
    }
}

/// A spec that writes a date beside the version in `_metadata`.
struct DatedMetadataSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }
    struct Metadata: Codable {
        var version: Int?
        var definedAt: Date
    }
    var _metadata: Metadata
    init(withVersion version: Int?) {
        _metadata = Metadata(version: version, definedAt: Date(timeIntervalSince1970: 0))
    }
}

struct DatedNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = DatedMetadataSpec
    struct Stamp: Codable, Equatable { var createdBy: String }
    var title: String
    var _metadata: Stamp?
}

@Suite("A coder's strategies see the spec's values where a plain encode of the spec puts them")
struct SpecValuePathTests {
    @Test("A date strategy sees the date's whole coding path, whether or not the type writes the spec's object")
    func dateStrategyPath() throws {
        for stamp in [nil, DatedNote.Stamp(createdBy: "me")] {
            let seen = PathLog()
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .custom { date, encoder in
                seen.paths.append(encoder.codingPath.map(\.stringValue))
                var container = encoder.singleValueContainer()
                try container.encode(date.timeIntervalSince1970)
            }
            _ = try encoder.encode(versioned: DatedNote(title: "t", _metadata: stamp))
            #expect(seen.paths == [["_metadata", "definedAt"]], "\(String(describing: stamp))")
        }
    }

    final class PathLog: @unchecked Sendable {
        var paths: [[String]] = []
    }
}
