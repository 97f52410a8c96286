import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

// Hazards found by trying the library as a service would: the unversioned form, dictionaries
// written as arrays, sets, the service's own date strategy, and large arrays.

struct DocV0: VersionedCodable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    var title: String
}

struct Doc: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = DocV0
    var title: String
    var body: String

    init(title: String, body: String) {
        self.title = title
        self.body = body
    }

    init(from old: DocV0) throws { self.init(title: old.title, body: "") }
    func downgraded() throws -> DocV0 { DocV0(title: title) }
}

struct RoomV1: Codable { var name: String }
struct Room: Codable, Equatable {
    var name: String
    var seats: Int
}

struct SiteV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var rooms: [UUID: RoomV1]
}

struct Site: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = SiteV1
    var rooms: [UUID: Room]
    var chips: Set<Chip> = []

    struct Chip: Codable, Hashable {
        var id: Int
        var note: String?
    }

    init(rooms: [UUID: Room], chips: Set<Chip> = []) {
        self.rooms = rooms
        self.chips = chips
    }

    init(from old: SiteV1) throws { rooms = old.rooms.mapValues { Room(name: $0.name, seats: 0) } }
    func downgraded() throws -> SiteV1 { SiteV1(rooms: rooms.mapValues { RoomV1(name: $0.name) }) }
}

struct EventV1: Codable {
    var id: Int
    var at: Date
}

struct Event: Codable, Equatable {
    var id: Int
    var at: Date
    var color: String
}

struct CalendarV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var events: [EventV1]
}

struct Calendar: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = CalendarV1
    var events: [Event]

    init(events: [Event]) { self.events = events }
    init(from old: CalendarV1) throws { events = old.events.map { Event(id: $0.id, at: $0.at, color: "") } }
    func downgraded() throws -> CalendarV1 { CalendarV1(events: events.map { EventV1(id: $0.id, at: $0.at) }) }
}

struct TeamV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var title: String
    var members: Set<MemberV1>

    struct MemberV1: Codable, Hashable { var name: String }
}

struct Team: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = TeamV1
    var title: String
    var members: Set<Member>

    struct Member: Codable, Hashable {
        var name: String
        var role: String
    }

    init(title: String, members: Set<Member>) {
        self.title = title
        self.members = members
    }

    init(from old: TeamV1) throws {
        self.init(title: old.title, members: Set(old.members.map { Member(name: $0.name, role: "") }))
    }

    func downgraded() throws -> TeamV1 {
        TeamV1(title: title, members: Set(members.map { TeamV1.MemberV1(name: $0.name) }))
    }
}

@Suite("Hazards a service meets")
struct HazardTests {
    @Test("The unversioned form can be shown, read and declared like any version")
    func unversioned() throws {
        let zero = APIVersion("0").showing(Doc.self, asVersion: nil)
        #expect(zero.version(of: Doc.self) == nil)
        let versions = try APIVersions([zero, "1"], defaultVersion: "1")
        #expect(
            try versions.decode(Doc.self, from: Data(#"{"title": "t"}"#.utf8), at: "0") == Doc(title: "t", body: "")
        )
        #expect(try object(versions.encode(Doc(title: "t", body: "b"), at: "0")).keys.sorted() == ["title"])
        let merged = try versions.merge(Doc(title: "u", body: ""), at: "0", into: Doc(title: "t", body: "kept"))
        #expect(merged == Doc(title: "u", body: "kept"))
        #expect(throws: APIVersionError.self) {
            try APIVersions([APIVersion(1).showing(Contact.self, asVersion: nil)], defaultVersion: 1)
        }
    }

    @Test("Entries of a dictionary written as an array never trade what the client cannot see")
    func dictionaryAsArray() throws {
        let versions = try APIVersions([APIVersion(1).showing(Site.self, asVersion: 1), 2], defaultVersion: 2)
        for _ in 0..<50 {
            let (a, b) = (UUID(), UUID())
            let stored = Site(rooms: [a: Room(name: "Hall", seats: 7), b: Room(name: "Hall", seats: 9)])
            let body = try JSONEncoder().encode(versioned: SiteV1(rooms: [b: RoomV1(name: "Hall")]))
            let edit = try versions.decode(Site.self, from: body, at: 1)
            do {
                let merged = try versions.merge(edit, at: 1, into: stored)
                #expect(merged.rooms == [b: Room(name: "Hall", seats: 9)])
            } catch let error as APIVersionError {
                guard case .cannotMerge = error else { throw error }
            }
        }
    }

    @Test("A set's elements are checked for unknown fields whatever order it is written in")
    func setFields() throws {
        let versions = try APIVersions([2], defaultVersion: 2)
        let body = #"{"rooms": [], "chips": [{"id": 1, "note": "x"}, {"id": 2}, {"id": 100}, {"id": 7, "note": "y"}]}"#
        for _ in 0..<20 {
            let site = try versions.decode(Site.self, from: Data(body.utf8), at: 2)
            #expect(site.chips.count == 4)
        }
    }

    @Test("The service's date strategy: a client that changed nothing, or removed one element, merges")
    func dateStrategy() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let versions = try APIVersions(
            [APIVersion(1).showing(Calendar.self, asVersion: 1), 2],
            defaultVersion: 2,
            encoder: encoder,
            decoder: decoder
        )
        let now = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456)
        let stored = Calendar(events: [Event(id: 1, at: now, color: "red"), Event(id: 2, at: now, color: "blue")])
        let seen = try versions.decode(Calendar.self, from: versions.encode(stored, at: 1), at: 1)
        #expect(try versions.merge(seen, at: 1, into: stored) == stored)
        var removed = seen
        removed.events.removeLast()
        #expect(try versions.merge(removed, at: 1, into: stored).events == [stored.events[0]])
    }

    @Test("A set whose elements hide fields: the right value or cannotMerge, never members trading roles")
    func setWithHiddenFields() throws {
        let versions = try APIVersions([APIVersion(1).showing(Team.self, asVersion: 1), 2], defaultVersion: 2)
        let names = (0..<12).map { "member \($0)" }
        let stored = Team(title: "Core", members: Set(names.map { Team.Member(name: $0, role: "role of \($0)") }))
        var merged = 0
        for _ in 0..<40 {
            var edit = try versions.decode(Team.self, from: versions.encode(stored, at: 1), at: 1)
            edit.title = "Core team"
            if Bool.random() {
                edit.members.remove(Team.Member(name: "member 3", role: ""))
            }
            let expected = Team(
                title: "Core team",
                members: stored.members.filter { edit.members.map(\.name).contains($0.name) }
            )
            do {
                #expect(try versions.merge(edit, at: 1, into: stored) == expected)
                merged += 1
            } catch let error as APIVersionError {
                guard case .cannotMerge = error else { throw error }
            }
        }
        print("A set with hidden fields merged \(merged) of 40 times; the others were refused")
    }

    @Test("A large array reversed by an old client merges, each element keeping its hidden field")
    func largeArray() throws {
        let versions = try ContactAPI.versions()
        var stored = ContactAPI.stored
        stored.labels = (0..<20_000).map { Contact.Label(text: "label \($0)", color: "c\($0)") }
        var edit = try versions.decode(
            Contact.self,
            from: versions.encode(stored, at: ContactAPI.middle),
            at: ContactAPI.middle
        )
        edit.labels.reverse()
        let merged = try versions.merge(edit, at: ContactAPI.middle, into: stored)
        #expect(merged.labels == stored.labels.reversed())
    }
}
