import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

/// A shelf as version 1 kept it: a name and its items, each a plain nested struct.
struct ShelfV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    struct Item: Codable, Equatable {
        var name: String
    }

    var name: String
    var items: [Item]
}

/// Version 2 only adds a field at the root, where builds of version 1 keep it without
/// reading it, so it declares that they may read and write its documents.
struct Shelf: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = ShelfV1

    var name: String
    var items: [ShelfV1.Item]
    var room: String?

    static let sample = Shelf(name: "Pantry", items: [.init(name: "rice")], room: "kitchen")
}

extension Shelf {
    init(from old: ShelfV1) {
        self.init(name: old.name, items: old.items, room: nil)
    }

    func downgraded() -> ShelfV1 {
        ShelfV1(name: name, items: items)
    }
}

// snippet: nested-field-declared-compatible
/// Version 2 adds a count inside each item, a plain nested struct, and declares that builds
/// of version 1 may write its documents back. They keep unknown fields at the root of a
/// document and of each `Versioned` part, and in the objects where the spec keeps the version,
/// but not inside a nested struct, so they drop the count: the declaration is wrong.
struct CountedShelf: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = ShelfV1

    struct Item: Codable, Equatable {
        var name: String
        var count: Int?
    }

    var name: String
    var items: [Item]

    static let sample = CountedShelf(name: "Pantry", items: [.init(name: "rice", count: 2)])
}
// end snippet

extension CountedShelf {
    init(from old: ShelfV1) {
        self.init(name: old.name, items: old.items.map { Item(name: $0.name, count: nil) })
    }

    func downgraded() -> ShelfV1 {
        ShelfV1(name: name, items: items.map { ShelfV1.Item(name: $0.name) })
    }
}

/// As ``CountedShelf``, with a count every item must have: what builds of version 1 write
/// back no longer decodes.
struct RequiredCountShelf: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = ShelfV1

    struct Item: Codable, Equatable {
        var name: String
        var count: Int
    }

    var name: String
    var items: [Item]

    init(name: String, items: [Item]) {
        self.name = name
        self.items = items
    }

    init(from old: ShelfV1) {
        self.init(name: old.name, items: old.items.map { Item(name: $0.name, count: 1) })
    }
}

/// Version 2 made `name` a display name that builds of version 1 would overwrite with what
/// they think it is: they may read it, not write it.
struct LabelledShelf: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.readOnlyCompatible
    typealias PreviousVersion = ShelfV1

    var name: String
    var items: [ShelfV1.Item]
    var isDisplayName: Bool

    init(name: String, items: [ShelfV1.Item], isDisplayName: Bool) {
        self.name = name
        self.items = items
        self.isDisplayName = isDisplayName
    }

    init(from old: ShelfV1) {
        self.init(name: old.name, items: old.items, isDisplayName: false)
    }

    func downgraded() -> ShelfV1 {
        ShelfV1(name: name, items: items)
    }

    static let sample = LabelledShelf(name: "Pantry", items: [.init(name: "rice")], isDisplayName: true)
}

/// Version 3 adds a colour to the read-only version 2: builds of version 2 may write it, and
/// builds of version 1, which may not write version 2, may only read it.
struct ColouredShelf: VersionedCodable, Equatable {
    static let version: Int? = 3
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = LabelledShelf

    var name: String
    var items: [ShelfV1.Item]
    var isDisplayName: Bool
    var colour: String

    init(name: String, items: [ShelfV1.Item], isDisplayName: Bool, colour: String) {
        self.name = name
        self.items = items
        self.isDisplayName = isDisplayName
        self.colour = colour
    }

    init(from old: LabelledShelf) {
        self.init(name: old.name, items: old.items, isDisplayName: old.isDisplayName, colour: "white")
    }

    func downgraded() -> LabelledShelf {
        LabelledShelf(name: name, items: items, isDisplayName: isDisplayName)
    }

    static let sample = ColouredShelf(name: "Pantry", items: [.init(name: "rice")], isDisplayName: true, colour: "red")
}

