import Foundation
import Testing
import VersionedCodable

@Suite("Custom version path specs with stored and computed key paths")
struct VersionPathSpecTests {
    /// The version a spec holds, read through its key path as the library reads it.
    private func version<Spec: VersionPathSpec>(in spec: Spec) -> Int? {
        spec[keyPath: Spec.keyPathToVersion]
    }

    @Test("Every spec's init(withVersion:) puts the version at its key path")
    func specsHoldTheirVersion() {
        #expect(version(in: VersionKeyAtRootVersionPathSpec(withVersion: 3)) == 3)
        #expect(version(in: VersionKeyAtRootVersionPathSpec()) == nil)
        #expect(version(in: SchemaVersionSpec(withVersion: 7)) == 7)
        #expect(version(in: RecipeVersionPath(withVersion: 2)) == 2)
        #expect(version(in: HeaderRevisionSpec(withVersion: nil)) == nil)
        #expect(SchemaVersionSpec(withVersion: 5)[keyPath: SchemaVersionSpec.keyPathToVersion] == 5)
    }

    @Test("A renamed root key is read and written under its own name")
    func renamedRootKey() throws {
        let old = document(#"{"schemaVersion": 1, "title": "Sonnet 18", "text": "Shall I\nThou art"}"#)
        let sonnet = try JSONDecoder().decode(versioned: Sonnet.self, from: old)
        #expect(sonnet == Sonnet(title: "Sonnet 18", lines: ["Shall I", "Thou art"]))

        let object = try jsonObject(JSONEncoder().encode(versioned: sonnet))
        #expect(object["schemaVersion"] as? Int == 2)
        #expect(object["version"] == nil)
        #expect(object["lines"] as? [String] == ["Shall I", "Thou art"])
    }

    @Test("A nested version path keeps the type's own fields in the same object")
    func nestedPathMerges() throws {
        let recipe = Recipe(recipeTitle: "Potato dauphinoise", lastModifiedBy: "Sophie")
        let object = try jsonObject(JSONEncoder().encode(versioned: recipe))
        let metadata = try #require(object["_metadata"] as? [String: Any])
        #expect(metadata["version"] as? Int == 2)
        #expect(metadata["lastModifiedBy"] as? String == "Sophie")
        #expect(object["recipeTitle"] as? String == "Potato dauphinoise")
    }

    @Test("A document with a nested version decodes and migrates")
    func nestedPathDecodes() throws {
        let current = document(
            #"{"recipeTitle": "Gratin", "_metadata": {"lastModifiedBy": "Sophie", "version": 2}}"#
        )
        #expect(
            try JSONDecoder().decode(versioned: Recipe.self, from: current)
                == Recipe(recipeTitle: "Gratin", lastModifiedBy: "Sophie")
        )
        let old = document(#"{"title": "Gratin", "_metadata": {"version": 1}}"#)
        #expect(
            try JSONDecoder().decode(versioned: Recipe.self, from: old)
                == Recipe(recipeTitle: "Gratin", lastModifiedBy: "unknown")
        )
    }

    @Test("A computed key path two levels deep is read and written")
    func computedKeyPath() throws {
        let old = document(#"{"header": {"revision": 1}, "play": "Hamlet", "performer": "Burbage"}"#)
        let playbill = try JSONDecoder().decode(versioned: Playbill.self, from: old)
        #expect(playbill == Playbill(play: "Hamlet", cast: ["Burbage"]))

        let object = try jsonObject(JSONEncoder().encode(versioned: playbill))
        let header = try #require(object["header"] as? [String: Any])
        #expect(header["revision"] as? Int == 2)
        #expect(object["cast"] as? [String] == ["Burbage"])
    }

    @Test("A version at the default place is not read for a type with a custom spec")
    func defaultPlaceIgnored() throws {
        let data = document(#"{"version": 2, "title": "Sonnet 18", "lines": ["Shall I"]}"#)
        #expect(throws: VersionedDecodingError.unsupportedVersion(tried: SonnetV1.self)) {
            try JSONDecoder().decode(versioned: Sonnet.self, from: data)
        }
    }
}
