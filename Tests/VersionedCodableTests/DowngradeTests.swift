import Foundation
import Testing
import VersionedCodable

@testable import PoemHistory

@Suite("Writing older versions for older readers")
struct DowngradeTests {
    static let tyger = Poem(
        author: Author(name: "William Blake", born: 1757),
        title: "The Tyger",
        stanzas: [["Tyger Tyger, burning bright,", "In the forests of the night;"], ["What immortal hand"]],
        stars: 5
    )

    @Test("A value written as version 3 is read by code that knows only version 3")
    func writesOlderVersion() throws {
        let data = try JSONEncoder().encode(versioned: Self.tyger, asVersion: 3)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == 3)
        #expect(object["rating"] as? String == "love")
        let old = try JSONDecoder().decode(versioned: PoemV3.self, from: data)
        #expect(old.poem == "Tyger Tyger, burning bright,\nIn the forests of the night;\n\nWhat immortal hand")
        // and back up again without loss
        #expect(try JSONDecoder().decode(versioned: Poem.self, from: data) == Self.tyger)
    }

    @Test("Writing the current version as an 'older' one writes the current version")
    func currentVersionIsPlainEncode() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(versioned: Self.tyger, asVersion: 4) == encoder.encode(versioned: Self.tyger))
    }

    @Test("A step with no downgrade throws and names the type")
    func missingDowngrade() throws {
        #expect(throws: VersionedEncodingError.noDowngrade(from: PoemV3.self)) {
            try JSONEncoder().encode(versioned: Self.tyger, asVersion: 2)
        }
        #expect("\(VersionedEncodingError.noDowngrade(from: PoemV3.self))".contains("PoemV3 cannot be written"))
    }

    @Test("A value the older version cannot represent throws with context")
    func notRepresentable() throws {
        var four = Self.tyger
        four.stars = 4
        let error = #expect(throws: VersionedEncodingError.self) {
            try PropertyListEncoder().encode(versioned: four, asVersion: 3)
        }
        guard case .notRepresentable(let type, let context)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(isSameType(type, PoemV3.self))
        #expect(context.debugDescription.contains("4 stars"))
    }

    @Test("A version that is not in the chain throws before anything is converted")
    func versionNotInChain() throws {
        let error = #expect(throws: VersionedEncodingError.self) {
            try JSONEncoder().encode(versioned: Self.tyger, asVersion: 7)
        }
        #expect("\(error!)".contains("Version 7 is not in the chain Poem (4) → PoemV3 (3)"))
    }

    @Test("Rolling deploy: v4 writers serve v3 readers, then everyone reads v4", arguments: ["json", "plist"])
    func rollingDeploy(format: String) throws {
        func encode(_ poem: Poem, as version: Int?) throws -> Data {
            format == "json"
                ? try JSONEncoder().encode(versioned: poem, asVersion: version)
                : try PropertyListEncoder().encode(versioned: poem, asVersion: version)
        }
        func decode<T: VersionedCodable>(_ type: T.Type, _ data: Data) throws -> T {
            format == "json"
                ? try JSONDecoder().decode(versioned: type, from: data)
                : try PropertyListDecoder().decode(versioned: type, from: data)
        }
        var store: [Data] = []
        // Step 1: old readers (newest type PoemV3) and new writers share the store. The
        // writers write version 3 so that old readers keep working.
        store.append(try encode(Self.tyger, as: 3))
        var other = Self.tyger
        other.title = "The Lamb"
        other.stars = 1
        store.append(try encode(other, as: 3))
        for document in store {
            _ = try decode(PoemV3.self, document)
        }
        // Step 2: every reader runs version 4; writers switch to the current version.
        store.append(try encode(Self.tyger, as: Poem.version))
        // Old readers cannot read the new document, and say why.
        let error = #expect(throws: VersionedDecodingError.self) { try decode(PoemV3.self, store[2]) }
        #expect(error == .documentVersionTooNew(found: 4, newest: PoemV3.self))
        // New readers read everything.
        let all = try store.map { try decode(Poem.self, $0) }
        #expect(all == [Self.tyger, other, Self.tyger])
    }

    @Test("encodeTransparently can write older versions through any encoder")
    func transparentDowngrade() throws {
        let data = try Self.tyger.encodeTransparently(asVersion: 3) { try JSONEncoder().encode($0) }
        #expect(try JSONDecoder().decode(versioned: PoemV3.self, from: data).title == "The Tyger")
        #expect(throws: VersionedEncodingError.noDowngrade(from: PoemV3.self)) {
            try Self.tyger.encodeTransparently(asVersion: 1) { try JSONEncoder().encode($0) }
        }
    }
}