/// Version 2 renamed `name`, and still declares that builds of version 1 may read it, which
/// they cannot.
struct RenamedShelf: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.readOnlyCompatible
    typealias PreviousVersion = ShelfV1

    var title: String
    var items: [ShelfV1.Item]

    init(title: String, items: [ShelfV1.Item]) {
        self.title = title
        self.items = items
    }

    init(from old: ShelfV1) {
        self.init(title: old.name, items: old.items)
    }
}

/// Version 3 changes everything and declares nothing, over the wrongly compatible version 2:
/// the check writes the sample as version 2 to check that version's declaration.
struct RebuiltShelf: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = CountedShelf

    var shelfName: String
    var contents: [CountedShelf.Item]

    init(shelfName: String, contents: [CountedShelf.Item]) {
        self.shelfName = shelfName
        self.contents = contents
    }

    init(from old: CountedShelf) {
        self.init(shelfName: old.name, contents: old.items)
    }

    func downgraded() -> CountedShelf {
        CountedShelf(name: shelfName, items: contents)
    }
}

/// A shelf saved before the document had a version.
struct ShelfV0: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    var name: String
}

/// Version 1 over the unversioned shelf declares that its builds may read it, which nothing in
/// a document can tell them.
struct FirstNumberedShelf: VersionedCodable, Equatable {
    static let version: Int? = 1
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = ShelfV0
    var name: String
    var room: String?

    init(name: String, room: String?) {
        self.name = name
        self.room = room
    }

    init(from old: ShelfV0) {
        self.init(name: old.name, room: nil)
    }
}

/// Keeps the version under `shelfVersion`, where the shelf's earlier versions keep it under
/// `version`.
struct RenamedVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self.shelfVersion }
    var shelfVersion: Int?
    init(withVersion version: Int?) { shelfVersion = version }
}

/// Version 2 over the first numbered shelf moves the version, and declares itself compatible.
struct MovedShelf: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = FirstNumberedShelf
    typealias VersionSpec = RenamedVersionSpec
    var name: String
    var room: String?

    init(from old: FirstNumberedShelf) {
        name = old.name
        room = old.room
    }
}

/// Version 1 of a label, whose colour is a plain enum: its builds cannot read a colour they do
/// not know.
struct JarLabelV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    enum Colour: String, Codable { case red, green }
    var text: String
    var colour: Colour
}

/// Version 2 only adds a colour, and declares that builds of version 1 may read and write it,
/// which they cannot: their colour is not open.
struct JarLabel: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = JarLabelV1
    enum Colour: String, Codable { case red, green, blue }
    var text: String
    var colour: Colour
    init(text: String, colour: Colour) {
        self.text = text
        self.colour = colour
    }
    init(from old: JarLabelV1) { self.init(text: old.text, colour: Colour(rawValue: old.colour.rawValue)!) }
}

/// ``JarLabelV1`` with an open colour.
struct OpenJarLabelV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var text: String
    var colour: OpenEnum<JarLabelV1.Colour>
}

/// ``JarLabel`` over ``OpenJarLabelV1``: its new colour is kept by builds of version 1, so the
/// declaration holds.
struct OpenJarLabel: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = OpenJarLabelV1
    var text: String
    var colour: OpenEnum<JarLabel.Colour>
    init(text: String, colour: JarLabel.Colour) {
        self.text = text
        self.colour = .known(colour)
    }
    init(from old: OpenJarLabelV1) {
        text = old.text
        colour = OpenEnum(rawValue: old.colour.rawValue)
    }
    func downgraded() -> OpenJarLabelV1 { OpenJarLabelV1(text: text, colour: OpenEnum(rawValue: colour.rawValue)) }
}

/// Keeps the version in `_metadata.version`.
struct JarMetadataSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }
    struct Metadata: Codable { var version: Int? }
    var _metadata: Metadata
    init(withVersion version: Int?) { _metadata = Metadata(version: version) }
}

