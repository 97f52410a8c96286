import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

@testable import VersionedCodableTesting

@Suite("Checking every API version against the stored documents")
struct FixtureCheckTests {
    @Test("Every API version serves every stored contact")
    func everyAPIVersionServesStoredContacts() throws {
        // snippet: api-versions-fixture-check
        VersionedFixtures(Contact.self, bundle: .module).checkEveryAPIVersion(try ContactAPI.versions())
        // end snippet
    }

    @Test("A board whose tags do not survive the steps' round trip still merges its own echo")
    func boardEcho() throws {
        let checked = VersionedFixtures(Board.self, bundle: .module).checkEveryAPIVersion(try BoardAPI.versions())
        #expect(checked == 1)
    }

    @Test("An API version that shows a version without a step down fails the check, naming it")
    func missingDowngrade() throws {
        // `Badge` has no `downgraded()`: an API version that shows it as version 1 cannot write it.
        let versions = try APIVersions(
            [APIVersion(1).showing(Badge.self, asVersion: 1), APIVersion(2)],
            defaultVersion: 1
        )
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("badge-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Badge"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"version": 2, "label": "gold", "level": 3}"#.utf8)
            .write(to: folder.appendingPathComponent("Badge/v2.json"))
        let issues = Collected()
        let checked = IssueCollection.$collect.withValue({ issues.add($0) }) {
            VersionedFixtures(Badge.self, directory: folder).checkEveryAPIVersion(versions)
        }
        #expect(checked == 0)
        #expect(issues.messages.count == 1)
        #expect(issues.messages.first?.contains("v2.json at API version 1: it cannot be written") == true)
    }

    @Test("A type without a fixture of its current version is an issue, not a pass")
    func noFixture() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Board"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let issues = Collected()
        let checked = try IssueCollection.$collect.withValue({ issues.add($0) }) {
            VersionedFixtures(Board.self, directory: folder).checkEveryAPIVersion(try BoardAPI.versions())
        }
        #expect(checked == 0)
        #expect(issues.messages.first?.contains("no fixture of its current version 2") == true)
    }
}

/// The issues a check reported, collected instead of recorded.
final class Collected: @unchecked Sendable {
    // `@unchecked`: every access holds the lock.
    private let lock = NSLock()
    private var collected: [String] = []

    func add(_ issue: CollectedIssue) {
        lock.lock()
        collected.append(issue.message)
        lock.unlock()
    }

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}
