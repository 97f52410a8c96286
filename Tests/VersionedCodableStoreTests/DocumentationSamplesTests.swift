import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

/// The samples of the library's documentation comments, compiled and run here; the comments
/// get them from `Scripts/sync-snippets.py`.
@Suite("The documentation comments' samples")
struct DocumentationSamplesTests {
    @Test("The store and upgrade samples run")
    func storeAndUpgrade() async throws {
        let bookmark = Bookmark(url: "https://swift.org", title: "Swift", folder: nil)
        // snippet: store-in-memory
        let store = InMemoryDocumentStore<Int>()
        await store.put(try JSONEncoder().encode(versioned: bookmark), at: 1)
        // end snippet
        await store.put(try JSONEncoder().encode(versioned: BookmarkV1(address: "a")), at: 2)
        try await upgradeWithProgress(store)
        #expect(try JSONDecoder().storedVersion(of: Bookmark.self, from: #require(await store.data(at: 2))) == 3)
        let retire = try await mayRetire(store)
        #expect(retire)
    }

    func upgradeWithProgress(_ store: InMemoryDocumentStore<Int>) async throws {
        // snippet: store-upgrade-progress
        let upgrade = try DocumentUpgrade(Bookmark.self, coder: JSONDocumentCoder())
        let report = try await upgrade.run(on: store) { progress in
            print("\(progress.done) examined, \(progress.upgraded) upgraded")
        }
        // end snippet
        #expect(report.upgraded == 1)
    }

    func mayRetire(_ store: InMemoryDocumentStore<Int>) async throws -> Bool {
        // snippet: store-census-retire
        let census = try await DocumentCensus(Bookmark.self, coder: JSONDocumentCoder()).take(of: store)
        if census.mayRetireVersions(below: 3) {
            print("No bookmark is older than version 3: BookmarkV1 and BookmarkV2 can go.")
        }
        // end snippet
        return census.mayRetireVersions(below: 3)
    }

    @Test("A store of strings upgrades in one line")
    func oneLine() async throws {
        // snippet: store-one-line
        let store = InMemoryDocumentStore<String>()
        let report = try await DocumentUpgrade(Bookmark.self, coder: JSONDocumentCoder()).run(on: store)
        // end snippet
        #expect(report.examined == 0)
    }

    @Test("Coders take the program's configured encoders")
    func coders() throws {
        let json: JSONDocumentCoder = {
            // snippet: store-json-coder
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let coder = JSONDocumentCoder(encoder: encoder)
            // end snippet
            return coder
        }()
        let plist: PropertyListDocumentCoder = {
            // snippet: store-plist-coder
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            let coder = PropertyListDocumentCoder(encoder: encoder)
            // end snippet
            return coder
        }()
        let bookmark = Bookmark(url: "u", title: "t", folder: "f")
        let jsonData = try json.encode(bookmark, asVersion: 3)
        #expect(String(decoding: jsonData, as: UTF8.self) == #"{"folder":"f","title":"t","url":"u","version":3}"#)
        #expect(try plist.decode(Bookmark.self, from: plist.encode(bookmark, asVersion: 3)).wrappedValue == bookmark)
    }

    @Test("Targets are spelled as what they mean")
    func targets() throws {
        // snippet: store-targets
        let current = try DocumentUpgrade(Bookmark.self, to: .current, coder: JSONDocumentCoder())
        let second = try DocumentUpgrade(Bookmark.self, to: .version(2), coder: JSONDocumentCoder())
        // end snippet
        #expect(current.targetVersion == 3)
        #expect(second.targetVersion == 2)
    }

    @Test("Workers' reports add up")
    func reportsAddUp() async throws {
        let stores = [InMemoryDocumentStore<String>(), InMemoryDocumentStore<String>()]
        await stores[1].put(try JSONEncoder().encode(versioned: BookmarkV1(address: "a")), at: "a")
        var reportsOfEachWorker: [UpgradeReport<String>] = []
        for store in stores {
            reportsOfEachWorker.append(
                try await DocumentUpgrade(Bookmark.self, coder: JSONDocumentCoder()).run(on: store)
            )
        }
        // snippet: store-reports-add-up
        var total = try UpgradeReport<String>(targetVersion: 3, isDryRun: false, sampleLimit: 20)
        for report in reportsOfEachWorker {
            try total.add(report)
        }
        // end snippet
        #expect(total.upgraded == 1)
    }

    @Test("A service's read writes an old document back")
    func upgradeOnRead() async throws {
        let store = InMemoryDocumentStore<Int>()
        await store.put(try JSONEncoder().encode(versioned: BookmarkV1(address: "a")), at: 2)
        // snippet: store-upgrade-on-read
        let reader = try UpgradeOnRead(Bookmark.self, coder: JSONDocumentCoder(), writesBackPerSecond: 50)
        if let read = try await reader.read(at: 2, from: store, writeBack: true) {
            print(read.value.title, read.writeBack)
        }
        print(reader.report)
        // end snippet
        #expect(reader.report.writtenBack == 1)
    }

    @Test("A service's own page of rows is decoded and written back without a second read")
    func upgradeOnReadOfRowsAlreadyRead() async throws {
        let store = InMemoryDocumentStore<Int>()
        await store.put(try JSONEncoder().encode(versioned: BookmarkV1(address: "a")), at: 1)
        await store.put(try JSONEncoder().encode(versioned: BookmarkV2(url: "b", title: "B")), at: 2)
        let reader = try UpgradeOnRead(Bookmark.self, coder: JSONDocumentCoder(), writesBackPerSecond: 50)
        // snippet: store-upgrade-on-read-rows
        // The service lists a page itself; each row carries the revision it was read at.
        for document in await store.documents(after: nil, limit: 100) {
            let read = try await reader.read(document, from: store, writeBack: true)
            print(document.key, read.value.title, read.writeBack)
        }
        // end snippet
        #expect(reader.report.writtenBack == 2)
        #expect(reader.report.reads == 2)
    }

    @Test("Readers of two types share one limit on write-backs")
    func sharedLimit() async throws {
        // snippet: store-write-back-limit
        let limit = try WriteBackLimit(perSecond: 50)
        let bookmarks = try UpgradeOnRead(Bookmark.self, coder: JSONDocumentCoder(), sharing: limit)
        let notes = try UpgradeOnRead(StoreNote.self, coder: JSONDocumentCoder(), sharing: limit)
        // end snippet
        #expect(bookmarks.limit === notes.limit)
        #expect(notes.writesBackPerSecond == 50)
    }
}
