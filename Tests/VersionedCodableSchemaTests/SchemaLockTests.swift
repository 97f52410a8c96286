import Foundation
import Testing
import VersionedCodable
import VersionedCodableSchema

@testable import PoemHistory

@Suite("Committed schema files lock shipped versions")
struct SchemaLockTests {
    @Test("The Poem chain's shipped versions keep the shape of their committed schema files")
    func poemSchemasLocked() throws {
        // snippet: schema-lock
        try SchemaLock(folder: SourceFolders.schemas).check(VersionSchemas(for: Poem.self))
        // end snippet
    }

    @Test("Recording writes the files of versions that have none, then the check passes")
    func recording() throws {
        let folder = try SourceFolders.temporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = SchemaLock(folder: folder)
        let first = try lock.check(VersionSchemas(for: Poem.self), recording: true)
        #expect(first.recorded.count == 5)
        #expect(first.checked.isEmpty)
        let second = try lock.check(VersionSchemas(for: Poem.self), recording: false)
        #expect(second.checked.count == 5)
        #expect(second.recorded.isEmpty)
        let written = try Data(contentsOf: folder.appendingPathComponent("Poem/v4.schema.json"))
        #expect(written == (try VersionSchemas(for: Poem.self)[4]!.jsonData()))
    }

    @Test("A changed shipped version fails, naming the type, the version and each field, and its file stays")
    func changedVersion() throws {
        let folder = try SourceFolders.temporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Poem"),
            withIntermediateDirectories: true
        )
        var shipped = try #require(VersionSchemas(for: Poem.self)[4])
        shipped.properties?["stars"] = JSONSchema(type: "string")
        shipped.properties?["mood"] = JSONSchema(type: "string")
        shipped.properties?["title"] = nil
        shipped.required = ["author", "stanzas", "version"]
        shipped.properties?["author"]?.required = []
        let file = folder.appendingPathComponent("Poem/v4.schema.json")
        try shipped.jsonData().write(to: file)

        let failure = try #require(throws: SchemaLockFailure.self) {
            try SchemaLock(folder: folder).check(VersionSchemas(for: Poem.self), recording: true)
        }
        #expect(failure.typeName == "Poem")
        guard case .changed(let version, let path, let changes) = failure.problems.first else {
            Issue.record("expected a change, got \(failure)")
            return
        }
        #expect(version == 4)
        #expect(path == file.path)
        #expect(
            changes.map(\.description) == [
                "author.name: now required",
                "mood: removed",
                "stars: now required",
                "stars: type changed from string to integer",
                "title: added",
            ]
        )
        #expect(failure.description.contains("The schemas of Poem do not match their files"))
        #expect(failure.description.contains("version 4 no longer matches"))
        #expect(try Data(contentsOf: file) == (try shipped.jsonData()))
    }

    @Test("A lock file that is not JSON fails, naming the file")
    func notJSON() throws {
        let folder = try SourceFolders.temporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = SchemaLock(folder: folder)
        try lock.check(VersionSchemas(for: Poem.self), recording: true)
        let file = folder.appendingPathComponent("Poem/v2.schema.json")
        try Data("{ not json".utf8).write(to: file)
        let failure = try #require(throws: SchemaLockFailure.self) {
            try lock.check(VersionSchemas(for: Poem.self), recording: true)
        }
        guard case .notASchema(let path, _) = failure.problems.first else {
            Issue.record("expected a file that is not a schema, got \(failure)")
            return
        }
        #expect(path == file.path)
        #expect(failure.problems.count == 1)
    }

    @Test("A missing folder fails even when recording: a check that finds nothing does not pass")
    func missingFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID())")
        for recording in [false, true] {
            let failure = try #require(throws: SchemaLockFailure.self) {
                try SchemaLock(folder: folder).check(VersionSchemas(for: Poem.self), recording: recording)
            }
            #expect(failure.problems == [.folderMissing(path: folder.path)])
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("Without recording, a type with no files fails, and a version with no file is named")
    func missingFiles() throws {
        let folder = try SourceFolders.temporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = SchemaLock(folder: folder)
        #expect(throws: SchemaLockFailure.self) { try lock.check(VersionSchemas(for: Poem.self), recording: false) }
        try lock.check(VersionSchemas(for: Poem.self), recording: true)
        let file = folder.appendingPathComponent("Poem/v1.schema.json")
        try FileManager.default.removeItem(at: file)
        let failure = try #require(throws: SchemaLockFailure.self) {
            try lock.check(VersionSchemas(for: Poem.self), recording: false)
        }
        #expect(failure.problems == [.missing(version: 1, file: file.path)])
        #expect(failure.description.contains("VERSIONED_CODABLE_RECORD=1"))
    }

    @Test("A file for a version the chain no longer has fails")
    func removedVersion() throws {
        let folder = try SourceFolders.temporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = SchemaLock(folder: folder)
        try lock.check(VersionSchemas(for: Poem.self), recording: true)
        let stray = folder.appendingPathComponent("Poem/v9.schema.json")
        try JSONSchema(type: "object").jsonData().write(to: stray)
        let failure = try #require(throws: SchemaLockFailure.self) {
            try lock.check(VersionSchemas(for: Poem.self), recording: true)
        }
        #expect(failure.problems == [.notInChain(file: stray.path)])
    }

    @Test("Schemas that differ only outside their fields still differ")
    func differenceOutsideFields() {
        var old = JSONSchema(type: "object")
        old.title = "one"
        var new = old
        new.title = "two"
        #expect(new.changes(since: old).count == 1)
        #expect(old.changes(since: old).isEmpty)
    }
}
