import Foundation
import Testing
import VersionedCodable

/// Every malformed document must end in a thrown `DecodingError` or `VersionedDecodingError`,
/// in each format, and never in a crash or a value that the document does not hold.
@Suite("Malformed input throws and never crashes")
struct MalformedInputTests {
    // MARK: - A four-version type, the oldest from before versioning

    struct NoteV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var name: String
    }

    struct NoteV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NoteV0
        var name: String
        var tags: [String]

        init(name: String, tags: [String]) {
            self.name = name
            self.tags = tags
        }

        init(from old: NoteV0) throws {
            self.init(name: old.name, tags: [])
        }
    }

    struct NoteV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NoteV1
        var title: String
        var tags: [String]
        var body: String?

        init(title: String, tags: [String], body: String?) {
            self.title = title
            self.tags = tags
            self.body = body
        }

        init(from old: NoteV1) throws {
            self.init(title: old.name, tags: old.tags, body: nil)
        }
    }

    struct Note: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NoteV2
        var title: String
        var tags: [String]
        var body: String?
        var count: Int

        init(title: String, tags: [String], body: String?, count: Int) {
            self.title = title
            self.tags = tags
            self.body = body
            self.count = count
        }

        init(from old: NoteV2) throws {
            self.init(title: old.title, tags: old.tags, body: old.body, count: old.tags.count)
        }
    }

    /// `VersionPlacementTests.MetaNote` decoded without versioning, every field required.
    struct PlainMetaNote: Codable {
        struct Meta: Codable { var editor: String; var version: Int }
        var _metadata: Meta
        var text: String
    }

    struct Counts: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var values: [[Int]]
    }

    /// `Note`'s fields with the version as one more, decoded without versioning.
    struct PlainNote: Codable {
        var version: Int?
        var title: String
        var tags: [String]
        var body: String?
        var count: Int
    }

    // MARK: - Formats and outcomes

    enum Format: String, CaseIterable, CustomTestStringConvertible {
        case json
        case xmlPlist
        case binaryPlist

        var testDescription: String { rawValue }

        var isPropertyList: Bool { self != .json }

        func decode(_ data: Data) throws -> Note {
            switch self {
            case .json:
                return try JSONDecoder().decode(versioned: Note.self, from: data)
            case .xmlPlist, .binaryPlist:
                return try PropertyListDecoder().decode(versioned: Note.self, from: data)
            }
        }

        func decodeWithStoredVersion(_ data: Data) throws -> Versioned<Note> {
            switch self {
            case .json:
                return try JSONDecoder().decodeWithStoredVersion(Note.self, from: data)
            case .xmlPlist, .binaryPlist:
                return try PropertyListDecoder().decodeWithStoredVersion(Note.self, from: data)
            }
        }

        /// Writes a property-list-shaped value the way this format stores it. JSON takes the
        /// same objects through `JSONSerialization`, so that one table of documents serves all
        /// three formats.
        func document(_ object: Any) throws -> Data {
            switch self {
            case .json:
                return try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
            case .xmlPlist:
                return try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
            case .binaryPlist:
                return try PropertyListSerialization.data(
                    fromPropertyList: object,
                    format: .binary,
                    options: 0
                )
            }
        }

        func encode(_ value: some VersionedCodable) throws -> Data {
            switch self {
            case .json:
                return try JSONEncoder().encode(versioned: value)
            case .xmlPlist:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .xml
                return try encoder.encode(versioned: value)
            case .binaryPlist:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                return try encoder.encode(versioned: value)
            }
        }
    }

    /// What a decode call did, reduced to what the tests assert on.
    enum Outcome: Equatable, CustomStringConvertible {
        case decoded(Note)
        case dataCorrupted
        case typeMismatch(at: [String])
        case valueNotFound
        case keyNotFound(String)
        case unsupportedVersion(tried: String)
        case documentVersionTooNew(found: Int)
        case otherVersionedError(String)
        case unexpectedError(String)

        init(_ body: () throws -> Note) {
            do {
                self = .decoded(try body())
            } catch let error as DecodingError {
                switch error {
                case .dataCorrupted:
                    self = .dataCorrupted
                case .typeMismatch(_, let context):
                    self = .typeMismatch(at: context.codingPath.map(\.stringValue))
                case .valueNotFound:
                    self = .valueNotFound
                case .keyNotFound(let key, _):
                    self = .keyNotFound(key.stringValue)
                @unknown default:
                    self = .unexpectedError("\(error)")
                }
            } catch let error as VersionedDecodingError {
                switch error {
                case .unsupportedVersion(let tried):
                    self = .unsupportedVersion(tried: "\(tried)")
                case .documentVersionTooNew(let found, _):
                    self = .documentVersionTooNew(found: found)
                default:
                    self = .otherVersionedError("\(error)")
                }
            } catch {
                self = .unexpectedError("\(type(of: error)): \(error)")
            }
        }

        /// Whether decoding threw one of the two error types the library promises.
        var isPromisedError: Bool {
            switch self {
            case .decoded, .unexpectedError:
                return false
            default:
                return true
            }
        }

        var description: String {
            switch self {
            case .decoded(let note): return "decoded \(note)"
            case .dataCorrupted: return "dataCorrupted"
            case .typeMismatch(let path): return "typeMismatch at \(path)"
            case .valueNotFound: return "valueNotFound"
            case .keyNotFound(let key): return "keyNotFound(\(key))"
            case .unsupportedVersion(let tried): return "unsupportedVersion(tried: \(tried))"
            case .documentVersionTooNew(let found): return "documentVersionTooNew(found: \(found))"
            case .otherVersionedError(let text): return "VersionedDecodingError: \(text)"
            case .unexpectedError(let text): return "unexpected error \(text)"
            }
        }
    }

    static let sample = Note(title: "Ode", tags: ["a", "b"], body: "Line", count: 2)

    /// A current document whose version is replaced by `version`, as a property-list-shaped
    /// dictionary.
    static func fields(version: Any) -> [String: Any] {
        ["version": version, "title": "Ode", "tags": ["a", "b"], "count": 2]
    }

    // MARK: - Not a document at all

    @Test("Empty data throws dataCorrupted", arguments: Format.allCases)
    func emptyData(format: Format) {
        #expect(Outcome { try format.decode(Data()) } == .dataCorrupted)
    }

    @Test("Text that is not JSON throws dataCorrupted from JSONDecoder")
    func notJSON() {
        for text in [
            "hello", "{", "}", "{version: 3}", "{\"version\" 3}", "nul", "\u{0}", "{\"version\":3}}",
        ] {
            #expect(Outcome { try Format.json.decode(Data(text.utf8)) } == .dataCorrupted, "\(text)")
        }
    }

    @Test("Text that is no property list throws from PropertyListDecoder")
    func notPropertyList() {
        // A bare word is a valid OpenStep string, so it parses and is the wrong root.
        #expect(Outcome { try Format.xmlPlist.decode(Data("hello".utf8)) } == .typeMismatch(at: []))
        for text in [
            "{", "(", "<plist>", "<?xml version=\"1.0\"?><plist><dict><key>version</key>", "bplist00\u{0}",
        ] {
            #expect(Outcome { try Format.xmlPlist.decode(Data(text.utf8)) } == .dataCorrupted, "\(text)")
        }
    }

    @Test("A root that is not an object throws typeMismatch", arguments: Format.allCases)
    func wrongRoot(format: Format) throws {
        let roots: [Any] = [[1, 2], ["version", 3], "version", 3, 1.5, true]
        for root in roots {
            let data = try format.document(root)
            #expect(Outcome { try format.decode(data) } == .typeMismatch(at: []), "\(root)")
        }
    }

    @Test("A null root throws valueNotFound from JSONDecoder")
    func nullRoot() {
        #expect(Outcome { try Format.json.decode(Data("null".utf8)) } == .valueNotFound)
    }

    // MARK: - The version itself is wrong

    @Test("A version of the wrong type throws typeMismatch at the version", arguments: Format.allCases)
    func versionOfWrongType(format: Format) throws {
        let versions: [Any] = ["3", true, false, ["major": 3], [3], [Any]()]
        for version in versions {
            let data = try format.document(Self.fields(version: version))
            #expect(Outcome { try format.decode(data) } == .typeMismatch(at: ["version"]), "\(version)")
        }
    }

    @Test("A fractional or enormous version throws dataCorrupted", arguments: Format.allCases)
    func versionThatIsNoInt(format: Format) throws {
        let versions: [Any] = [1.5, 3.000_001, -0.5, 1e300, Double.infinity, UInt64.max]
        for version in versions {
            // JSON has no infinity.
            if format == .json, let number = version as? Double, !number.isFinite { continue }
            let data = try format.document(Self.fields(version: version))
            #expect(Outcome { try format.decode(data) } == .dataCorrupted, "\(version)")
        }
    }

    @Test("Numbers too large for any numeric type throw dataCorrupted")
    func numbersBeyondDouble() {
        let json = [
            #"{"version":1e400,"title":"Ode","tags":[],"count":2}"#,
            #"{"version":99999999999999999999999,"title":"Ode","tags":[],"count":2}"#,
            #"{"version":-99999999999999999999999,"title":"Ode","tags":[],"count":2}"#,
            #"{"version":3,"title":"Ode","tags":[],"count":1e400}"#,
        ]
        for text in json {
            #expect(Outcome { try Format.json.decode(Data(text.utf8)) } == .dataCorrupted, "\(text)")
        }
        let xml = [
            Self.xmlPlist(#"<key>version</key><integer>99999999999999999999999</integer>"#),
            Self.xmlPlist(#"<key>version</key><real>1e400</real>"#),
        ]
        for text in xml {
            #expect(Outcome { try Format.xmlPlist.decode(Data(text.utf8)) } == .dataCorrupted, "\(text)")
        }
    }

    @Test(
        "A version that no type has names the chain's oldest type or says it is too new",
        arguments: Format.allCases
    )
    func versionOutsideTheChain(format: Format) throws {
        let expectations: [(Int, Outcome)] = [
            (-1, .unsupportedVersion(tried: "\(NoteV0.self)")),
            (0, .unsupportedVersion(tried: "\(NoteV0.self)")),
            (Int.min, .unsupportedVersion(tried: "\(NoteV0.self)")),
            (4, .documentVersionTooNew(found: 4)),
            (Int.max, .documentVersionTooNew(found: Int.max)),
        ]
        for (version, expected) in expectations {
            let data = try format.document(Self.fields(version: version))
            #expect(Outcome { try format.decode(data) } == expected, "\(version)")
        }
    }

    @Test("A JSON version written as a whole number with a fraction part of zero still decodes")
    func wholeNumberWithDecimalPoint() {
        let data = Data(#"{"version":2.0,"title":"Ode","tags":["a"]}"#.utf8)
        #expect(
            Outcome { try Format.json.decode(data) }
                == .decoded(Note(title: "Ode", tags: ["a"], body: nil, count: 1))
        )
    }

    // MARK: - Damaged documents

    @Test("Every truncation of a valid document of every version throws", arguments: Format.allCases)
    func truncatedDocuments(format: Format) throws {
        let documents = [
            try format.encode(NoteV0(name: "Ödön ✍️")),
            try format.encode(NoteV1(name: "Ode", tags: ["x", ""])),
            try format.encode(NoteV2(title: "Ode", tags: [], body: "ßody")),
            try format.encode(Self.sample),
        ]
        for document in documents {
            let whole = try format.decode(document)
            // The XML encoder ends with a newline; losing only trailing white space loses nothing.
            let trailingSpace = document.reversed().prefix { $0 == 0x0A || $0 == 0x20 || $0 == 0x09 }.count
            for length in 0..<document.count {
                let outcome = Outcome { try format.decode(document.prefix(length)) }
                if length >= document.count - trailingSpace {
                    #expect(outcome == .decoded(whole), "\(document.count) bytes cut to \(length)")
                } else {
                    #expect(outcome.isPromisedError, "\(document.count) bytes cut to \(length): \(outcome)")
                }
            }
        }
    }

    @Test("Invalid UTF-8 in JSON text throws dataCorrupted")
    func invalidUTF8InJSON() {
        let sequences: [[UInt8]] = [
            [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82],
        ]
        for bytes in sequences {
            let inString =
                Data(#"{"version":3,"title":""#.utf8) + Data(bytes) + Data(#"","tags":[],"count":2}"#.utf8)
            #expect(Outcome { try Format.json.decode(inString) } == .dataCorrupted, "\(bytes) in a string")
            let inKey =
                Data(#"{"version":3,""#.utf8) + Data(bytes)
                + Data(#"":1,"title":"t","tags":[],"count":2}"#.utf8)
            #expect(Outcome { try Format.json.decode(inKey) } == .dataCorrupted, "\(bytes) in a key")
        }
    }

    @Test("Invalid UTF-8 in an XML property list throws dataCorrupted")
    func invalidUTF8InXMLPropertyList() {
        for bytes: [UInt8] in [[0xFF], [0xC0, 0x80], [0xE2, 0x82]] {
            let data = Data(
                Self.xmlPlist("<key>version</key><integer>3</integer><key>title</key><string>").utf8
            )
            let rest = Data("</string><key>tags</key><array/><key>count</key><integer>2</integer>".utf8)
            let document =
                Data(data.dropLast("</dict></plist>".utf8.count)) + Data(bytes) + rest
                + Data("</dict></plist>".utf8)
            #expect(Outcome { try Format.xmlPlist.decode(document) } == .dataCorrupted, "\(bytes)")
        }
    }

    @Test("Bytes that are no text in a binary property list's ASCII string never crash")
    func invalidBytesInBinaryPropertyList() throws {
        var document = try Format.binaryPlist.encode(Note(title: "ZZZZ", tags: [], body: nil, count: 0))
        let marker = try #require(document.firstRange(of: Data("ZZZZ".utf8)))
        document.replaceSubrange(marker, with: [0xFF, 0xC0, 0x80, 0xFE])
        let outcome = Outcome { try Format.binaryPlist.decode(document) }
        // A binary plist's 8-bit strings may be read as Latin-1; either way, no crash and no
        // error of another kind, and the title is never the old one.
        if case .decoded(let note) = outcome {
            #expect(note.title != "ZZZZ")
        } else {
            #expect(outcome.isPromisedError, "\(outcome)")
        }
    }

    @Test("Ten thousand nested arrays or objects throw dataCorrupted from JSONDecoder")
    func deeplyNestedJSON() {
        let depth = 10_000
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let documents = [
            arrays,
            objects,
            #"{"version":3,"title":"t","count":1,"tags":"# + arrays + "}",
            #"{"version":3,"title":"t","count":1,"tags":[],"extra":"# + objects + "}",
            #"{"version":"# + objects + "}",
        ]
        for document in documents {
            #expect(Outcome { try Format.json.decode(Data(document.utf8)) } == .dataCorrupted)
        }
    }

    /// Property lists that Foundation's own readers crash on, hang on or refuse: nested ten
    /// thousand deep in XML and in binary, an array that contains itself, bytes that are not
    /// UTF-8 inside an `<integer>`, deep nesting after a byte order mark.
    static func hostilePropertyLists() -> [Data] {
        let deep = String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
        let text = xmlPlist("<key>tags</key>" + deep)
        let invalidInteger =
            Data(xmlPlist("<key>version</key><integer>").utf8.dropLast("</dict></plist>".utf8.count))
            + Data(repeating: 0xFF, count: 8) + Data("01</integer></dict></plist>".utf8)
        // Deep nesting behind a comment longer than any look at the document's start.
        let afterComment = "<!--" + String(repeating: " ", count: 2_048) + "-->" + text
        return [
            Data(text.utf8),
            Data(afterComment.utf8),
            Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!,
            BinaryPropertyListWriter.noteWithDeeplyNestedTags(depth: 10_000),
            BinaryPropertyListWriter.noteWithCyclicTags(),
            invalidInteger,
        ]
    }

    @Test("A damaged key in a binary property list's metadata is an error, never a document without a version")
    func damagedMetadataKey() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let note = VersionPlacementTests.MetaNote(_metadata: .init(editor: "Ada"), text: "t")
        var document = try encoder.encode(versioned: note)
        // The object that holds the key `editor` (ASCII string marker 0x56, then its six
        // bytes), made a null.
        let key = Data([0x56]) + Data("editor".utf8)
        let range = try #require(document.range(of: key))
        document[range.lowerBound] = 0x00
        #expect(throws: DecodingError.self) {
            try PropertyListDecoder().decode(PlainMetaNote.self, from: document)
        }
        #expect(throws: DecodingError.self) {
            try PropertyListDecoder().decode(versioned: VersionPlacementTests.MetaNote.self, from: document)
        }
    }

    @Test("A binary property list of many small values that a plain decode reads, the versioned decode reads too")
    func manySmallValues() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        // Equal values are written once and referred to from each element: a million and one
        // references to one empty array.
        let counts = Counts(values: Array(repeating: [], count: 1_000_001))
        let document = try encoder.encode(versioned: counts)
        #expect(try PropertyListDecoder().decode(Counts.self, from: document).values.count == 1_000_001)
        #expect(try PropertyListDecoder().decode(versioned: Counts.self, from: document) == counts)
    }

    /// How a decode in a child process ended: its exit status, which says whether it returned,
    /// threw (and what) or stopped the process.
    static func endInChildProcess(_ decode: () throws -> Any) -> Never {
        do {
            _ = try decode()
            exit(10)
        } catch is DecodingError {
            exit(11)
        } catch {
            exit(12)
        }
    }

    /// The coders' readers are theirs: where Foundation's reader stops the process, so does a
    /// versioned decode of the same bytes, and where it throws, the versioned decode throws a
    /// `DecodingError` too. Each decode runs in a child process, since some of them crash.
    @Test("A hostile property list ends a versioned decode as it ends a plain decode", arguments: 0..<6)
    func hostilePropertyListsAsPlainDecodes(index: Int) async throws {
        let plain = await #expect(processExitsWith: .failure) { [index] in
            let document = MalformedInputTests.hostilePropertyLists()[index]
            MalformedInputTests.endInChildProcess { try PropertyListDecoder().decode(PlainNote.self, from: document) }
        }
        let versioned = await #expect(processExitsWith: .failure) { [index] in
            let document = MalformedInputTests.hostilePropertyLists()[index]
            MalformedInputTests.endInChildProcess {
                try PropertyListDecoder().decode(versioned: Note.self, from: document)
            }
        }
        let transparent = await #expect(processExitsWith: .failure) { [index] in
            let document = MalformedInputTests.hostilePropertyLists()[index]
            MalformedInputTests.endInChildProcess {
                let note: Note = try Note.decodeTransparently(from: document) {
                    try PropertyListDecoder().decode($0, from: $1)
                }
                return note
            }
        }
        let plainStatus = try #require(plain?.exitStatus)
        #expect(versioned?.exitStatus == plainStatus)
        #expect(transparent?.exitStatus == plainStatus)
        // A plain decode that throws is never a versioned decode that returns.
        #expect(plainStatus != .exitCode(10))
    }

    @Test("Five bytes that are not UTF-8 inside an XML property list's integer throw dataCorrupted")
    func fewInvalidBytesInXMLInteger() {
        let document =
            Data(Self.xmlPlist("<key>version</key><integer>").utf8.dropLast("</dict></plist>".utf8.count))
            + Data(repeating: 0xFF, count: 5) + Data("01</integer></dict></plist>".utf8)
        #expect(Outcome { try Format.xmlPlist.decode(document) } == .dataCorrupted)
    }

    @Test("Duplicate keys decode the fields of the version that was read", arguments: Format.allCases)
    func duplicateKeys(format: Format) throws {
        // The version and the fields are read through one decoder, so whichever duplicate the
        // parser keeps, the value matches the version it reports.
        let asThree = Note(title: "Ode", tags: ["a"], body: nil, count: 5)
        let asTwo = try Note(from: NoteV2(title: "Ode", tags: ["a"], body: nil))
        for versions in [(2, 3), (3, 2)] {
            let document = try Self.documentWithDuplicateVersion(versions, format: format)
            let read = try format.decodeWithStoredVersion(document)
            switch read.storedVersion {
            case 3: #expect(read.wrappedValue == asThree)
            case 2: #expect(read.wrappedValue == asTwo)
            default: Issue.record("read version \(String(describing: read.storedVersion)) from \(versions)")
            }
        }
    }

    @Test("A property list given to JSONDecoder throws dataCorrupted")
    func propertyListGivenToJSONDecoder() throws {
        for format in [Format.xmlPlist, .binaryPlist] {
            let document = try format.encode(Self.sample)
            #expect(Outcome { try Format.json.decode(document) } == .dataCorrupted, "\(format)")
        }
    }

    @Test("JSON given to PropertyListDecoder throws dataCorrupted")
    func jsonGivenToPropertyListDecoder() throws {
        let document = try Format.json.encode(Self.sample)
        #expect(Outcome { try Format.xmlPlist.decode(document) } == .dataCorrupted)
    }

    // MARK: - Valid versions with wrong fields

    @Test("A known version with a missing field throws keyNotFound naming it", arguments: Format.allCases)
    func missingFields(format: Format) throws {
        let cases: [([String: Any], String)] = [
            ([:], "name"),
            (["version": 1, "name": "n"], "tags"),
            (["version": 1, "tags": [String]()], "name"),
            (["version": 2, "tags": ["x"]], "title"),
            (["version": 3, "title": "t", "tags": ["x"]], "count"),
            (["version": 3, "title": "t", "count": 1], "tags"),
        ]
        for (fields, missing) in cases {
            let data = try format.document(fields)
            #expect(Outcome { try format.decode(data) } == .keyNotFound(missing), "\(fields)")
        }
    }

    @Test(
        "A known version with a field of the wrong type throws typeMismatch at it",
        arguments: Format.allCases
    )
    func mistypedFields(format: Format) throws {
        let cases: [([String: Any], [String])] = [
            (["name": 7], ["name"]),
            (["version": 1, "name": "n", "tags": "x"], ["tags"]),
            (["version": 1, "name": "n", "tags": ["x", 1]], ["tags", "Index 1"]),
            (["version": 2, "title": "t", "tags": [String](), "body": ["x"]], ["body"]),
            (["version": 3, "title": "t", "tags": [String](), "count": "2"], ["count"]),
        ]
        for (fields, path) in cases {
            let data = try format.document(fields)
            #expect(Outcome { try format.decode(data) } == .typeMismatch(at: path), "\(fields)")
        }
    }

    // MARK: - Custom coders

    @Test("A decode function that returns another type throws decodeFunctionReturnedWrongType")
    func decodeFunctionReturningWrongType() throws {
        let data = try JSONEncoder().encode(versioned: Self.sample)
        do {
            let _: Note = try Note.decodeTransparently(from: data) { _, data in
                try JSONDecoder().decode(NoteV2.self, from: data)
            }
            Issue.record("decoding succeeded with a value of the wrong type")
        } catch VersionedDecodingError.decodeFunctionReturnedWrongType(let expected, let returned) {
            #expect(ObjectIdentifier(expected) == ObjectIdentifier(Versioned<Note>.self))
            #expect(ObjectIdentifier(returned) == ObjectIdentifier(NoteV2.self))
        }
    }

    @Test("A decode function that returns the current type itself, unwrapped, is also refused")
    func decodeFunctionReturningTheBareType() throws {
        let data = try JSONEncoder().encode(versioned: Self.sample)
        #expect {
            let _: Note = try Note.decodeTransparently(from: data) { _, data in
                try JSONDecoder().decode(Note.self, from: data)
            }
        } throws: { error in
            guard case VersionedDecodingError.decodeFunctionReturnedWrongType(_, let returned) = error else {
                return false
            }
            return ObjectIdentifier(returned) == ObjectIdentifier(Note.self)
        }
    }

    // MARK: - Building documents

    static func xmlPlist(_ dictionaryBody: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"# + dictionaryBody
            + "</dict></plist>"
    }

    /// `{"version": a, "title": "Ode", "tags": ["a"], "version": b, "count": 5}`: serializers
    /// refuse to write a key twice, so each format's text is put together here.
    static func documentWithDuplicateVersion(_ versions: (Int, Int), format: Format) throws -> Data {
        switch format {
        case .json:
            return Data(
                #"{"version":\#(versions.0),"title":"Ode","tags":["a"],"version":\#(versions.1),"count":5}"#
                    .utf8
            )
        case .xmlPlist:
            return Data(
                xmlPlist(
                    "<key>version</key><integer>\(versions.0)</integer><key>title</key><string>Ode</string>"
                        + "<key>tags</key><array><string>a</string></array>"
                        + "<key>version</key><integer>\(versions.1)</integer><key>count</key><integer>5</integer>"
                ).utf8
            )
        case .binaryPlist:
            return BinaryPropertyListWriter.noteWithDuplicateVersion(versions)
        }
    }
}