/// Version 1 of a jar, with nothing of its own in `_metadata`.
struct FiledJarV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = JarMetadataSpec
    var text: String
}

/// Version 2 adds `_metadata.filedBy`, beside the version, where older builds keep it.
struct FiledJar: VersionedCodable, Equatable {
    static let version: Int? = 2
    static let compatibility = ForwardCompatibility.compatible
    typealias PreviousVersion = FiledJarV1
    typealias VersionSpec = JarMetadataSpec
    struct Metadata: Codable, Equatable { var filedBy: String }
    var text: String
    var _metadata: Metadata
    init(text: String, filedBy: String) {
        self.text = text
        _metadata = Metadata(filedBy: filedBy)
    }
    init(from old: FiledJarV1) { self.init(text: old.text, filedBy: "") }
    func downgraded() -> FiledJarV1 { FiledJarV1(text: text) }
}

@Suite("Checking what each version declares older builds may do with its documents")
struct DeclarationCheckTests {
    static func fixtures<Value: VersionedCodable>(_ type: Value.Type) -> VersionedFixtures<Value> {
        var fixtures = VersionedFixtures(type, directory: FileManager.default.temporaryDirectory)
        fixtures.isRecording = false
        return fixtures
    }

    /// Runs the check and returns its report with the issues it recorded.
    static func check<Value: VersionedCodable>(
        _ type: Value.Type,
        _ mode: VersionCompatibility = .full,
        samples: [Value]
    ) throws -> (report: VersionCompatibilityReport, issues: [CollectedIssue]) {
        var found: VersionCompatibilityReport?
        let issues = issuesRecorded {
            found = fixtures(type).checkCompatibility(mode, samples: samples)
        }
        return (try #require(found), issues)
    }

    // snippet: compatible-declaration-check
    @Test("Builds of version 1 read and write back every shelf, losing nothing")
    func shelvesStayCompatible() {
        VersionedFixtures(Shelf.self, bundle: .module).checkCompatibility(.full, samples: [.sample])
    }
    // end snippet

    @Test("passes for an additive change at the root declared compatible, and says what it promises")
    func compatibleAdditiveChange() throws {
        let (report, issues) = try Self.check(
            Shelf.self,
            samples: [.sample, Shelf(name: "Hall", items: [], room: nil)]
        )
        #expect(issues.isEmpty, "\(issues.map(\.message))")
        #expect(report.passed)
        #expect(report.losses.map(\.differences) == [["room: \"kitchen\" → absent"]])
        #expect(report.declarations.map(\.version) == [2, 1])
        let declaration = try #require(report.declarations.first)
        #expect(declaration.compatibility == .compatible)
        #expect(declaration.writableBy == [1])
        #expect(declaration.readOnlyBy.isEmpty)
        #expect(
            declaration.description == "version 2 (compatible): builds of version 1 may read and write its documents"
        )
        #expect(report.declarations.last?.promisesOlderBuilds == false)
    }

    @Test("passes for a compatible change that adds a field beside the version, in the spec's object")
    func compatibleChangeInSpecObject() throws {
        let (report, issues) = try Self.check(FiledJar.self, samples: [FiledJar(text: "jam", filedBy: "ann")])
        #expect(issues.isEmpty, "\(issues.map(\.message))")
        #expect(report.passed)
    }

