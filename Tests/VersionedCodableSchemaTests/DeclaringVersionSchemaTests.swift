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
