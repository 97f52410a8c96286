import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("Upgrade on read: a service's reads write old documents back at the target")
struct UpgradeOnReadTests {
    static let encoder = JSONEncoder()
    static let decoder = JSONDecoder()

    static func reader(rate: Double = 1_000) throws -> UpgradeOnRead<StoreNote, JSONDocumentCoder> {
        try UpgradeOnRead(StoreNote.self, coder: JSONDocumentCoder(), writesBackPerSecond: rate)
    }

    @Test("A read below the target returns the current value and, when asked, writes the document back")
    func writesBack() async throws {
        let store = InMemoryDocumentStore<Int>()
        await store.put(try Self.encoder.encode(versioned: StoreNoteV1(title: "t", text: "a\nb")), at: 1)
        let reader = try Self.reader()
        let first = try #require(try await reader.read(at: 1, from: store, writeBack: false))
        #expect(first.value == StoreNote(title: "t", lines: ["a", "b"], pinned: false))
        #expect(first.storedVersion == 1)
        #expect("\(first.writeBack)" == "not asked")
        #expect(try Self.decoder.storedVersion(of: StoreNote.self, from: #require(await store.data(at: 1))) == 1)

        let second = try #require(try await reader.read(at: 1, from: store, writeBack: true))
        #expect(second.value == first.value)
        #expect("\(second.writeBack)" == "written back")
        let data = try #require(await store.data(at: 1))
        #expect(try Self.decoder.decodeWithStoredVersion(StoreNote.self, from: data).storedVersion == 3)
        #expect(try Self.decoder.decode(versioned: StoreNote.self, from: data) == first.value)

        let third = try #require(try await reader.read(at: 1, from: store, writeBack: true))
        #expect("\(third.writeBack)" == "not needed")
        #expect(await store.data(at: 1) == data)
        #expect(reader.report.reads == 3)
        #expect(reader.report.writtenBack == 1)
        #expect(reader.report.notAsked == 1)
        #expect(try await reader.read(at: 2, from: store, writeBack: true) == nil)
    }

    @Test("A write made between the read and the write-back is kept, and counted as a conflict")
    func neverOverAWriteMadeMeanwhile() async throws {
        let store = FaultyStore(base: InMemoryDocumentStore<Int>())
        await store.base.put(try Self.encoder.encode(versioned: StoreNoteV1(title: "old", text: "x")), at: 7)
        let edit = try Self.encoder.encode(versioned: StoreNoteV2(title: "service edit", lines: ["y"]))
        await store.beforeCommits([{ base in await base.put(edit, at: 7) }])
        let reader = try Self.reader()
        let read = try #require(try await reader.read(at: 7, from: store, writeBack: true))
        #expect(read.value.title == "old")
        #expect("\(read.writeBack)" == "changed meanwhile, kept")
        #expect(await store.base.data(at: 7) == edit)
        #expect(await store.writes.isEmpty)
        #expect(reader.report.conflicts == 1)
        #expect(reader.report.writtenBack == 0)
    }

    @Test("Unreadable documents throw and newer ones are never written")
    func unreadableAndNewerKept() async throws {
        let mixed = try MixedStore(count: 4)
        let store = FaultyStore(base: mixed.makeStore())
        let reader = try Self.reader()
        for key in MixedStore.unreadableKeys.union(MixedStore.newerKeys) {
            await #expect(throws: (any Error).self) { try await reader.read(at: key, from: store, writeBack: true) }
        }
        #expect(await store.base.allDocuments == mixed.documents)
        #expect(await store.writes.isEmpty)
        #expect(reader.report.unreadable == 6)
        #expect(reader.report.writtenBack == 0)
    }

    @Test("Write-backs stay within the rate, and the rest are counted as skipped")
    func rateLimited() async throws {
        var documents: [Int: Data] = [:]
        for key in 1...20 {
            documents[key] = try Self.encoder.encode(versioned: StoreNoteV1(title: "n\(key)", text: "x"))
        }
        let store = InMemoryDocumentStore(documents: documents)
        let reader = try Self.reader(rate: 3)
        let started = ProcessInfo.processInfo.systemUptime
        for key in 1...20 {
            let read = try #require(try await reader.read(at: key, from: store, writeBack: true))
            #expect(read.value.title == "n\(key)")
        }
        let elapsed = ProcessInfo.processInfo.systemUptime - started
        let report = reader.report
        #expect(report.writtenBack + report.skippedForRate == 20)
        #expect(report.writtenBack >= 3)
        #expect(Double(report.writtenBack) <= 3 + 3 * elapsed + 1)
        let written = await store.allDocuments.values.filter {
            (try? Self.decoder.storedVersion(of: StoreNote.self, from: $0)) == 3
        }
        #expect(written.count == report.writtenBack)
    }

    @Test("Readers of two types made with one limit share its rate")
    func sharedLimit() async throws {
        var notes: [Int: Data] = [:]
        var bookmarks: [Int: Data] = [:]
        for key in 1...10 {
            notes[key] = try Self.encoder.encode(versioned: StoreNoteV1(title: "n\(key)", text: "x"))
            bookmarks[key] = try Self.encoder.encode(versioned: BookmarkV1(address: "a\(key)"))
        }
        let noteStore = InMemoryDocumentStore(documents: notes)
        let bookmarkStore = InMemoryDocumentStore(documents: bookmarks)
        let limit = try WriteBackLimit(perSecond: 4)
        let noteReader = try UpgradeOnRead(StoreNote.self, coder: JSONDocumentCoder(), sharing: limit)
        let bookmarkReader = try UpgradeOnRead(Bookmark.self, coder: JSONDocumentCoder(), sharing: limit)
        let started = ProcessInfo.processInfo.systemUptime
        for key in 1...10 {
            _ = try await noteReader.read(at: key, from: noteStore, writeBack: true)
            _ = try await bookmarkReader.read(at: key, from: bookmarkStore, writeBack: true)
        }
        let elapsed = ProcessInfo.processInfo.systemUptime - started
        let written = noteReader.report.writtenBack + bookmarkReader.report.writtenBack
        // Each reader alone would have written 4 at once; together they take 4 turns between
        // them, and what refilled while they read.
        #expect(written >= 4)
        #expect(Double(written) <= 4 + 4 * elapsed + 1)
        #expect(noteReader.report.writtenBack > 0 && bookmarkReader.report.writtenBack > 0)
        #expect(written + noteReader.report.skippedForRate + bookmarkReader.report.skippedForRate == 20)
    }

