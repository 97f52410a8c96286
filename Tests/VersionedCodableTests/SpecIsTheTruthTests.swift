import Foundation
import Testing
import VersionedCodable

/// A document's version is what its spec, decoded from that document, says; what the spec
/// encodes for the version being written, with the encoder's `userInfo`, is what goes into the
/// document, merged into what the type writes.
@Suite("The spec is the truth: reading and writing what the spec says")
struct SpecIsTheTruthTests {
    typealias Format = SpecTruth.Format

    @Test(
        "A constant beside the version does not make a newer document read as an older version",
        arguments: Format.allCases
    )
    func constantBesideTheVersion(format: Format) throws {
        let newer = try format.document(["header": ["format": 1, "version": 2], "title": "t"])
        #expect {
            try format.readValue(SpecTruth.Report.self, newer)
        } throws: { error in
            guard case VersionedDecodingError.documentVersionTooNew(found: 2, let newest) = error else { return false }
            return newest == SpecTruth.Report.self
        }
        let written = try format.write(SpecTruth.Report(title: "t"))
        let header = try SpecTruth.nested(try format.object(written), "header")
        #expect(SpecTruth.int(header, "format") == 1)
        #expect(SpecTruth.int(header, "version") == 1)
        let read = try format.read(SpecTruth.Report.self, written)
        #expect(read.storedVersion == 1)
        #expect(read.wrappedValue == SpecTruth.Report(title: "t"))
        let unversioned = try format.read(SpecTruth.Report.self, try format.write(SpecTruth.ReportV0(title: "old")))
        #expect(unversioned.storedVersion == nil)
        #expect(unversioned.wrappedValue == SpecTruth.Report(title: "old+1"))
    }

    @Test(
        "All that the spec writes for no version is in the document: 1.2's nested spec's empty object",
        arguments: Format.allCases
    )
    func specOutputForNoVersion(format: Format) throws {
        let written = try format.write(SpecTruth.LetterV0(body: "old"))
        let object = try format.object(written)
        #expect(Set(object.keys) == ["metadata", "body"])
        #expect(try SpecTruth.nested(object, "metadata").isEmpty)
        #expect(try format.readValue(SpecTruth.LetterV0.self, written) == SpecTruth.LetterV0(body: "old"))
    }

    @Test("A spec field that equals the version when written is not the version", arguments: Format.allCases)
    func minimumReaderIsNotTheVersion(format: Format) throws {
        let v3 = try format.document(["version": 3, "minimumReader": 2, "text": "x"])
        let read = try format.read(SpecTruth.Manual.self, v3)
        #expect(read.storedVersion == 3)
        #expect(read.wrappedValue == SpecTruth.Manual(text: "x"))
        let v2 = try format.document(["version": 2, "minimumReader": 1, "text": "y"])
        let readV2 = try format.read(SpecTruth.Manual.self, v2)
        #expect(readV2.storedVersion == 2)
        #expect(readV2.wrappedValue == SpecTruth.Manual(text: "y+3"))
        let written = try format.write(SpecTruth.Manual(text: "z"))
        let object = try format.object(written)
        #expect(SpecTruth.int(object, "version") == 3)
        #expect(SpecTruth.int(object, "minimumReader") == 3)
        #expect(try format.read(SpecTruth.Manual.self, written).storedVersion == 3)
    }

    @Test(
        "A spec that writes the version under another key from version 5 on reads its own documents without migrating",
        arguments: Format.allCases
    )
    func movingVersionKey(format: Format) throws {
        let written = try format.write(SpecTruth.Journal(text: "today"))
        let object = try format.object(written)
        #expect(SpecTruth.int(object, "version") == 6)
        #expect(object["v"] == nil)
        let read = try format.read(SpecTruth.Journal.self, written)
        #expect(read.storedVersion == 6)
        #expect(read.wrappedValue == SpecTruth.Journal(text: "today"))

        let v4 = try format.write(SpecTruth.JournalV4(text: "then"))
        #expect(SpecTruth.int(try format.object(v4), "v") == 4)
        let readV4 = try format.read(SpecTruth.Journal.self, v4)
        #expect(readV4.storedVersion == 4)
        #expect(readV4.wrappedValue == SpecTruth.Journal(text: "then+5+6"))

        let v5 = try format.write(SpecTruth.JournalV5(text: "later"))
        #expect(try format.read(SpecTruth.Journal.self, v5).wrappedValue == SpecTruth.Journal(text: "later+6"))

        let unversioned = try format.read(SpecTruth.Journal.self, try format.document(["text": "before"]))
        #expect(unversioned.storedVersion == nil)
        #expect(unversioned.wrappedValue == SpecTruth.Journal(text: "before+1+2+3+4+5+6"))
    }

    /// In a fresh process, so that this test is the first to ask the spec for anything.
    @Test("A spec that counts its writes reads its own documents back as their versions, every time")
    func countingSpec() async {
        await #expect(processExitsWith: .success) {
            SpecTruth.endChildProcess {
                for round in 0..<4 {
                    for format in Format.allCases {
                        let values: [(any VersionedCodable, Int)] = [
                            (SpecTruth.Gauge(reading: "c\(round)"), 3),
                            (SpecTruth.GaugeV2(reading: "b\(round)"), 2),
                            (SpecTruth.GaugeV1(reading: "a\(round)"), 1),
                        ]
                        for (value, version) in values {
                            let written = try format.write(value)
                            let object = try format.object(written)
                            try SpecTruth.check(SpecTruth.int(object, "version"), version, "\(format) written version")
                            try SpecTruth.check(SpecTruth.int(object, "count") != nil, true, "\(format) count")
                            let read = try format.read(SpecTruth.Gauge.self, written)
                            try SpecTruth.check(read.storedVersion, version, "\(format) round \(round) stored version")
                        }
                    }
                }
                let v1 = try JSONDecoder().decode(
                    versioned: SpecTruth.Gauge.self,
                    from: Data(#"{"version":1,"count":1000,"reading":"r"}"#.utf8)
                )
                try SpecTruth.check(v1, SpecTruth.Gauge(reading: "r+2+3"), "version 1 gauge")
            }
        }
    }

    @Test(
        "A key the spec writes only for a program named in userInfo is a clash with the type's own field, never overwritten"
    )
    func userInfoKeyClashes() throws {
        let value = SpecTruth.Export(generator: "hand", payload: "p")
        let named = JSONEncoder()
        named.userInfo[.specTruthGenerator] = "exporter 2.0"
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try named.encode(versioned: value)
        }
        let xml = PropertyListEncoder()
        xml.outputFormat = .xml
        xml.userInfo[.specTruthGenerator] = "exporter 2.0"
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try xml.encode(versioned: value)
        }

        for format in Format.allCases {
            let written = try format.write(value)
            let object = try format.object(written)
            #expect(object["generator"] as? String == "hand")
            #expect(SpecTruth.int(object, "version") == 1)
            #expect(try format.readValue(SpecTruth.Export.self, written) == value)
        }

        // A type without the field gets what the spec writes, userInfo and all.
        let written = try named.encode(versioned: SpecTruth.Snapshot(payload: "s"))
        let object = try Format.json.object(written)
        #expect(object["generator"] as? String == "exporter 2.0")
        #expect(SpecTruth.int(object, "version") == 4)
        #expect(try JSONDecoder().decode(versioned: SpecTruth.Snapshot.self, from: written).payload == "s")
    }

    @Test(
        "An old build's edit of a header it reads through a super decoder is written back, not the original",
        arguments: Format.allCases
    )
    func superDecoderHeaderEdit(format: Format) throws {
        let newer = SpecTruth.Diary(
            header: .init(title: "Monday", pinned: false, color: "blue"),
            body: "rain",
            mood: "calm"
        )
        let written = try format.write(newer)
        var old = try format.readPlain(Versioned<SpecTruth.DiaryV1>.self, written)
        #expect(old.isFromNewerVersion)
        #expect(old.storedVersion == 2)
        #expect(old.wrappedValue == SpecTruth.DiaryV1(header: .init(title: "Monday", pinned: false), body: "rain"))
        old.wrappedValue.header = SpecTruth.DiaryHeader(title: "Tuesday", pinned: true)
        let back = try format.writePlain(old)
        let object = try format.object(back)
        let header = try SpecTruth.nested(object, "header")
        #expect(header["title"] as? String == "Tuesday")
        #expect((header["pinned"] as? NSNumber)?.boolValue == true)
        #expect(object["mood"] as? String == "calm")
        #expect(SpecTruth.int(object, "version") == 2)
        // The header was read whole, through the super decoder, so the header written is the
        // old build's, with nothing of the newer one's over it.
        #expect(header["color"] == nil)
    }

    @Test(
        "An old build's edit of a header it reads through a super decoder and writes as a field is written back",
        arguments: Format.allCases
    )
    func superDecoderHeaderWrittenAsField(format: Format) throws {
        let newer = SpecTruth.JournalEntry(header: .init(title: "Monday", pinned: false), body: "rain", mood: "calm")
        var old = try format.readPlain(Versioned<SpecTruth.JournalEntryV1>.self, try format.write(newer))
        #expect(old.isFromNewerVersion)
        old.wrappedValue.header.title = "Tuesday"
        let back = try format.writePlain(old)
        let header = try SpecTruth.nested(try format.object(back), "header")
        #expect(header["title"] as? String == "Tuesday")
        let reread = try format.readValue(SpecTruth.JournalEntry.self, back)
        #expect(
            reread == SpecTruth.JournalEntry(header: .init(title: "Tuesday", pinned: false), body: "rain", mood: "calm")
        )
    }

    @Test(
        "An old build's edit of header fields it reads through a super decoder and writes in a nested container is written back",
        arguments: Format.allCases
    )
    func superDecoderHeaderWrittenNested(format: Format) throws {
        let newer = SpecTruth.Logbook(header: .init(title: "Monday"), body: "calm sea", weather: "fair")
        var old = try format.readPlain(Versioned<SpecTruth.LogbookV1>.self, try format.write(newer))
        #expect(old.isFromNewerVersion)
        #expect(old.wrappedValue == SpecTruth.LogbookV1(title: "Monday", body: "calm sea"))
        old.wrappedValue.title = "Tuesday"
        let back = try format.writePlain(old)
        let object = try format.object(back)
        #expect(try SpecTruth.nested(object, "header")["title"] as? String == "Tuesday")
        #expect(object["weather"] as? String == "fair")
        let reread = try format.read(SpecTruth.Logbook.self, back)
        #expect(reread.storedVersion == 2)
        #expect(
            reread.wrappedValue == SpecTruth.Logbook(header: .init(title: "Tuesday"), body: "calm sea", weather: "fair")
        )
    }

    @Test(
        "A field an old build writes but does not read is written fresh, not replaced by the newer document's",
        arguments: Format.allCases
    )
    func writtenButNotReadField(format: Format) throws {
        let written = try format.write(SpecTruth.Essay(text: "two words", tags: ["draft"]))
        #expect(SpecTruth.int(try format.object(written), "wordCount") == 2)
        var old = try format.readPlain(Versioned<SpecTruth.EssayV1>.self, written)
        #expect(old.isFromNewerVersion)
        old.wrappedValue.text = "now there are five words"
        let object = try format.object(try format.writePlain(old))
        #expect(SpecTruth.int(object, "wordCount") == 5)
        #expect(object["text"] as? String == "now there are five words")
        #expect(object["tags"] as? [String] == ["draft"])
        #expect(SpecTruth.int(object, "version") == 2)
    }

    @Test(
        "A kept number beyond what Decimal holds reads back as plain Double and Decimal fields read it",
        arguments: [
            "123456789012345678901234567890123456789012345", "0.12345678901234567890123456789012345678901234",
            "1e-400", "-98765432109876543210987654321098765432109876543210",
            // Beyond Decimal's exponents but within a Double's range, which rounds them.
            "1.23456789012345678e200", "1.0000000000000000001e200", "123456789012345678901234567890e150",
            "9.99999999999999999999e-200", "1.2345678901234567890123e-140", "4.9e-324",
        ]
    )
    func keptNumbersBeyondDecimal(number: String) throws {
        let document = Data(
            (#"{"version":2,"versionReadableFrom":1,"versionWritableFrom":1,"text":"a b","tags":[],"big":"#
                + number + "}").utf8
        )
        guard let plain = try plainDoubleField(number) else {
            // What a Double field refuses, a kept field may refuse too, naming itself.
            #expect { try JSONDecoder().decode(Versioned<SpecTruth.EssayV1>.self, from: document) } throws: { error in
                "\(error)".contains("big")
            }
            return
        }
        let read = try JSONDecoder().decode(Versioned<SpecTruth.EssayV1>.self, from: document)
        #expect(read.isFromNewerVersion)
        let back = try JSONEncoder().encode(read)
        let fields = plainNumberFields(at: "big", of: back)
        let original = plainNumberFields(at: "big", of: document)
        #expect(fields == original, "\(number) read back as \(fields), where plain fields read \(original)")
        // Written as a number: a `Double` field reads it, as it reads the original.
        #expect(fields.double != nil, "\(plain)")
    }

    @Test("A dictionary entry that a key strategy would put on the version's key is refused or kept, never replaced")
    func dictionaryEntryOnTheVersionKey() throws {
        let census = SpecTruth.Census(counts: ["Version": 7, "apples": 3])
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let plain = try Format.json.object(try encoder.encode(census.counts))
        do {
            let written = try encoder.encode(versioned: census)
            // Written only where the entry keeps a key of its own, as in a plain encode.
            let object = try Format.json.object(written)
            #expect(plain["version"] == nil, "the entry is on the version's key in a plain encode: \(plain)")
            #expect(SpecTruth.int(object, "version") == 1)
            #expect(SpecTruth.int(object, "Version") == 7)
            #expect(try JSONDecoder().decode(versioned: SpecTruth.Census.self, from: written) == census)
        } catch VersionedEncodingError.typeHasClashingVersionField {
            #expect(plain["version"] != nil, "refused, though a plain encode keeps the entry's key: \(plain)")
        }
        // The same entry in a dictionary at the spec's object.
        let tally = SpecTruth.Tally(_metadata: ["Version": 7, "apples": 3])
        let plainMetadata = try Format.json.object(try encoder.encode(tally._metadata))
        do {
            let written = try encoder.encode(versioned: tally)
            let metadata = try SpecTruth.nested(try Format.json.object(written), "_metadata")
            #expect(plainMetadata["version"] == nil, "the entry is on the version's key in a plain encode")
            #expect(SpecTruth.int(metadata, "version") == 2)
            #expect(SpecTruth.int(metadata, "Version") == 7)
            #expect(try JSONDecoder().decode(versioned: SpecTruth.Tally.self, from: written) == tally)
        } catch VersionedEncodingError.typeHasClashingVersionField {
            #expect(plainMetadata["version"] != nil, "refused, though a plain encode keeps the entry's key")
        }
        // Without a strategy, the entry has a key of its own and round-trips.
        let written = try JSONEncoder().encode(versioned: census)
        #expect(SpecTruth.int(try Format.json.object(written), "Version") == 7)
        #expect(try JSONDecoder().decode(versioned: SpecTruth.Census.self, from: written) == census)
    }

    @Test(
        "A spec's null beside the version gives way to a container the type opens there",
        arguments: Format.allCases,
        SpecTruth.Annotated.Opening.allCases
    )
    func nullGivesWayToOpenedContainer(format: Format, opening: SpecTruth.Annotated.Opening) throws {
        let value = SpecTruth.Annotated(by: "Ada", opening: opening)
        let written = try format.write(value)
        let object = try format.object(written)
        #expect(SpecTruth.int(object, "version") == 2)
        #expect(object["note"] != nil && !(object["note"] is NSNull))
        #expect(try format.readValue(SpecTruth.Annotated.self, written).by == "Ada")
    }

    @Test(
        "A spec that writes null for the unversioned object keeps the type's own fields there",
        arguments: Format.allCases
    )
    func nullObjectKeepsTheTypesFields(format: Format) throws {
        let old = SpecTruth.ArchiveV0(_metadata: .init(editor: "Ada"), title: "t")
        let written = try format.write(old)
        let metadata = try SpecTruth.nested(try format.object(written), "_metadata")
        #expect(metadata["editor"] as? String == "Ada")
        #expect(metadata["version"] == nil)
        let read = try format.read(SpecTruth.Archive.self, written)
        #expect(read.storedVersion == nil)
        #expect(read.wrappedValue == SpecTruth.Archive(_metadata: .init(editor: "Ada"), title: "t+1"))
        #expect(try format.readValue(SpecTruth.ArchiveV0.self, written) == old)

        // The same object opened by hand, where nothing tells the writer what the type holds.
        for bySuperEncoder in [false, true] {
            let handWritten = SpecTruth.HandWrittenArchiveV0(editor: "Ada", title: "t", bySuperEncoder: bySuperEncoder)
            let handWrittenObject = try format.object(try format.write(handWritten))
            #expect(try SpecTruth.nested(handWrittenObject, "_metadata") as NSDictionary == metadata as NSDictionary)
            let read = try format.read(SpecTruth.Archive.self, try format.write(handWritten))
            #expect(read.storedVersion == nil)
            #expect(read.wrappedValue == SpecTruth.Archive(_metadata: .init(editor: "Ada"), title: "t+1"))
        }

        let current = SpecTruth.Archive(_metadata: .init(editor: "Grace"), title: "now")
        let currentWritten = try format.write(current)
        let currentMetadata = try SpecTruth.nested(try format.object(currentWritten), "_metadata")
        #expect(currentMetadata["editor"] as? String == "Grace")
        #expect(SpecTruth.int(currentMetadata, "version") == 1)
        #expect(try format.read(SpecTruth.Archive.self, currentWritten).wrappedValue == current)
    }
}
