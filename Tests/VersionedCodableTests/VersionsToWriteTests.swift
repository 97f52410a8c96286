import Foundation
import Testing
import VersionedCodable

@Suite("Writing a whole document, versioned parts included, for older readers")
struct VersionsToWriteTests {
    struct PartV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var name: String
    }

    struct Part: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = PartV1
        var name: String
        var count: Int

        init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
        init(from old: PartV1) throws {
            name = old.name
            count = 1
        }
        func downgraded() throws -> PartV1 { PartV1(name: name) }
    }

    struct ShelfV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var parts: [Versioned<Part>]
    }

    struct Shelf: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = ShelfV1
        var parts: [Versioned<Part>]
        @Versioned var featured: Part

        init(parts: [Versioned<Part>], featured: Part) {
            self.parts = parts
            self._featured = Versioned(featured)
        }
        init(from old: ShelfV1) throws {
            parts = old.parts
            _featured = old.parts.first ?? Versioned(Part(name: "none", count: 0))
        }
        func downgraded() throws -> ShelfV1 { ShelfV1(parts: parts) }
    }

    static let shelf = Shelf(
        parts: [Versioned(Part(name: "bolt", count: 4)), Versioned(Part(name: "nut", count: 9))],
        featured: Part(name: "washer", count: 2)
    )

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("Parts at any depth are written as the version the list gives for their type")
    func partsFollowTheList() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(Part.self, asVersion: 1)
        let document = try Self.object(try encoder.encode(versioned: Self.shelf))
        #expect(document["version"] as? Int == 2)
        let parts = try #require(document["parts"] as? [[String: Any]])
        #expect(parts.map { $0["version"] as? Int } == [1, 1])
        #expect(parts.allSatisfy { $0["count"] == nil })
        let featured = try #require(document["featured"] as? [String: Any])
        #expect(featured["version"] as? Int == 1)
    }

    @Test("The root follows the list too, and an explicit version for the root wins over it")
    func rootFollowsTheList() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite()
            .writing(Shelf.self, asVersion: 1)
            .writing(Part.self, asVersion: 1)
        let listed = try Self.object(try encoder.encode(versioned: Self.shelf))
        #expect(listed["version"] as? Int == 1)
        #expect(listed["featured"] == nil)
        let explicit = try Self.object(try encoder.encode(versioned: Self.shelf, asVersion: 2))
        #expect(explicit["version"] as? Int == 2)
        #expect((explicit["featured"] as? [String: Any])?["version"] as? Int == 1)

        let transparent = try Self.shelf.encodeTransparently { try encoder.encode($0) }
        #expect(try Self.object(transparent)["version"] as? Int == 1)
    }

    @Test("The documentation's sample writes the shelf and its parts for version 1 readers")
    func documentationSample() throws {
        let shelf = Self.shelf
        // snippet: versions-to-write
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite()
            .writing(Shelf.self, asVersion: 1)
            .writing(Part.self, asVersion: 1)
        let forOldReaders = try encoder.encode(versioned: shelf)
        // end snippet
        let document = try Self.object(forOldReaders)
        #expect(document["version"] as? Int == 1)
        #expect((document["parts"] as? [[String: Any]])?.map { $0["version"] as? Int } == [1, 1])
    }

    @Test("What is written for old readers reads back through the current chain")
    func writtenForOldReadersReadsBack() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(Part.self, asVersion: 1)
        let data = try encoder.encode(versioned: Self.shelf)
        let read = try JSONDecoder().decode(versioned: Shelf.self, from: data)
        #expect(read.parts.map(\.storedVersion) == [1, 1])
        #expect(read.parts.map(\.wrappedValue) == [Part(name: "bolt", count: 1), Part(name: "nut", count: 1)])
        #expect(read.$featured.storedVersion == 1)
    }

    @Test("A version that is not in the type's chain is refused by name")
    func unknownVersionIsRefused() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(Part.self, asVersion: 7)
        let error = #expect(throws: EncodingError.self) {
            try encoder.encode(versioned: Self.shelf)
        }
        guard case .invalidValue(_, let context)? = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription.hasPrefix("Part at parts[0] cannot be written as version 7"))
        let underlying = context.underlyingError as? VersionedEncodingError
        #expect(underlying == .versionNotInChain(7, chain: VersionChain(for: Part.self)))
        #expect(VersionsToWrite().writing(Part.self, asVersion: nil).version(for: Part.self) == .some(nil))
        #expect(VersionsToWrite().version(for: Part.self) == nil)
    }
}

@Suite("Transparent encoding through a coder whose output is not Data")
struct EncodeTransparentlyReturningTests {
    @Test("The coder's own output type comes back, with the version written")
    func stringOutput() throws {
        let shelf = VersionsToWriteTests.shelf
        let text: String = try shelf.encodeTransparently(returning: { value in
            String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        })
        let data = Data(text.utf8)
        #expect(try VersionsToWriteTests.object(data)["version"] as? Int == 2)
        #expect(try JSONDecoder().decode(versioned: VersionsToWriteTests.Shelf.self, from: data) == shelf)

        let old: String = try shelf.encodeTransparently(asVersion: 1) { value in
            String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        }
        #expect(try VersionsToWriteTests.object(Data(old.utf8))["version"] as? Int == 1)
    }
}
