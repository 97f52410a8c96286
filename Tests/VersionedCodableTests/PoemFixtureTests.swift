// snippet: poem-fixtures
import Foundation
import Testing
import VersionedCodableTesting

@testable import PoemHistory  // the module that defines Poem

@Suite("Poem documents")
struct PoemDocumentTests {
    @Test("Every poem document that ever shipped still decodes")
    func everyPoemDocumentDecodes() {
        let fixtures = VersionedFixtures(Poem.self, bundle: .module)
        fixtures.checkEveryFixtureDecodes()
        fixtures.checkEveryVersionHasFixture(recordingFrom: .sample)
        fixtures.checkPlainEncodingIsNotMistaken(.sample)
    }
}
// end snippet

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

extension PoemDocumentTests {
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

    @Test("Every JSON poem fixture matches the schema of its version")
    func poemFixturesMatchTheirSchemas() {
        // snippet: fixtures-schema-check
        VersionedFixtures(Poem.self, bundle: .module).checkEveryFixtureMatchesItsSchema()
        // end snippet
        #expect(VersionedFixtures(Poem.self, bundle: .module).checkEveryFixtureMatchesItsSchema() > 0)
    }

    // snippet: plain-encoding-check
    @Test("A poem written without its version is never read as an old one")
    func plainEncodingIsNotMistaken() {
        VersionedFixtures(Poem.self, bundle: .module).checkPlainEncodingIsNotMistaken(.sample)
    }
    // end snippet
}
