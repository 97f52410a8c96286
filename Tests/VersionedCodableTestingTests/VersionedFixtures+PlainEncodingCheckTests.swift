import Foundation
import Testing
import VersionedCodable
import VersionedCodableTesting

/// A note as saved before versioning: only its text.
struct PlainNoteV0: VersionedCodable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    var text: String
}

/// Version 1 added an optional title. Its plain encoding also decodes as `PlainNoteV0`, which
/// ignores the title, so a note written without its version loses the title silently.
struct PlainNote: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = PlainNoteV0
    var text: String
    var title: String?

    init(text: String, title: String?) {
        self.text = text
        self.title = title
    }

    init(from old: PlainNoteV0) throws {
        text = old.text
        title = nil
    }
}

/// The same history, but the current type keeps the version in a property of its own, so a
/// plain encode writes it too.
struct MirroredNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = PlainNoteV0
    var version: Int? = Self.version
    var text: String
    var title: String?

    init(text: String, title: String?) {
        self.text = text
        self.title = title
    }

    init(from old: PlainNoteV0) throws {
        text = old.text
        title = nil
    }
}

/// Keeps its version in a property, but leaves its draft out when it encodes: its plain
/// encoding reads back as the current version with another value.
struct DraftDroppingNote: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var version: Int? = Self.version
    var text: String
    var draft: String?

    init(text: String, draft: String?) {
        self.text = text
        self.draft = draft
    }

    enum CodingKeys: String, CodingKey {
        case version, text, draft
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(text, forKey: .text)
    }
}

/// A label that has been versioned from its first version: a document without a version is
/// not in its chain at all.
struct LabelV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var text: String
}

struct Label: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = LabelV1
    var text: String
    var colour: String?

    init(text: String, colour: String?) {
        self.text = text
        self.colour = colour
    }

    init(from old: LabelV1) throws {
        text = old.text
        colour = nil
    }
}

/// A value that cannot be encoded at all.
struct UnencodableNote: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var text: String

    init(text: String) {
        self.text = text
    }

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(text, .init(codingPath: [], debugDescription: "Never encodes."))
    }
}

@Suite("Checking that a plain encoding is not read as another version")
struct PlainEncodingCheckTests {
    static func fixtures<Value: VersionedCodable>(_ type: Value.Type) -> VersionedFixtures<Value> {
        var fixtures = VersionedFixtures(type, directory: FileManager.default.temporaryDirectory)
        fixtures.isRecording = false
        return fixtures
    }

    @Test("records an issue for each format when a plain encoding is read as the unversioned type")
    func mistakenForTheUnversionedType() throws {
        var passed = true
        var line = 0
        let issues = issuesRecorded {
            line = #line + 1
            passed = Self.fixtures(PlainNote.self).checkPlainEncodingIsNotMistaken(
                PlainNote(text: "Buy milk", title: "Shopping")
            )
        }
        #expect(!passed)
        try #require(issues.count == 2)
        let texts = issues.map(message)
        #expect(texts[0].hasPrefix("PlainNote (version 1) written as JSON with a plain `encode(_:)` has no version"))
        #expect(texts[1].hasPrefix("PlainNote (version 1) written as a property list with a plain `encode(_:)`"))
        #expect(texts.allSatisfy { $0.contains("takes it for version nil (PlainNoteV0)") })
        #expect(texts.allSatisfy { $0.contains("`encode(versioned:)`") })
        #expect(issues.allSatisfy { $0.isFailure && $0.sourceLocation.line == line })
    }

    @Test("passes when the plain encoding fails to decode as an old version")
    func refusedLoudly() {
        var passed = false
        let issues = issuesRecorded {
            passed = Self.fixtures(Recipe.self).checkPlainEncodingIsNotMistaken(.sample)
        }
        #expect(passed)
        #expect(issues.isEmpty)
    }

    @Test("passes when the chain has no version for documents without one")
    func notInTheChain() {
        var passed = false
        let issues = issuesRecorded {
            passed = Self.fixtures(Label.self).checkPlainEncodingIsNotMistaken(Label(text: "Fragile", colour: "red"))
        }
        #expect(passed)
        #expect(issues.isEmpty)
    }

    @Test("passes when the type writes its version itself, and the versioned encoding still works")
    func versionKeptInAProperty() throws {
        let note = MirroredNote(text: "Buy milk", title: "Shopping")
        var passed = false
        let issues = issuesRecorded {
            passed = Self.fixtures(MirroredNote.self).checkPlainEncodingIsNotMistaken(note)
        }
        #expect(passed)
        #expect(issues.isEmpty)
        let read = try JSONDecoder().decodeWithStoredVersion(
            MirroredNote.self,
            from: JSONEncoder().encode(versioned: note)
        )
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == note)
    }

    @Test("records an issue when the plain encoding reads back as another value of the current version")
    func readsBackDifferently() throws {
        var passed = true
        let issues = issuesRecorded {
            passed = Self.fixtures(DraftDroppingNote.self).checkPlainEncodingIsNotMistaken(
                DraftDroppingNote(text: "Buy milk", draft: "and bread")
            )
        }
        #expect(!passed)
        try #require(issues.count == 2)
        #expect(issues.map(message).allSatisfy { $0.contains("reads back as") && $0.contains("not as the sample") })
    }

    @Test("records an issue when the sample cannot be encoded, since nothing was checked")
    func sampleDoesNotEncode() throws {
        var passed = true
        let issues = issuesRecorded {
            passed = Self.fixtures(UnencodableNote.self).checkPlainEncodingIsNotMistaken(
                UnencodableNote(text: "Buy milk")
            )
        }
        #expect(!passed)
        try #require(issues.count == 2)
        #expect(issues.map(message).allSatisfy { $0.contains("could not be checked") && $0.contains("Never encodes.") })
    }
}
