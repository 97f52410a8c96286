import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

/// A reading as version 1 kept it: the value alone.
struct ReadingV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var value: Double
}

/// Version 2 added a label; writing it as version 1 drops the label. It is not `Equatable`, so
/// the checks compare its JSON, and its encoding needs the unit from `userInfo`.
struct Reading: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = ReadingV1
    static let unit = CodingUserInfoKey(rawValue: "unit")!
    var value: Double
    var label: String

    init(value: Double, label: String) {
        self.value = value
        self.label = label
    }

    init(from old: ReadingV1) throws {
        value = old.value
        label = ""
    }

    func downgraded() throws -> ReadingV1 { ReadingV1(value: value) }

    enum CodingKeys: String, CodingKey { case value, label }

    func encode(to encoder: any Encoder) throws {
        guard encoder.userInfo[Self.unit] is String else {
            throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "No unit in userInfo."))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(label, forKey: .label)
    }
}

/// A labelled reading that cannot be written without its label, which migrating from version 1
/// leaves empty.
struct LabelledReading: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = ReadingV1
    var value: Double
    var label: String

    init(value: Double, label: String) {
        self.value = value
        self.label = label
    }

    init(from old: ReadingV1) throws {
        value = old.value
        label = ""
    }

    func downgraded() throws -> ReadingV1 { ReadingV1(value: value) }

    enum CodingKeys: String, CodingKey { case value, label }

    func encode(to encoder: any Encoder) throws {
        guard !label.isEmpty else {
            throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "A reading needs a label."))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(label, forKey: .label)
    }
}

@Suite("A check never passes on what it did not check")
struct CheckThatCannotPassEmptyTests {
    @Test("A compatibility check given no samples is an issue")
    func noSamples() {
        let fixtures = VersionedFixtures(Ticket.self, bundle: .module)
        let issues = issuesRecorded { _ = fixtures.checkCompatibility(.fullTransitive, samples: [], lossless: [2]) }
        #expect(issues.map(message).contains { $0.contains("was given no samples") })
    }

    @Test("A loss is found in a type whose encoding needs the encoder's userInfo")
    func lossWithUserInfo() throws {
        let directory = try TemporaryDirectory()
        let fixtures = VersionedFixtures(Reading.self, directory: directory.url)
        fixtures.jsonEncoder.userInfo[Reading.unit] = "kg"
        fixtures.propertyListEncoder.userInfo[Reading.unit] = "kg"
        let issues = issuesRecorded {
            _ = fixtures.checkCompatibility(.full, samples: [Reading(value: 1, label: "weight")], lossless: [1])
        }
        #expect(issues.map(message).contains { $0.contains("declared lossless") && $0.contains("label") })
    }

    @Test("Listing a folder without fixtures throws, so a parameterized test over it fails")
    func emptyFolder() throws {
        let directory = try TemporaryDirectory()
        let fixtures = VersionedFixtures(Ticket.self, directory: directory.url)
        try FileManager.default.createDirectory(at: fixtures.folder, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: fixtures.folder.appendingPathComponent("README.md"))
        #expect(throws: FixtureFolderError.noFixtures(folder: fixtures.folder)) { try fixtures.all() }
    }

    @Test("A record that fails in one format keeps none of the version's files")
    func partialRecord() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(Reading.self, directory: directory.url)
        fixtures.isRecording = true
        fixtures.recordedFormats = [.binaryPropertyList, .json]
        // The property list writes a NaN; JSON refuses it.
        fixtures.jsonEncoder.userInfo[Reading.unit] = "kg"
        fixtures.propertyListEncoder.userInfo[Reading.unit] = "kg"
        let issues = issuesRecorded {
            fixtures.checkEveryVersionHasFixture(recordingFrom: Reading(value: .nan, label: "x"))
        }
        #expect(issues.map(message).contains { $0.contains("no fixture of version 2 was kept") })
        let left = try FileManager.default.contentsOfDirectory(atPath: fixtures.folder.path)
        #expect(left.isEmpty, "left: \(left)")
    }

    @Test("A negative version's fixture is named and read by its version")
    func negativeVersion() {
        #expect(VersionedFixture.fileName(forVersion: -1) == "v-1.json")
        let plain = VersionedFixture(url: URL(fileURLWithPath: "/f/v-1.json"))
        #expect(plain?.version == -1)
        #expect(plain?.label == nil)
        let labelled = VersionedFixture(url: URL(fileURLWithPath: "/f/v-12-draft.json"))
        #expect(labelled?.version == -12)
        #expect(labelled?.label == "draft")
        #expect(VersionedFixture(url: URL(fileURLWithPath: "/f/v-.json")) == nil)
        #expect(VersionedFixture(url: URL(fileURLWithPath: "/f/v--1.json")) == nil)
        #expect(VersionedFixture(url: URL(fileURLWithPath: "/f/v-0.json")) == nil, "version 0 has one name, v0")
    }

    @Test("Values that cannot be written to be compared are reported as such, not as equal or as changed")
    func valuesThatCannotBeCompared() throws {
        let directory = try TemporaryDirectory()
        let fixtures = VersionedFixtures(LabelledReading.self, directory: directory.url)
        let issues = issuesRecorded {
            _ = fixtures.checkCompatibility(.full, samples: [LabelledReading(value: 1, label: "weight")])
        }
        #expect(issues.map(message).contains { $0.contains("saved again") && $0.contains("could not be compared") })
    }
}
