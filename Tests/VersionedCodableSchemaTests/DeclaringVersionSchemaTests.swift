import Foundation
import Testing
import VersionedCodable
import VersionedCodableSchema

@Suite("A version that names the older builds that may read it")
struct DeclaringVersionSchemaTests {
    struct MemoV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var text: String
    }

    /// Builds of version 1 may read and write its documents.
    struct Memo: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = MemoV1
        static var compatibility: ForwardCompatibility { .compatible }
        var text: String
        var pinned: Bool?

        init(text: String, pinned: Bool?) {
            self.text = text
            self.pinned = pinned
        }

        init(from old: MemoV1) throws {
            self.init(text: old.text, pinned: nil)
        }
    }

    /// Builds of version 1 may read, but not write, its documents.
    struct ReadOnlyMemo: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = MemoV1
        static var compatibility: ForwardCompatibility { .readOnlyCompatible }
        var text: String

        init(text: String) { self.text = text }
        init(from old: MemoV1) throws { text = old.text }
    }

    /// Builds of version 2 may read its documents; version 2's builds say builds of 1 may too.
    struct MemoV3: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = Memo
        static var compatibility: ForwardCompatibility { .compatible }
        var text: String
        init(from old: Memo) throws { text = old.text }
    }

    /// Builds of version 2 may read its documents, and no older ones, as version 2 of this
    /// chain declares nothing.
    struct LaterMemoV3: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = PlainMemoV2
        static var compatibility: ForwardCompatibility { .compatible }
        var text: String
        init(text: String) { self.text = text }
        init(from old: PlainMemoV2) throws { text = old.text }
    }

    struct PlainMemoV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = MemoV1
        var text: String
        init(from old: MemoV1) throws { text = old.text }
    }

    @Test("The declaration's least value is the oldest version whose builds read it, down the chain's declarations")
    func oldestReaderIsTheMinimum() throws {
        let throughOne = try #require(VersionSchemas(for: MemoV3.self)[3]?.properties?["versionReadableFrom"])
        #expect(throughOne.minimum == 1)
        #expect(throughOne.maximum == 3)
        let throughTwo = try #require(VersionSchemas(for: LaterMemoV3.self)[3]?.properties?["versionReadableFrom"])
        #expect(throughTwo.minimum == 2)
        // What the writer puts there matches; a smaller value is refused.
        let written = try JSONEncoder().encode(versioned: LaterMemoV3(text: "t"))
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object["versionReadableFrom"] as? Int == 2)
        let schema = try #require(VersionSchemas(for: LaterMemoV3.self)[3])
        #expect(try schema.violations(in: written).isEmpty)
        #expect(try !schema.violations(in: Data(#"{"version":3,"text":"t","versionReadableFrom":1}"#.utf8)).isEmpty)
        // Older builds write back what a compatible version writes, from the oldest writer; a
        // read-only version's documents name no writer, and its schema allows none.
        let writable = try #require(VersionSchemas(for: MemoV3.self)[3]?.properties?["versionWritableFrom"])
        #expect(writable.minimum == 1)
        #expect(VersionSchemas(for: ReadOnlyMemo.self)[2]?.properties?["versionWritableFrom"] == nil)
        let readOnly = #"{"version":2,"text":"t","versionReadableFrom":1,"versionWritableFrom":1}"#
        #expect(
            try !(try #require(VersionSchemas(for: ReadOnlyMemo.self)[2])).violations(in: Data(readOnly.utf8)).isEmpty
        )
    }

    @Test("Its own documents, which carry the declaration beside the version, match its schema")
    func ownDocumentsMatch() throws {
        let compatible = try JSONEncoder().encode(versioned: Memo(text: "t", pinned: true))
        let object = try #require(try JSONSerialization.jsonObject(with: compatible) as? [String: Any])
        #expect(object["versionReadableFrom"] as? Int == 1)
        #expect(object["versionWritableFrom"] as? Int == 1)
        #expect(try #require(VersionSchemas(for: Memo.self)[2]).violations(in: compatible).isEmpty)

        let readOnly = try JSONEncoder().encode(versioned: ReadOnlyMemo(text: "t"))
        let readOnlyObject = try #require(try JSONSerialization.jsonObject(with: readOnly) as? [String: Any])
        // Only its own version may write it, which goes without saying.
        #expect(readOnlyObject["versionReadableFrom"] as? Int == 1)
        #expect(readOnlyObject["versionWritableFrom"] == nil)
        #expect(try #require(VersionSchemas(for: ReadOnlyMemo.self)[2]).violations(in: readOnly).isEmpty)
    }

    @Test("A declaration that is not an integer, or names a reader newer than the version, is refused")
    func badDeclarationRefused() throws {
        let schema = try #require(VersionSchemas(for: Memo.self)[2])
        let text = #"{"version":2,"text":"t","versionReadableFrom":"one"}"#
        #expect(try !schema.violations(in: Data(text.utf8)).isEmpty)
        let newer = #"{"version":2,"text":"t","versionReadableFrom":3}"#
        #expect(try !schema.violations(in: Data(newer.utf8)).isEmpty)
        // The version before declares nothing, so its documents have no declaration.
        let older = #"{"version":1,"text":"t","versionReadableFrom":1}"#
        #expect(try !(try #require(VersionSchemas(for: Memo.self)[1])).violations(in: Data(older.utf8)).isEmpty)
    }
}
