import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore
import VersionedCodableTesting

/// The worked example of the article "Upgrading stored documents", step by step.
@Suite("Upgrading stored documents, from the census to retiring a version")
struct UpgradingStoredDocumentsTests {
    static func bookmarks() throws -> InMemoryDocumentStore<String> {
        let encoder = JSONEncoder()
        return InMemoryDocumentStore(documents: [
            "a": try encoder.encode(versioned: BookmarkV1(address: "https://swift.org")),
            "b": try encoder.encode(versioned: BookmarkV2(url: "https://example.com", title: "Example")),
            "c": try encoder.encode(versioned: Bookmark(url: "https://a.example", title: "A", folder: "Work")),
        ])
    }

    @Test("The census says no version may be retired while old bookmarks are stored")
    func censusBeforeUpgrade() async throws {
        let store = try Self.bookmarks()
        // snippet: store-census
        let census = try await DocumentCensus(Bookmark.self, coder: JSONDocumentCoder()).take(of: store)
        print(census)
        if census.mayRetireVersions(below: 2) {
            print("No bookmark is stored below version 2.")
        }
        // end snippet
        #expect(census.countsByVersion == [1: 1, 2: 1, 3: 1])
        #expect(!census.mayRetireVersions(below: 2))
    }

    @Test("An upgrade moves every old bookmark to the current version, after which version 1 may go")
    func upgradeThenRetire() async throws {
        let store = try Self.bookmarks()
        // snippet: store-upgrade
        let upgrade = try DocumentUpgrade(
            Bookmark.self,
            coder: JSONDocumentCoder(),
            settings: UpgradeSettings(batchSize: 500, pauseBetweenBatches: 0.05)
        )
        let report = try await upgrade.run(on: store) { progress in
            print(progress)
        }
        print(report)
        // end snippet
        #expect(report.upgraded == 2)
        let census = try await DocumentCensus(Bookmark.self, coder: JSONDocumentCoder()).take(of: store)
        #expect(census.mayRetireVersions(below: 3))
        let upgraded = try #require(await store.data(at: "a"))
        let read = try JSONDecoder().decode(versioned: AfterRetiring.Bookmark.self, from: upgraded)
        #expect(read.url == "https://swift.org")
    }

    @Test("A target every running build reads: version 2 while builds of version 2 still run")
    func olderTarget() async throws {
        let store = try Self.bookmarks()
        // snippet: store-upgrade-older-target
        let upgrade = try DocumentUpgrade(Bookmark.self, to: .version(2), coder: JSONDocumentCoder())
        let report = try await upgrade.run(on: store)
        // end snippet
        #expect(report.upgraded == 1)
        #expect(report.alreadyAtTarget == 2)
        let read = try JSONDecoder().decodeWithStoredVersion(Bookmark.self, from: #require(await store.data(at: "a")))
        #expect(read.storedVersion == 2)
    }

    @Test("A straggler of a retired version gets an error, and the census says the version was retired")
    func straggler() async throws {
        let store = InMemoryDocumentStore<String>()
        let data = try JSONEncoder().encode(versioned: BookmarkV1(address: "https://old.example"))
        await store.put(data, at: "straggler")
        // snippet: store-straggler
        do {
            _ = try JSONDecoder().decode(versioned: AfterRetiring.Bookmark.self, from: data)
        } catch VersionedDecodingError.unsupportedVersion(let oldest) {
            // `oldest` is the oldest type this build has: AfterRetiring.BookmarkV2.
            print("\(oldest) is the oldest version this build reads")
        }
        // end snippet
        #expect(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: AfterRetiring.Bookmark.self, from: data)
        }
        let census = try await DocumentCensus(AfterRetiring.Bookmark.self, coder: JSONDocumentCoder()).take(of: store)
        let problem = try #require(census.unreadable.sample.first)
        #expect(
            problem.description
                == "straggler: version 1 was retired: the oldest this build reads is version 2 (BookmarkV2)"
        )
        #expect(!census.mayRetireVersions(below: 2))
        let report = try await DocumentUpgrade(AfterRetiring.Bookmark.self, coder: JSONDocumentCoder()).run(on: store)
        #expect(report.unreadable.sample.map(\.description) == [problem.description])
        #expect(await store.data(at: "straggler") == data)
    }

    @Test("The coverage check asks no fixture of a retired version, and the decoding check refuses one")
    func fixturesOfRetiredVersions() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("RetiredFixtures-\(UUID().uuidString)", isDirectory: true)
        let bookmarks = folder.appendingPathComponent("Bookmark", isDirectory: true)
        try FileManager.default.createDirectory(at: bookmarks, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = JSONEncoder()
        try encoder.encode(versioned: AfterRetiring.BookmarkV2(url: "u", title: "t"))
            .write(to: bookmarks.appendingPathComponent("v2.json"))
        try Data(#"{"version":3,"url":"u","title":"t","folder":"f"}"#.utf8)
            .write(to: bookmarks.appendingPathComponent("v3.json"))
        let fixtures = VersionedFixtures(AfterRetiring.Bookmark.self, directory: folder)
        #expect(fixtures.checkEveryVersionHasFixture() == [])
        fixtures.checkEveryFixtureDecodes()

        // A fixture of the retired version left in the folder no longer decodes: the check
        // says so, and the fixture goes (or moves to a test that expects the error).
        try encoder.encode(versioned: BookmarkV1(address: "a")).write(to: bookmarks.appendingPathComponent("v1.json"))
        #expect(fixtures.checkEveryVersionHasFixture() == [])
        withKnownIssue {
            fixtures.checkEveryFixtureDecodes()
        }
    }
}