    @Test("A rate that is not above 0 or not finite is refused")
    func rateRefused() {
        for rate in [0, -1, Double.nan, .infinity] {
            #expect(throws: StoreSettingError.self) { try Self.reader(rate: rate) }
            #expect(throws: StoreSettingError.self) { try WriteBackLimit(perSecond: rate) }
        }
    }

    @Test("An older target writes that version back, and a value it cannot hold is left as it is")
    func olderTarget() async throws {
        let store = InMemoryDocumentStore<Int>()
        await store.put(try Self.encoder.encode(versioned: StoreNoteV1(title: "a", text: "x")), at: 1)
        let reader = try UpgradeOnRead(
            StoreNote.self,
            to: .version(2),
            coder: TitleDroppingCoder(),
            writesBackPerSecond: 10
        )
        let read = try #require(try await reader.read(at: 1, from: store, writeBack: true))
        #expect("\(read.writeBack)".hasPrefix("not writable"))
        #expect(reader.report.notWritable == 1)
        #expect(try Self.decoder.storedVersion(of: StoreNote.self, from: #require(await store.data(at: 1))) == 1)
    }

    @Test("Many tasks read through one reader, and each document is written back once")
    func concurrentReads() async throws {
        var documents: [Int: Data] = [:]
        for key in 1...10 {
            documents[key] = try Self.encoder.encode(versioned: StoreNoteV2(title: "n\(key)", lines: []))
        }
        let store = FaultyStore(base: InMemoryDocumentStore(documents: documents))
        let reader = try Self.reader()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for key in 1...10 {
                        _ = try await reader.read(at: key, from: store, writeBack: true)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await store.writes.values.allSatisfy { $0 == 1 })
        #expect(await store.writes.count == 10)
        let report = reader.report
        #expect(report.reads == 40)
        #expect(report.writtenBack == 10)
    }
}

@Suite("Upgrade on read: parts below the target")
struct UpgradeOnReadPartsTests {
    /// A shelf at its current version whose books are stored as version 1.
    static func shelfWithOldBooks() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(StoreBook.self, asVersion: 1)
        return try encoder.encode(versioned: StoreShelf(books: [Versioned(StoreBook(title: "Emma"))]))
    }

    @Test("A document at the target whose parts are below it is written back when the reader is told how to see it")
    func partsBelowWrittenBack() async throws {
        let store = InMemoryDocumentStore<Int>()
        await store.put(try Self.shelfWithOldBooks(), at: 1)
        let reader = try UpgradeOnRead(
            StoreShelf.self,
            coder: JSONDocumentCoder(),
            writesBackPerSecond: 100,
            partsBelowTarget: StoreShelf.holdsOldBooks
        )
        let first = try #require(try await reader.read(at: 1, from: store, writeBack: true))
        #expect("\(first.writeBack)" == "written back")
        #expect(first.value.books.map(\.storedVersion) == [1])
        let data = try #require(await store.data(at: 1))
        let stored = try JSONDecoder().decodeWithStoredVersion(StoreShelf.self, from: data)
        #expect(stored.storedVersion == 1)
        #expect(stored.wrappedValue.books.map(\.storedVersion) == [2])
        #expect(stored.wrappedValue.books.map(\.wrappedValue.title) == ["Emma"])

        let second = try #require(try await reader.read(at: 1, from: store, writeBack: true))
        #expect("\(second.writeBack)" == "not needed")
        #expect(await store.data(at: 1) == data)
        #expect(reader.report.writtenBack == 1)
    }

    @Test("Without partsBelowTarget, a document at the target is not written, whatever its parts")
    func partsNotLookedAtByDefault() async throws {
        let store = InMemoryDocumentStore<Int>()
        let old = try Self.shelfWithOldBooks()
        await store.put(old, at: 1)
        let reader = try UpgradeOnRead(StoreShelf.self, coder: JSONDocumentCoder(), writesBackPerSecond: 100)
        let read = try #require(try await reader.read(at: 1, from: store, writeBack: true))
        #expect("\(read.writeBack)" == "not needed")
        #expect(await store.data(at: 1) == old)
        #expect(reader.report.writtenBack == 0)
    }

    @Test("A document above an older target is never written down to it for its parts")
    func neverDownForParts() async throws {
        let store = InMemoryDocumentStore<Int>()
        let current = try JSONEncoder().encode(versioned: StoreNote(title: "t", lines: ["a"], pinned: false))
        await store.put(current, at: 1)
        let reader = try UpgradeOnRead(
            StoreNote.self,
            to: .version(2),
            coder: JSONDocumentCoder(),
            writesBackPerSecond: 100,
            partsBelowTarget: { _ in true }
        )
        let read = try #require(try await reader.read(at: 1, from: store, writeBack: true))
        #expect("\(read.writeBack)" == "not needed")
        #expect(await store.data(at: 1) == current)
    }
}
