import Foundation
import Testing
import VersionedCodable

@Suite("A property that mirrors the version is written with the version being written")
struct VersionMirrorTests {
    @Test("A stale mirror after a migration is written as the current version")
    func staleMirrorAfterMigration() throws {
        let old = document(#"{"manifestVersion": 1, "files": ["a.txt", "b.txt"]}"#)
        let manifest = try JSONDecoder().decode(versioned: Manifest.self, from: old)
        #expect(manifest.manifestVersion == 1)
        #expect(manifest.files == ["a.txt": 0, "b.txt": 0])

        let object = try jsonObject(JSONEncoder().encode(versioned: manifest))
        #expect(object["manifestVersion"] as? Int == 2)
        #expect(object["files"] as? [String: Int] == ["a.txt": 0, "b.txt": 0])
    }

    @Test("A mirror that holds the current version is written unchanged")
    func currentMirror() throws {
        let manifest = Manifest(manifestVersion: 2, files: ["d.txt": 3])
        let data = try JSONEncoder().encode(versioned: manifest)
        #expect(try jsonObject(data)["manifestVersion"] as? Int == 2)
        #expect(try JSONDecoder().decode(versioned: Manifest.self, from: data) == manifest)
    }

    @Test("A mirror that holds nil is written as the current version and reads back")
    func nilMirror() throws {
        let manifest = Manifest(manifestVersion: nil, files: ["c.txt": 12])
        let data = try JSONEncoder().encode(versioned: manifest)
        #expect(try jsonObject(data)["manifestVersion"] as? Int == 2)

        let read = try JSONDecoder().decode(versioned: Manifest.self, from: data)
        #expect(read == Manifest(manifestVersion: 2, files: ["c.txt": 12]))
    }

    @Test("A version property under the default spec mirrors the version")
    func defaultSpecMirror() throws {
        let data = try JSONEncoder().encode(versioned: Settings(version: nil, theme: "dark"))
        let object = try jsonObject(data)
        #expect(object["version"] as? Int == 4)
        #expect(object["theme"] as? String == "dark")
        let read = try JSONDecoder().decode(versioned: Settings.self, from: data)
        #expect(read == Settings(version: 4, theme: "dark"))

        let stale = try jsonObject(JSONEncoder().encode(versioned: Settings(version: 3, theme: "light")))
        #expect(stale["version"] as? Int == 4)
    }

    @Test("A mirror is written with the version in property lists too")
    func propertyListMirror() throws {
        let data = try PropertyListEncoder().encode(versioned: Settings(version: 1, theme: "dark"))
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let dictionary = try #require(plist as? [String: Any])
        #expect(dictionary["version"] as? Int == 4)
        #expect(dictionary["theme"] as? String == "dark")
    }
}
