import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

/// A ticket as version 1 kept it: its labels in one comma-separated string.
struct TicketV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var title: String
    var labels: String
}

/// Version 2 made the labels a list. Writing it as version 1 joins them again, which loses
/// nothing unless a label holds a comma.
struct TicketV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = TicketV1
    var title: String
    var labels: [String]

    init(title: String, labels: [String]) {
        self.title = title
        self.labels = labels
    }

    init(from old: TicketV1) throws {
        title = old.title
        labels = old.labels.split(separator: ",").map(String.init)
    }

    func downgraded() throws -> TicketV1 {
        if labels.contains(where: { $0.contains(",") }) {
            throw VersionedEncodingError.notRepresentable(
                in: TicketV1.self,
                .init(codingPath: [], debugDescription: "Version 1 cannot hold a label with a comma.")
            )
        }
        return TicketV1(title: title, labels: labels.joined(separator: ","))
    }
}

/// Today's ticket: version 3 renamed the title to a summary, a change both ways.
struct Ticket: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = TicketV2
    var summary: String
    var labels: [String]

    init(summary: String, labels: [String]) {
        self.summary = summary
        self.labels = labels
    }

    init(from old: TicketV2) throws {
        summary = old.title
        labels = old.labels
    }

    func downgraded() throws -> TicketV2 {
        TicketV2(title: summary, labels: labels)
    }

    static let sample = Ticket(summary: "Printer jams", labels: ["hardware", "office"])
}

/// A version 3 that added an estimate the older versions have no place for: writing it for
/// them drops the estimate.
struct EstimatedTicket: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = TicketV2
    var title: String
    var labels: [String]
    var estimate: Int?

    init(title: String, labels: [String], estimate: Int?) {
        self.title = title
        self.labels = labels
        self.estimate = estimate
    }

    init(from old: TicketV2) throws {
        title = old.title
        labels = old.labels
        estimate = nil
    }

    func downgraded() throws -> TicketV2 {
        TicketV2(title: title, labels: labels)
    }

    static let sample = EstimatedTicket(title: "Printer jams", labels: ["hardware"], estimate: 3)
}

/// A version 3 that never says how to write itself as version 2.
struct OneWayTicket: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = TicketV2
    var title: String

    init(title: String) {
        self.title = title
    }

    init(from old: TicketV2) throws {
        title = old.title
    }
}

@Suite("Checking that older versions read what newer ones write, and back")
struct CompatibilityCheckTests {
    static func fixtures<Value: VersionedCodable>(_ type: Value.Type) -> VersionedFixtures<Value> {
        var fixtures = VersionedFixtures(type, directory: FileManager.default.temporaryDirectory)
        fixtures.isRecording = false
        return fixtures
    }

    // snippet: compatibility-check
    @Test("Old and new builds read each other's tickets")
    func ticketsStayCompatible() {
        VersionedFixtures(Ticket.self, bundle: .module).checkCompatibility(
            .fullTransitive,
            samples: [.sample],
            lossless: [2, 1]
        )
    }
    // end snippet

    @Test("passes and reports nothing lost when every older version gives the sample back")
    func everyVersionLossless() throws {
        var found: VersionCompatibilityReport?
        let issues = issuesRecorded {
            found = Self.fixtures(Ticket.self).checkCompatibility(
                .fullTransitive,
                samples: [.sample],
                lossless: [2, 1]
            )
        }
        let report = try #require(found)
        #expect(issues.isEmpty)
        #expect(report.passed)
        #expect(report.checkedVersions == [2, 1])
        #expect(report.losses.isEmpty)
    }

    @Test("checks only the previous version unless the mode is transitive")
    func previousVersionOnly() throws {
        var found: VersionCompatibilityReport?
        let issues = issuesRecorded {
            found = Self.fixtures(Ticket.self).checkCompatibility(.full, samples: [.sample], lossless: [2])
        }
        let report = try #require(found)
        #expect(issues.isEmpty)
        #expect(report.checkedVersions == [2])
    }

