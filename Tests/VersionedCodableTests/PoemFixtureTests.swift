import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

@testable import VersionedPoems

extension Poem {
    /// A typical current poem, written as the current version's fixture in record mode.
    static let sample = Poem(
        author: Author(name: "William Blake", born: 1757),
        title: "The Tyger",
        stanzas: [
            ["Tyger Tyger, burning bright,", "In the forests of the night;"],
            ["What immortal hand or eye,", "Could frame thy fearful symmetry?"],
        ],
        stars: 3
    )
}

@Suite("Poem fixtures, checked with VersionedCodableTesting")
struct PoemFixtureTests {
    // snippet: poem-fixtures
    @Test("Every poem document that ever shipped still decodes")
    func everyPoemDocumentDecodes() {
        let fixtures = VersionedFixtures(Poem.self, bundle: .module)
        fixtures.checkEveryFixtureDecodes()
        fixtures.checkEveryVersionHasFixture(recordingFrom: .sample)
    }
    // end snippet

    @Test("Every poem fixture migrates to the value it held")
    func everyPoemMigratesToItsValue() {
        let fixtures = VersionedFixtures(Poem.self, bundle: .module)
        let summary = fixtures.checkEveryFixtureDecodes { fixture in
            VersionedCodableTests.expectedFromFixture[String(fixture.fileName.prefix { $0 != "." })]
        }
        #expect(summary.fixtures.count == 17)
        #expect(summary.storedVersions == [nil, 1, 2, 3, 4])
        #expect(summary.passed)
    }
}