    @Test("records an issue naming the field when a compatible change adds it inside a nested struct")
    func nestedFieldDeclaredCompatible() throws {
        var line = 0
        var found: VersionCompatibilityReport?
        let issues = issuesRecorded {
            line = #line + 1
            found = Self.fixtures(CountedShelf.self).checkCompatibility(.full, samples: [.sample])
        }
        let report = try #require(found)
        #expect(!report.passed)
        #expect(report.issueCount == 1)
        let issue = try #require(issues.first)
        #expect(issues.count == 1, "\(issues.map(\.message))")
        #expect(issue.isFailure && issue.sourceLocation.line == line)
        // The message the library's documentation shows, in full.
        #expect(
            issue.message
                == "CountedShelf (version 2) sample 0 is declared readable and writable by builds of version 1 "
                + "(ShelfV1), but what such a build reads through Versioned<ShelfV1> and writes back unedited loses "
                + "or changes items[0].count: 2 → absent. An older build writes back the fields it knows as it read "
                + "them, and keeps the others only at the root of the document and of each Versioned part and in "
                + "the objects where the spec keeps the version, not inside other values: declare "
                + ".readOnlyCompatible, or add new fields where older builds keep them."
        )
    }

    @Test("records an issue naming the field when a compatible version's new enum case meets a field that is not open")
    func newEnumCaseInClosedField() throws {
        let (report, issues) = try Self.check(JarLabel.self, .forward, samples: [JarLabel(text: "Jam", colour: .blue)])
        #expect(!report.passed)
        let messages = issues.map(\.message).filter { $0.contains("declared readable and writable") }
        #expect(messages.count == 1, "\(issues.map(\.message))")
        let message = try #require(messages.first)
        #expect(
            message.hasPrefix(
                "JarLabel (version 2) sample 0 is declared readable and writable by builds of version 1 (JarLabelV1), but "
                    + "such a build cannot read its field colour, which holds \"blue\": a value that the field's type "
                    + "in version 1 (JarLabelV1) does not know, such as an enum case that a newer version added. Declare "
                    + "the field as OpenEnum<…> in version 1"
            ),
            "\(message)"
        )
    }

    @Test("passes when the older build's field is open and keeps the new case")
    func newEnumCaseInOpenField() throws {
        let (report, issues) = try Self.check(OpenJarLabel.self, samples: [OpenJarLabel(text: "Jam", colour: .blue)])
        #expect(issues.isEmpty, "\(issues.map(\.message))")
        #expect(report.passed)
    }

    @Test("records an issue when what the older build writes back no longer decodes")
    func nestedRequiredFieldDeclaredCompatible() throws {
        let sample = RequiredCountShelf(name: "Pantry", items: [.init(name: "rice", count: 2)])
        let (report, issues) = try Self.check(RequiredCountShelf.self, .backward, samples: [sample])
        // The backward check cannot write the sample as version 1 either: no downgrade.
        #expect(report.issueCount == 2)
        #expect(issues.count == 2)
        let issue = try #require(issues.last)
        #expect(
            issue.message.hasPrefix(
                "RequiredCountShelf (version 2) sample 0 is declared readable and writable by builds of version 1 "
                    + "(ShelfV1), but what such a build reads through Versioned<ShelfV1> and writes back unedited "
                    + "no longer decodes as RequiredCountShelf."
            )
        )
        // The error's text is the platform's; it names the missing key.
        let error = try #require(issue.message.components(separatedBy: "Decoding it throws: ").last)
        #expect(error.contains("count"))
    }

    @Test("checks an older version's declaration with the sample written as that version")
    func olderVersionDeclaration() throws {
        let sample = RebuiltShelf(shelfName: "Pantry", contents: [.init(name: "rice", count: 2)])
        let (report, issues) = try Self.check(RebuiltShelf.self, samples: [sample])
        #expect(report.checkedVersions == [2])
        let issue = try #require(issues.first)
        #expect(issues.count == 1, "\(issues.map(\.message))")
        #expect(
            issue.message.hasPrefix(
                "RebuiltShelf (version 3) sample 0 written as version 2 (CountedShelf) is declared readable and "
                    + "writable by builds of version 1 (ShelfV1)"
            )
        )
        #expect(issue.message.contains("items[0].count: 2 → absent"))
        #expect(
            report.declarations.map(\.description).first
                == "version 3 (incompatible): no older build may read its documents"
        )
    }

    @Test("passes for a read-only declaration that older builds read and cannot write, and reports it")
    func readOnlyDeclaration() throws {
        let (report, issues) = try Self.check(LabelledShelf.self, samples: [.sample])
        #expect(issues.isEmpty, "\(issues.map(\.message))")
        let declaration = try #require(report.declarations.first)
        #expect(declaration.compatibility == .readOnlyCompatible)
        #expect(declaration.writableBy.isEmpty)
        #expect(declaration.readOnlyBy == [1])
        #expect(
            declaration.description
                == "version 2 (readOnlyCompatible): builds of version 1 may read its documents but not write them back"
        )
    }

    @Test("records an issue when builds a read-only declaration names cannot read the document")
    func readOnlyButUnreadable() throws {
        let (_, issues) = try Self.check(
            RenamedShelf.self,
            .backward,
            samples: [RenamedShelf(title: "Pantry", items: [])]
        )
        let issue = try #require(issues.last)
        #expect(
            issue.message.hasPrefix(
                "RenamedShelf (version 2) sample 0 is declared readable, but not writable, by builds of version 1 "
                    + "(ShelfV1), but such a build cannot read it through Versioned<ShelfV1>:"
            )
        )
        let error = try #require(issue.message.components(separatedBy: "Versioned<ShelfV1>: ").last)
        #expect(error.contains("name"))
    }

    @Test("follows the declarations down the chain, as the writer records them, and checks every build they name")
    func declarationsDownTheChain() throws {
        let (report, issues) = try Self.check(ColouredShelf.self, .fullTransitive, samples: [.sample])
        #expect(issues.isEmpty, "\(issues.map(\.message))")
        #expect(report.declarations.map(\.writableBy) == [[2], [], []])
        #expect(report.declarations.map(\.readOnlyBy) == [[1], [1], []])
        let declared = """
            Declared:
            version 3 (compatible): builds of version 2 may read and write its documents; builds of \
            version 1 may read them but not write them back
            version 2 (readOnlyCompatible): builds of version 1 may read its documents but not write \
            them back
            """
        #expect(report.description.hasSuffix(declared))
    }

    @Test("The report says what each version promises older builds")
    func declarationReport() {
        // snippet: declaration-report
        let report = VersionedFixtures(ColouredShelf.self, bundle: .module)
            .checkCompatibility(.full, samples: [.sample])
        #expect(report.declarations.map(\.version) == [3, 2, 1])
        #expect(report.declarations.map(\.writableBy) == [[2], [], []])
        #expect(report.declarations.map(\.readOnlyBy) == [[1], [1], []])
        // end snippet
    }

    @Test("records an issue when the version before a declaration keeps no version number")
    func declarationOverUnversionedDocuments() throws {
        let (report, issues) = try Self.check(
            FirstNumberedShelf.self,
            .backward,
            samples: [FirstNumberedShelf(name: "Pantry", room: nil)]
        )
        #expect(report.declarations.first?.promisesOlderBuilds == false)
        let issue = try #require(issues.last)
        #expect(
            issue.message.hasPrefix(
                "FirstNumberedShelf: version 1 (FirstNumberedShelf) declares .compatible, but the version before "
                    + "it, ShelfV0, has no version number"
            )
        )
    }

    @Test("a version that moves the version to another spec cannot declare anything for older builds")
    func declarationOverAnotherSpec() throws {
        let (_, issues) = try Self.check(MovedShelf.self, .backward, samples: [])
        #expect(
            issues.contains {
                $0.message.hasPrefix(
                    "MovedShelf: version 2 (MovedShelf) declares .compatible, but keeps the version with "
                        + "another VersionPathSpec than the version before it, FirstNumberedShelf"
                )
            }
        )
    }

    @Test("a chain that declares nothing is reported as before")
    func nothingDeclared() throws {
        let (report, issues) = try Self.check(Ticket.self, .fullTransitive, samples: [.sample])
        #expect(issues.isEmpty)
        #expect(report.declarations.map(\.compatibility) == [.incompatible, .incompatible, .incompatible])
        #expect(report.description == "Checked versions 2, 1: nothing lost.")
    }
}