    @Test("reports what a downgrade that is not declared lossless loses, without failing")
    func undeclaredLossIsReported() throws {
        var found: VersionCompatibilityReport?
        let issues = issuesRecorded {
            found = Self.fixtures(EstimatedTicket.self).checkCompatibility(.fullTransitive, samples: [.sample])
        }
        let report = try #require(found)
        #expect(issues.isEmpty)
        #expect(report.passed)
        #expect(report.losses.map { $0.version } == [2, 1])
        #expect(report.losses.allSatisfy { $0.differences == ["estimate: 3 → absent"] })
        #expect(report.description.contains("version 2, sample 0: estimate: 3 → absent"))
    }

    @Test("The report lists the versions checked and what the others lose")
    func reportLookups() {
        // snippet: compatibility-report
        let report = VersionedFixtures(EstimatedTicket.self, bundle: .module)
            .checkCompatibility(.fullTransitive, samples: [.sample])
        #expect(report.checkedVersions == [2, 1])
        #expect(report.losses.map { $0.differences } == [["estimate: 3 → absent"], ["estimate: 3 → absent"]])
        // end snippet
    }

    @Test("records an issue naming the field when a downgrade declared lossless loses it")
    func declaredLosslessButLossy() throws {
        var found: VersionCompatibilityReport?
        var line = 0
        let issues = issuesRecorded {
            line = #line + 1
            found = Self.fixtures(EstimatedTicket.self).checkCompatibility(.full, samples: [.sample], lossless: [2])
        }
        let report = try #require(found)
        #expect(!report.passed)
        #expect(report.issueCount == 1)
        let issue = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(issue.isFailure && issue.sourceLocation.line == line)
        #expect(
            issue.message.hasPrefix(
                "EstimatedTicket (version 3) sample 0 written as version 2 (TicketV2) is declared lossless, but "
                    + "the value read back: estimate: 3 → absent."
            )
        )
    }

    @Test("records an issue when an older version cannot represent a sample")
    func notRepresentable() throws {
        var found: VersionCompatibilityReport?
        let issues = issuesRecorded {
            found = Self.fixtures(Ticket.self).checkCompatibility(
                .fullTransitive,
                samples: [.sample, Ticket(summary: "Lights", labels: ["floor 2, east"])],
                lossless: [2, 1]
            )
        }
        let report = try #require(found)
        #expect(report.issueCount == 1)
        let issue = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(
            issue.message.hasPrefix("Ticket (version 3) sample 1 written as version 1 (TicketV1) could not be written")
        )
        #expect(issue.message.contains("Version 1 cannot hold a label with a comma."))
    }

    @Test("records an issue when a step has no downgrade, whichever the direction")
    func noDowngrade() throws {
        for mode in [VersionCompatibility.backward, .forward, .full] {
            let issues = issuesRecorded {
                Self.fixtures(OneWayTicket.self).checkCompatibility(mode, samples: [OneWayTicket(title: "Door")])
            }
            let issue = try #require(issues.first)
            #expect(issues.count == 1)
            #expect(issue.message.contains("could not be written") && issue.message.contains("downgraded()"))
        }
    }

    @Test("records an issue when a version declared lossless is not among those the mode checks")
    func losslessVersionNotChecked() throws {
        let issues = issuesRecorded {
            Self.fixtures(Ticket.self).checkCompatibility(.backward, samples: [.sample], lossless: [1])
        }
        let issue = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(issue.message.hasPrefix("Ticket: version 1 is declared lossless but BACKWARD does not check it"))
    }

    @Test("modes are named as a schema registry names them")
    func modeNames() {
        #expect(VersionCompatibility.backward.description == "BACKWARD")
        #expect(VersionCompatibility.forwardTransitive.description == "FORWARD_TRANSITIVE")
        #expect(VersionCompatibility.fullTransitive.description == "FULL_TRANSITIVE")
    }

    @Test("the report and the mode can be used from any task")
    func sendable() async {
        let report = await Task.detached {
            Self.fixtures(Ticket.self).checkCompatibility(
                VersionCompatibility.full,
                samples: [Ticket.sample],
                lossless: [2]
            )
        }.value
        #expect(report.passed)
    }
}
