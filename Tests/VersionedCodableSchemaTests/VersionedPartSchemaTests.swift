import Foundation
import Testing
import VersionedCodable
import VersionedCodableSchema

@Suite("A versioned part's schema accepts what its reader reads: any version of its chain")
struct VersionedPartSchemaTests {
    static let letter = VersionSchemas(for: Letter.self)[1]!

    @Test("A part refers to one definition, anyOf the schemas of every version with its own version constant")
    func partDefinition() throws {
        #expect(Self.letter.properties?["stamp"]?.ref == "#/$defs/Versioned.Stamp")
        #expect(Self.letter.properties?["extras"]?.items?.ref == "#/$defs/Versioned.Stamp")
        let part = try #require(Self.letter.definitions?["Versioned.Stamp"])
        let options = try #require(part.anyOf)
        #expect(options.prefix(2).map(\.ref) == ["#/$defs/Stamp", "#/$defs/StampV1"])
        #expect(Self.letter.definitions?["Stamp"]?.properties?["version"]?.constValue == .number(2))
        #expect(Self.letter.definitions?["StampV1"]?.properties?["version"]?.constValue == .number(1))
        #expect(Self.letter.definitions?["StampV1"]?.required == ["label", "version"])
    }

    @Test(
        "A document validates exactly where the decoder reads it: older and newer parts, malformed ones",
        arguments: [
            // Every version of the chain, as a stored letter may hold it.
            (#"{"version": 1, "stamp": {"version": 1, "label": "old"}, "extras": []}"#, true),
            (
                #"{"version": 1, "stamp": {"version": 2, "text": "new", "inked": true}, "#
                    + #""extras": [{"version": 1, "label": "a"}, {"version": 2, "text": "b", "inked": false}]}"#,
                true
            ),
            // A newer version that declares that version 2 may read it, with a key version 2 keeps.
            (
                #"{"version": 1, "stamp": {"version": 3, "versionReadableFrom": 2, "text": "t", "inked": true, "#
                    + #""colour": "red"}, "extras": []}"#,
                true
            ),
            (
                #"{"version": 1, "stamp": {"version": 3, "versionReadableFrom": 1, "versionWritableFrom": 3, "#
                    + #""text": "t", "inked": true}, "extras": []}"#,
                true
            ),
            // Malformed parts: fields of another version, a missing field, no version.
            (#"{"version": 1, "stamp": {"version": 1, "text": "t", "inked": true}, "extras": []}"#, false),
            (#"{"version": 1, "stamp": {"version": 2, "label": "old"}, "extras": []}"#, false),
            (#"{"version": 1, "stamp": {"version": 2, "text": "t"}, "extras": []}"#, false),
            (#"{"version": 1, "stamp": {"label": "old"}, "extras": []}"#, false),
            (#"{"version": 1, "stamp": {"version": 1, "label": 7}, "extras": []}"#, false),
            (#"{"version": 1, "stamp": {"version": 1, "label": "a"}, "extras": [{"version": 2, "text": "b"}]}"#, false),
            // Newer versions that do not let version 2 read them.
            (#"{"version": 1, "stamp": {"version": 3, "text": "t", "inked": true}, "extras": []}"#, false),
            (
                #"{"version": 1, "stamp": {"version": 3, "versionReadableFrom": 3, "text": "t", "inked": true}, "#
                    + #""extras": []}"#,
                false
            ),
            (
                #"{"version": 1, "stamp": {"version": 3, "versionReadableFrom": 2, "versionWritableFrom": "2", "#
                    + #""text": "t", "inked": true}, "extras": []}"#,
                false
            ),
            (
                #"{"version": 1, "stamp": {"version": 3, "versionReadableFrom": 2, "text": "t"}, "extras": []}"#,
                false
            ),
        ]
    )
    func validatesWhereTheReaderReads(document: String, isRead: Bool) throws {
        let data = Data(document.utf8)
        let problems = try Self.letter.violations(in: data)
        let read = Result { try JSONDecoder().decode(versioned: Letter.self, from: data) }
        #expect(problems.isEmpty == isRead, "\(document): \(problems)")
        if isRead {
            #expect(throws: Never.self) { try read.get() }
        } else {
            #expect(throws: (any Error).self) { try read.get() }
        }
    }

    @Test("A newer part's version and declaration sit at the place its spec writes the version")
    func newerPartAtCustomPlace() throws {
        let schema = try #require(VersionSchemas(for: Catalogue.self)[1])
        let newer = try #require(schema.definitions?["Versioned.Note"]?.anyOf?.last)
        let metadata = try #require(newer.properties?["_metadata"])
        #expect(metadata.properties?["version"]?.minimum == 3)
        #expect(metadata.properties?["versionReadableFrom"]?.maximum == 2)
        #expect(metadata.required == ["version", "versionReadableFrom"])
        #expect(newer.additionalProperties == nil)
        let note = Data(#"{"_metadata": {"version": 3, "versionReadableFrom": 2}, "text": "t", "pinned": true}"#.utf8)
        #expect(try newer.violations(in: note).isEmpty)
        #expect(try JSONDecoder().decode(Versioned<Note>.self, from: note).isFromNewerVersion)
        // Keys the newer version adds beside its version are kept there, as at the root.
        let added = Data(
            #"{"_metadata": {"version": 3, "versionReadableFrom": 2, "createdBy": "ann"}, "text": "t"}"#.utf8
        )
        #expect(try newer.violations(in: added).isEmpty)
        #expect(try JSONDecoder().decode(Versioned<Note>.self, from: added).isFromNewerVersion)
        let undeclared = Data(#"{"_metadata": {"version": 3}, "text": "t"}"#.utf8)
        #expect(try !newer.violations(in: undeclared).isEmpty)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Versioned<Note>.self, from: undeclared) }
    }

    @Test(
        "Where the type has an object of its own at the spec's object, the schema holds both, as the reader reads it",
        arguments: [
            // The current version, at the root of a document and as a part.
            (#"{"_metadata": {"version": 2, "createdBy": "ann"}, "text": "t"}"#, true),
            (#"{"_metadata": {"version": 2, "createdBy": 7}, "text": "t"}"#, false),
            (#"{"_metadata": {"version": 2}, "text": "t"}"#, false),
            // A newer version that version 2 may read and write: the keys it adds at the root and
            // beside its version are kept, the type's own are still checked.
            (
                #"{"_metadata": {"version": 3, "versionReadableFrom": 2, "versionWritableFrom": 2, "#
                    + #""createdBy": "ann", "filedBy": "bo"}, "text": "t", "colour": "red"}"#,
                true
            ),
            (#"{"_metadata": {"version": 3, "versionReadableFrom": 2, "createdBy": 7}, "text": "t"}"#, false),
        ]
    )
    func typeObjectAtSpecObject(memo: String, isRead: Bool) throws {
        let part = Data(#"{"version": 1, "memo": \#(memo)}"#.utf8)
        let problems = try #require(VersionSchemas(for: Folder.self)[1]).violations(in: part)
        #expect(problems.isEmpty == isRead, "\(memo): \(problems)")
        let read = Result { try JSONDecoder().decode(versioned: Folder.self, from: part) }
        #expect(((try? read.get()) != nil) == isRead, "\(memo)")
        if let folder = try? read.get(), folder.memo.isFromNewerVersion {
            // Written back with the key the newer version added in `_metadata`.
            let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(versioned: folder))
            let metadata = ((written as? [String: Any])?["memo"] as? [String: Any])?["_metadata"] as? [String: Any]
            #expect(metadata?["filedBy"] as? String == "bo")
        }
        // At the root, only the current version's documents are read. A key the current version
        // does not declare is refused there, as at its root, though the decoder passes it over.
        let undeclared = Data(#"{"_metadata": {"version": 2, "createdBy": "ann", "filedBy": "bo"}, "text": "t"}"#.utf8)
        #expect(try !#require(VersionSchemas(for: Memo.self)[2]).violations(in: undeclared).isEmpty)
        if !memo.contains(#""version": 3"#) {
            let root = Data(memo.utf8)
            let problems = try #require(VersionSchemas(for: Memo.self)[2]).violations(in: root)
            #expect(problems.isEmpty == isRead, "\(memo): \(problems)")
            #expect(((try? JSONDecoder().decode(versioned: Memo.self, from: root)) != nil) == isRead, "\(memo)")
        }
    }

    @Test(
        "An optional object of the type's at the spec's object: nil is the spec's object alone",
        arguments: [
            (#"{"_metadata": {"version": 2}, "text": "t"}"#, true),
            (#"{"_metadata": {"version": 2, "createdBy": "ann"}, "text": "t"}"#, true),
            (#"{"_metadata": {"version": 2, "filedBy": "bo"}, "text": "t"}"#, false),
            (#"{"_metadata": {"version": 2, "createdBy": null}, "text": "t"}"#, false),
            (#"{"_metadata": null, "text": "t"}"#, false),
        ]
    )
    func optionalTypeObjectAtSpecObject(memo: String, isRead: Bool) throws {
        let data = Data(memo.utf8)
        let problems = try #require(VersionSchemas(for: OptionalMemo.self)[2]).violations(in: data)
        #expect(problems.isEmpty == isRead, "\(memo): \(problems)")
        #expect(((try? JSONDecoder().decode(versioned: OptionalMemo.self, from: data)) != nil) == isRead, "\(memo)")
    }

    @Test(
        "The type's objects on the spec's deeper path, and a dictionary of its own there, hold the version too",
        arguments: [
            (#"{"header": {"author": "a", "format": {"name": "n", "version": 1}}}"#, true),
            (#"{"header": {"author": "a", "format": {"name": "n"}}}"#, false),
            (#"{"header": {"author": "a", "format": {"name": 1, "version": 1}}}"#, false),
            (#"{"header": {"format": {"name": "n", "version": 1}}}"#, false),
        ]
    )
    func deeperTypeObjects(record: String, isRead: Bool) throws {
        let data = Data(record.utf8)
        let problems = try #require(VersionSchemas(for: Record.self)[1]).violations(in: data)
        #expect(problems.isEmpty == isRead, "\(record): \(problems)")
        #expect(((try? JSONDecoder().decode(versioned: Record.self, from: data)) != nil) == isRead, "\(record)")
        let tagged = try #require(VersionSchemas(for: TaggedNote.self)[1])
        #expect(try tagged.violations(in: Data(#"{"_metadata": {"version": 1, "colour": "red"}}"#.utf8)).isEmpty)
        #expect(try !tagged.violations(in: Data(#"{"_metadata": {"version": 2, "colour": "red"}}"#.utf8)).isEmpty)
        #expect(try !tagged.violations(in: Data(#"{"_metadata": {"version": 1, "colour": 7}}"#.utf8)).isEmpty)
    }

    @Test(
        "An optional dictionary of the type's at the spec's object is never null: nil is the spec's object alone",
        arguments: [
            (#"{"_metadata": {"version": 1}}"#, true),
            (#"{"_metadata": {"version": 1, "colour": "red"}}"#, true),
            (#"{"_metadata": null}"#, false),
            (#"{}"#, false),
        ]
    )
    func optionalDictionaryAtSpecObject(note: String, isRead: Bool) throws {
        let data = Data(note.utf8)
        let problems = try #require(VersionSchemas(for: OptionalTaggedNote.self)[1]).violations(in: data)
        #expect(problems.isEmpty == isRead, "\(note): \(problems)")
        let read = Result { try JSONDecoder().decode(versioned: OptionalTaggedNote.self, from: data) }
        #expect(((try? read.get()) != nil) == isRead, "\(note): \(read)")
    }

    @Test("A part whose version names the older builds that may read it validates as the library writes it")
    func compatiblePartDeclaration() throws {
        let tray = Tray(
            chore: Versioned(CompatibleChore(text: "t", pinned: true)),
            memo: Versioned(OptionalMemo(_metadata: nil, text: "m"))
        )
        let written = try JSONEncoder().encode(versioned: tray)
        #expect(String(decoding: written, as: UTF8.self).contains(#""versionReadableFrom":1"#))
        let schema = try #require(VersionSchemas(for: Tray.self)[1])
        let problems = try schema.violations(in: written)
        #expect(problems.isEmpty, "\(problems)")
        let chore = try #require(VersionSchemas(for: CompatibleChore.self)[2])
        #expect(try chore.violations(in: JSONEncoder().encode(versioned: tray.chore.wrappedValue)).isEmpty)
    }

    @Test(
        "A newer part's optional object of the type's is read as the type's where it holds any other key",
        arguments: [
            (
                #"{"_metadata": {"version": 3, "versionReadableFrom": 2, "createdBy": "a", "filedBy": "b"}, "#
                    + #""text": "m"}"#,
                true
            ),
            (#"{"_metadata": {"version": 3, "versionReadableFrom": 2}, "text": "m", "colour": "red"}"#, true),
            (#"{"_metadata": {"version": 3, "versionReadableFrom": 2, "createdBy": 7}, "text": "m"}"#, false),
            (#"{"_metadata": {"version": 3, "versionReadableFrom": 2, "filedBy": "b"}, "text": "m"}"#, false),
            (#"{"_metadata": {"version": 100000000000000000000, "versionReadableFrom": 2}, "text": "m"}"#, false),
            (#"{"_metadata": {"version": 3, "versionReadableFrom": -1e20}, "text": "m"}"#, false),
        ]
    )
    func newerOptionalTypeObject(memo: String, isRead: Bool) throws {
        let data = Data(#"{"version": 1, "chore": {"version": 1, "text": "t"}, "memo": \#(memo)}"#.utf8)
        let problems = try #require(VersionSchemas(for: Tray.self)[1]).violations(in: data)
        #expect(problems.isEmpty == isRead, "\(memo): \(problems)")
        let read = Result { try JSONDecoder().decode(versioned: Tray.self, from: data) }
        #expect(((try? read.get()) != nil) == isRead, "\(memo): \(read)")
    }

    @Test("What the spec reads beside the version is in the schema, as the spec reads it")
    func specKeysBesideVersion() throws {
        func check<T: VersionedCodable>(_ type: T.Type, _ value: T, mutations: [(String, String)]) throws {
            let schema = try #require(VersionSchemas(for: T.self)[1])
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let written = try encoder.encode(versioned: value)
            let text = String(decoding: written, as: UTF8.self)
            #expect(text.contains(#""format":"notes""#))
            let problems = try schema.violations(in: written)
            #expect(problems.isEmpty, "\(T.self): \(problems)")
            for (from, to) in mutations {
                #expect(text.contains(from))
                let changed = Data(text.replacingOccurrences(of: from, with: to).utf8)
                #expect(try !schema.violations(in: changed).isEmpty, "\(T.self): \(to)")
                #expect(throws: (any Error).self) { try JSONDecoder().decode(versioned: T.self, from: changed) }
            }
        }
        let mutations = [(#""format":"notes","#, ""), (#""format":"notes""#, #""format":7"#)]
        try check(FormatNote.self, FormatNote(text: "t"), mutations: mutations)
        try check(FormatMemo.self, FormatMemo(_metadata: .init(createdBy: "ann"), text: "t"), mutations: mutations)
        try check(FormatCounts.self, FormatCounts(_metadata: ["count": 3]), mutations: mutations)
    }

    @Test(
        "The spec's object inside a dictionary of single values holds the spec's keys alone",
        arguments: [
            (#"{"header": {"colour": "red", "format": {"version": 1}}}"#, true),
            (#"{"header": {"colour": "red", "format": {"version": 1, "filedBy": "bo"}}}"#, false),
            (#"{"header": {"colour": 7, "format": {"version": 1}}}"#, false),
            (#"{"header": {"colour": "red"}}"#, false),
        ]
    )
    func specObjectInDictionary(record: String, isRead: Bool) throws {
        let data = Data(record.utf8)
        let problems = try #require(VersionSchemas(for: LabelledRecord.self)[1]).violations(in: data)
        #expect(problems.isEmpty == isRead, "\(record): \(problems)")
        let read = Result { try JSONDecoder().decode(versioned: LabelledRecord.self, from: data) }
        #expect(((try? read.get()) != nil) == isRead, "\(record): \(read)")
    }

    @Test("A malformed older part is reported at its path, with what its own version's schema refuses")
    func malformedPartMessage() throws {
        let data = Data(#"{"version": 1, "stamp": {"version": 1, "label": 7}, "extras": []}"#.utf8)
        #expect(
            try Self.letter.violations(in: data).map(\.description) == [
                "$.stamp: matches none of the allowed schemas; the closest fails at "
                    + "$.stamp.label: expected string, found integer 7"
            ]
        )
    }

    @Test("Versions of two chains with the same type name get a definition each")
    func clashingVersionNames() throws {
        let schema = try #require(VersionSchemas(for: Desk.self)[1])
        let ink = try #require(schema.definitions?["Versioned.V1"]?.anyOf?.first?.ref)
        let pen = try #require(schema.definitions?["Versioned.V2"]?.anyOf?.map(\.ref))
        #expect(ink == "#/$defs/V1")
        #expect(pen.prefix(2) == ["#/$defs/V2", "#/$defs/Pen.V1"])
        #expect(schema.definitions?["V1"]?.required == ["litres", "version"])
        #expect(schema.definitions?["Pen.V1"]?.required == ["colour", "version"])
        let desk = Data(
            #"{"version": 1, "ink": {"version": 1, "litres": 0.5}, "pen": {"version": 1, "colour": "red"}}"#.utf8
        )
        #expect(try schema.violations(in: desk).isEmpty)
        #expect(throws: Never.self) { try JSONDecoder().decode(versioned: Desk.self, from: desk) }
    }
}
