import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

/// A type that writes its own `version` field, so that encoding it as a versioned document
/// fails: record mode must report that and leave no file behind.
struct RecordingTestClashingNote: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var version: String
}

@Suite("Record mode")
struct RecordingTests {
    @Test("writes the new version's missing fixture from the sample, and the checks then pass")
    func bumpRecordCommit() throws {
        let directory = try TemporaryDirectory()
        let root = try directory.copyingBundledFixtures(of: "Recipe", leavingOut: ["v3.json"])
        var fixtures = VersionedFixtures(Recipe.self, directory: root)
        let recorded = fixtures.folder.appendingPathComponent("v3.json")

        fixtures.isRecording = false
        let before = issuesRecorded { fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }
        #expect(before.map(message).contains { $0.contains("Recipe (version 3) has no fixture") })

        fixtures.isRecording = true
        var missing: [Int?] = [0]
        let whileRecording = issuesRecorded {
            missing = fixtures.checkEveryVersionHasFixture(recordingFrom: .sample)
        }
        #expect(missing.isEmpty)
        #expect(whileRecording.allSatisfy { !$0.isFailure })
        #expect(
            whileRecording.map(message).contains { $0.contains("Recorded the fixture of Recipe (version 3)") }
        )
        #expect(FileManager.default.fileExists(atPath: recorded.path))

        fixtures.isRecording = false
        #expect(issuesRecorded { fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }.isEmpty)
        var summary: FixtureDecodingSummary<Recipe>?
        #expect(issuesRecorded { summary = fixtures.checkEveryFixtureDecodes() }.isEmpty)
        #expect(summary?["v3.json"] == Recipe.sample)
        #expect(
            try JSONDecoder().decodeWithStoredVersion(Recipe.self, from: Data(contentsOf: recorded))
                .storedVersion == 3
        )
    }

    @Test("leaves an existing fixture of the current version alone")
    func neverOverwrites() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(
            Recipe.self,
            directory: try directory.copyingBundledFixtures(of: "Recipe")
        )
        fixtures.isRecording = true
        let url = fixtures.folder.appendingPathComponent("v3.json")
        let original = try Data(contentsOf: url)
        var different = Recipe.sample
        different.title = "Waffles"
        #expect(issuesRecorded { fixtures.checkEveryVersionHasFixture(recordingFrom: different) }.isEmpty)
        #expect(try Data(contentsOf: url) == original)
    }

    @Test("writes only the current version: older versions without a fixture still fail")
    func onlyCurrentVersion() throws {
        let directory = try TemporaryDirectory()
        let root = try directory.copyingBundledFixtures(
            of: "Recipe",
            leavingOut: ["v1.json", "v1-no-ingredients.json", "v3.json"]
        )
        var fixtures = VersionedFixtures(Recipe.self, directory: root)
        fixtures.isRecording = true
        var missing: [Int?] = []
        let issues = issuesRecorded { missing = fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }
        #expect(missing == [1])
        #expect(
            issues.filter(\.isFailure).map(message).allSatisfy {
                $0.contains("RecipeV1 (version 1) has no fixture")
            }
        )
        #expect(issues.filter(\.isFailure).count == 1)
        #expect(
            !FileManager.default.fileExists(atPath: fixtures.folder.appendingPathComponent("v1.json").path)
        )
        #expect(
            FileManager.default.fileExists(atPath: fixtures.folder.appendingPathComponent("v3.json").path)
        )
    }

    @Test("does nothing without a sample")
    func needsSample() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(
            Recipe.self,
            directory: try directory.copyingBundledFixtures(of: "Recipe", leavingOut: ["v3.json"])
        )
        fixtures.isRecording = true
        let issues = issuesRecorded { fixtures.checkEveryVersionHasFixture() }
        #expect(issues.count == 1)
        #expect(
            !FileManager.default.fileExists(atPath: fixtures.folder.appendingPathComponent("v3.json").path)
        )
    }

    @Test("writes each recorded format, and each reads back as the sample")
    func everyFormat() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        fixtures.isRecording = true
        fixtures.recordedFormats = [.json, .xmlPropertyList, .binaryPropertyList]
        // Only the current version can be recorded; the older ones are reported missing.
        let failures = issuesRecorded { fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }.filter(
            \.isFailure
        )
        #expect(failures.count == 3)

        let written = try fixtures.all()
        #expect(written.map(\.fileName) == ["v3.binary.plist", "v3.json", "v3.xml.plist"])
        #expect(written.map(\.format) == [.binaryPropertyList, .json, .xmlPropertyList])
        for fixture in written {
            #expect(try fixtures.decode(fixture).wrappedValue == Recipe.sample)
        }
    }

    @Test("writes JSON with the encoder it is given")
    func usesGivenEncoder() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        fixtures.isRecording = true
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        fixtures.jsonEncoder = encoder
        _ = issuesRecorded { fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }
        let text = try String(
            decoding: Data(contentsOf: fixtures.folder.appendingPathComponent("v3.json")),
            as: UTF8.self
        )
        #expect(text.hasPrefix(#"{"ingredients":[{"grams":200,"name":"flour"}"#))
    }

    @Test("reports a sample that cannot be written and leaves no file")
    func unwritableSample() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(RecordingTestClashingNote.self, directory: directory.url)
        fixtures.isRecording = true
        let texts = issuesRecorded {
            fixtures.checkEveryVersionHasFixture(recordingFrom: RecordingTestClashingNote(version: "5"))
        }.map(message)
        #expect(texts.count == 1)
        #expect(texts.first?.contains("Record mode could not write") == true)
        #expect(texts.first?.contains("v1.json") == true)
        #expect(
            !FileManager.default.fileExists(atPath: fixtures.folder.appendingPathComponent("v1.json").path)
        )
    }

    @Test("needs a source folder to write to")
    func needsSourceFolder() throws {
        let directory = try TemporaryDirectory()
        var fixtures = VersionedFixtures(
            Recipe.self,
            directory: try directory.copyingBundledFixtures(of: "Recipe", leavingOut: ["v3.json"])
        )
        fixtures.isRecording = true
        fixtures.recordingFolder = nil
        let texts = issuesRecorded { fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }.map(
            message
        )
        #expect(texts.count == 1)
        #expect(texts.first?.contains("Pass `sourceDirectory:`") == true)
    }

    @Test("refuses when the source folder already has the file the folder read lacks")
    func sourceAlreadyHasFixture() throws {
        let read = try TemporaryDirectory()
        let source = try TemporaryDirectory()
        var fixtures = VersionedFixtures(
            Recipe.self,
            directory: try read.copyingBundledFixtures(of: "Recipe", leavingOut: ["v3.json"])
        )
        fixtures.recordingFolder = try source.copyingBundledFixtures(of: "Recipe").appendingPathComponent(
            "Recipe"
        )
        fixtures.isRecording = true
        let texts = issuesRecorded { fixtures.checkEveryVersionHasFixture(recordingFrom: .sample) }.map(
            message
        )
        #expect(texts.count == 1)
        #expect(texts.first?.contains("Record mode found") == true)
    }
}
