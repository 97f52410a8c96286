import Foundation
import Testing
import VersionedCodableTesting

@Suite("Record mode")
struct FixtureRecordModeTests {
    @Test("is turned on by VERSIONED_CODABLE_RECORD=1")
    func environmentVariableName() {
        #expect(FixtureRecordMode.environmentVariable == "VERSIONED_CODABLE_RECORD")
        #expect(FixtureRecordMode.isOn(in: ["VERSIONED_CODABLE_RECORD": "1"]))
    }

    @Test(
        "stays off for any other value or without the variable",
        arguments: [
            ["VERSIONED_CODABLE_RECORD": "0"], ["VERSIONED_CODABLE_RECORD": ""], ["RECORD": "1"], [:],
        ]
    )
    func offOtherwise(environment: [String: String]) {
        #expect(!FixtureRecordMode.isOn(in: environment))
    }

    @Test("is what new fixture sets start with, from the process environment")
    func fixturesStartFromEnvironment() throws {
        let directory = try TemporaryDirectory()
        let fixtures = VersionedFixtures(Recipe.self, directory: directory.url)
        #expect(fixtures.isRecording == FixtureRecordMode.isOn())
        #expect(
            FixtureRecordMode.isOn()
                == (ProcessInfo.processInfo.environment["VERSIONED_CODABLE_RECORD"] == "1")
        )
    }
}
