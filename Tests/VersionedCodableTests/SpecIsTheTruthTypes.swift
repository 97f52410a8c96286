import Foundation
import Testing
import VersionedCodable

// Specs that VersionedCodable 1.2 reads by decoding the spec from each document, and the chains
// that use them. Each migration appends "+N" to a string, so a wrong walk shows in the value.

/// The specs, chains and formats of the spec-is-the-truth suites.
enum SpecTruth {}

// MARK: - Formats

extension SpecTruth {
    /// JSON and both property list formats, with the calls the suites make on each.
    enum Format: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case json
        case xmlPlist
        case binaryPlist

        var testDescription: String { rawValue }

        func write(_ value: any VersionedCodable) throws -> Data {
            switch self {
            case .json:
                return try JSONEncoder().encode(versioned: value)
            case .xmlPlist, .binaryPlist:
                return try propertyListEncoder().encode(versioned: value)
            }
        }

        func write(_ value: any VersionedCodable, asVersion version: Int?) throws -> Data {
            switch self {
            case .json:
                return try JSONEncoder().encode(versioned: value, asVersion: version)
            case .xmlPlist, .binaryPlist:
                return try propertyListEncoder().encode(versioned: value, asVersion: version)
            }
        }

        /// A plain encode: `Versioned` parts and documents of other shapes.
        func writePlain(_ value: some Encodable) throws -> Data {
            switch self {
            case .json:
                return try JSONEncoder().encode(value)
            case .xmlPlist, .binaryPlist:
                return try propertyListEncoder().encode(value)
            }
        }

        /// The value and the version the document had.
        func read<T: VersionedCodable>(_ type: T.Type, _ data: Data) throws -> Versioned<T> {
            switch self {
            case .json:
                return try JSONDecoder().decodeWithStoredVersion(type, from: data)
            case .xmlPlist, .binaryPlist:
                return try PropertyListDecoder().decodeWithStoredVersion(type, from: data)
            }
        }

        func readValue<T: VersionedCodable>(_ type: T.Type, _ data: Data) throws -> T {
            switch self {
            case .json:
                return try JSONDecoder().decode(versioned: type, from: data)
            case .xmlPlist, .binaryPlist:
                return try PropertyListDecoder().decode(versioned: type, from: data)
            }
        }

        /// A plain decode: `Versioned` parts, and what a plain `Codable` type reads.
        func readPlain<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
            switch self {
            case .json:
                return try JSONDecoder().decode(type, from: data)
            case .xmlPlist, .binaryPlist:
                return try PropertyListDecoder().decode(type, from: data)
            }
        }

        /// A document of this format holding the given property-list-shaped value.
        func document(_ object: Any) throws -> Data {
            switch self {
            case .json:
                return try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
            case .xmlPlist:
                return try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
            case .binaryPlist:
                return try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
            }
        }

        /// The document's root object, as `JSONSerialization` or `PropertyListSerialization` reads it.
        func object(_ data: Data) throws -> [String: Any] {
            let root: Any
            switch self {
            case .json:
                root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            case .xmlPlist, .binaryPlist:
                root = try PropertyListSerialization.propertyList(from: data, format: nil)
            }
            guard let object = root as? [String: Any] else {
                throw Mismatch("the document's root is not an object: \(root)")
            }
            return object
        }

        private func propertyListEncoder() -> PropertyListEncoder {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = self == .xmlPlist ? .xml : .binary
            return encoder
        }
    }

    /// A check that failed, with what was expected and what was found.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Throws unless the two values are equal; usable in child processes, where `#expect`
    /// cannot say what differed.
    static func check<T: Equatable>(
        _ found: T,
        _ expected: T,
        _ what: String,
        line: Int = #line
    ) throws {
        guard found == expected else {
            throw Mismatch("\(what): found \(found), expected \(expected) (line \(line))")
        }
    }

    /// Runs checks in an exit test's child process: success if they all pass, and otherwise an
    /// issue that says what failed, which the parent reports, and a failing exit status.
    static func endChildProcess(_ checks: () throws -> Void) -> Never {
        do {
            try checks()
            exit(0)
        } catch {
            Issue.record("\(error)")
            exit(1)
        }
    }

    /// The document's integer at `key`, or nil.
    static func int(_ object: [String: Any], _ key: String) -> Int? {
        (object[key] as? NSNumber).map(\.intValue)
    }

    /// The nested object at `key`.
    static func nested(_ object: [String: Any], _ key: String) throws -> [String: Any] {
        guard let nested = object[key] as? [String: Any] else {
            throw Mismatch("no object at \(key) in \(object)")
        }
        return nested
    }
}

extension CodingUserInfoKey {
    /// The program that writes a document, which `SpecTruth.GeneratorSpec` records.
    static let specTruthGenerator = CodingUserInfoKey(rawValue: "SpecTruth.generator")!
}

// MARK: - 1.2's documented nested spec, with an unversioned type

extension SpecTruth {
    /// The version at `metadata.documentVersion`, in a non-optional object, as 1.2 documented.
    struct DocumentMetadataSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.metadata.documentVersion }

        init(withVersion version: Int?) {
            metadata = Metadata(documentVersion: version)
        }

        struct Metadata: Codable {
            var documentVersion: Int?
        }
        var metadata: Metadata
    }

    struct LetterV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = DocumentMetadataSpec
        var body: String
    }

    struct LetterV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = LetterV0
        typealias VersionSpec = DocumentMetadataSpec
        var body: String
        var signed: Bool

        init(body: String, signed: Bool) {
            self.body = body
            self.signed = signed
        }
        init(from old: LetterV0) {
            self.init(body: old.body + "+1", signed: false)
        }
    }

    struct Letter: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = LetterV1
        typealias VersionSpec = DocumentMetadataSpec
        var body: String
        var signature: String

        init(body: String, signature: String) {
            self.body = body
            self.signature = signature
        }
        init(from old: LetterV1) {
            self.init(body: old.body + "+2", signature: old.signed ? "signed" : "")
        }
    }

    /// What a process that uses the unversioned letter first must still read: each version as
    /// itself, and the current version's own documents back.
    static func checkLetters(in format: Format) throws {
        let v1 = try format.document(["metadata": ["documentVersion": 1], "body": "one", "signed": true])
        let readV1 = try format.read(Letter.self, v1)
        try check(readV1.storedVersion, 1, "\(format) version 1 letter's stored version")
        try check(readV1.wrappedValue, Letter(body: "one+2", signature: "signed"), "\(format) version 1 letter")

        let current = Letter(body: "two", signature: "Ada")
        let written = try format.write(current)
        try check(int(try nested(try format.object(written), "metadata"), "documentVersion"), 2, "written version")
        let readV2 = try format.read(Letter.self, written)
        try check(readV2.storedVersion, 2, "\(format) version 2 letter's stored version")
        try check(readV2.wrappedValue, current, "\(format) version 2 letter")

        let v2 = try format.document(["metadata": ["documentVersion": 2], "body": "b", "signature": "s"])
        try check(try format.read(Letter.self, v2).storedVersion, 2, "\(format) hand-written version 2 letter")
    }

    /// Uses the unversioned letter by encoding it directly, as 1.2 advised for writing an old
    /// version, and checks what it wrote.
    static func encodeUnversionedLetter(in format: Format) throws {
        let written = try format.write(LetterV0(body: "old"))
        let read = try format.read(Letter.self, written)
        try check(read.storedVersion, nil, "unversioned letter's stored version")
        try check(read.wrappedValue, Letter(body: "old+1+2", signature: ""), "unversioned letter")
        try check(try format.readValue(LetterV0.self, written), LetterV0(body: "old"), "unversioned letter as itself")
        let object = try format.object(written)
        try check(object["body"] as? String, "old", "unversioned letter's body")
        let metadata = object["metadata"] as? [String: Any]
        try check(metadata.flatMap { int($0, "documentVersion") }, nil, "unversioned letter's version")
    }

    /// Uses the unversioned letter by decoding one.
    static func decodeUnversionedLetter(in format: Format) throws {
        let document = try format.document(["metadata": [String: Any](), "body": "old"])
        try check(try format.readValue(LetterV0.self, document), LetterV0(body: "old"), "unversioned letter")
    }
}

// MARK: - Two chains sharing one spec

extension SpecTruth {
    /// A header with a constant `format: 1` beside the version when versioned, shared by two
    /// chains: a chain whose only version is 1 writes two ones.
    struct SharedHeaderSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header.revision }

        init(withVersion version: Int?) {
            header = Header(format: version == nil ? nil : 1, revision: version)
        }

        struct Header: Codable {
            var format: Int?
            var revision: Int?
        }
        var header: Header
    }

    struct TicketV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SharedHeaderSpec
        var seat: String
    }

    struct TicketV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = TicketV1
        typealias VersionSpec = SharedHeaderSpec
        var seat: String
        init(seat: String) { self.seat = seat }
        init(from old: TicketV1) { seat = old.seat + "+2" }
    }

    struct Ticket: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = TicketV2
        typealias VersionSpec = SharedHeaderSpec
        var seat: String
        init(seat: String) { self.seat = seat }
        init(from old: TicketV2) { seat = old.seat + "+3" }
    }

    struct Price: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SharedHeaderSpec
        var amount: Int
    }

    static func usePrice(in format: Format, encoding: Bool) throws {
        if encoding {
            let written = try format.write(Price(amount: 5))
            try check(int(try nested(try format.object(written), "header"), "revision"), 1, "price's version")
            try check(try format.read(Price.self, written).wrappedValue, Price(amount: 5), "price read back")
        } else {
            let document = try format.document(["header": ["format": 1, "revision": 1], "amount": 5])
            let read = try format.read(Price.self, document)
            try check(read.storedVersion, 1, "price's stored version")
            try check(read.wrappedValue, Price(amount: 5), "price")
        }
    }

    static func checkTickets(in format: Format) throws {
        let v3 = try format.document(["header": ["format": 1, "revision": 3], "seat": "12A"])
        let read = try format.read(Ticket.self, v3)
        try check(read.storedVersion, 3, "\(format) version 3 ticket's stored version")
        try check(read.wrappedValue, Ticket(seat: "12A"), "\(format) version 3 ticket")
        let v1 = try format.document(["header": ["format": 1, "revision": 1], "seat": "1B"])
        try check(try format.read(Ticket.self, v1).wrappedValue, Ticket(seat: "1B+2+3"), "version 1 ticket")
        let written = try format.write(Ticket(seat: "7C"))
        let header = try nested(try format.object(written), "header")
        try check(int(header, "revision"), 3, "written ticket's revision")
        try check(int(header, "format"), 1, "written ticket's format")
        try check(try format.read(Ticket.self, written).storedVersion, 3, "written ticket's stored version")
    }
}

// MARK: - Specs with more than the version

extension SpecTruth {
    /// A header with a constant `format: 1` beside the version, written only when versioned.
    struct FormatHeaderSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header?.version }

        init(withVersion version: Int?) {
            header = version.map { Header(format: 1, version: $0) }
        }

        struct Header: Codable {
            var format: Int
            var version: Int
        }
        var header: Header?
    }

    struct ReportV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = FormatHeaderSpec
        var title: String
    }

    struct Report: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = ReportV0
        typealias VersionSpec = FormatHeaderSpec
        var title: String
        init(title: String) { self.title = title }
        init(from old: ReportV0) { title = old.title + "+1" }
    }

    /// The oldest version that may read the document, beside the version: equal to it when
    /// this chain writes it, lower in documents of newer builds.
    struct MinimumReaderSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        var minimumReader: Int?

        init(withVersion version: Int?) {
            self.version = version
            minimumReader = version
        }
    }

    struct ManualV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MinimumReaderSpec
        var text: String
    }

    struct ManualV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = ManualV1
        typealias VersionSpec = MinimumReaderSpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: ManualV1) { text = old.text + "+2" }
    }

    struct Manual: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = ManualV2
        typealias VersionSpec = MinimumReaderSpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: ManualV2) { text = old.text + "+3" }
    }

    /// Writes `v` before version 5 and `version` from 5 on; reads `version`, else `v`.
    struct MovingKeySpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.number }
        var number: Int?

        init(withVersion version: Int?) { number = version }

        enum CodingKeys: String, CodingKey { case v, version }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            number =
                try container.decodeIfPresent(Int.self, forKey: .version)
                ?? container.decodeIfPresent(Int.self, forKey: .v)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            guard let number else { return }
            try container.encode(number, forKey: number < 5 ? .v : .version)
        }
    }

    struct JournalV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MovingKeySpec
        var text: String
    }

    struct JournalV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = JournalV0
        typealias VersionSpec = MovingKeySpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: JournalV0) { text = old.text + "+1" }
    }

    struct JournalV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = JournalV1
        typealias VersionSpec = MovingKeySpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: JournalV1) { text = old.text + "+2" }
    }

    struct JournalV3: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = JournalV2
        typealias VersionSpec = MovingKeySpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: JournalV2) { text = old.text + "+3" }
    }

    struct JournalV4: VersionedCodable, Equatable {
        static let version: Int? = 4
        typealias PreviousVersion = JournalV3
        typealias VersionSpec = MovingKeySpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: JournalV3) { text = old.text + "+4" }
    }

    struct JournalV5: VersionedCodable, Equatable {
        static let version: Int? = 5
        typealias PreviousVersion = JournalV4
        typealias VersionSpec = MovingKeySpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: JournalV4) { text = old.text + "+5" }
    }

    struct Journal: VersionedCodable, Equatable {
        static let version: Int? = 6
        typealias PreviousVersion = JournalV5
        typealias VersionSpec = MovingKeySpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: JournalV5) { text = old.text + "+6" }
    }

    /// Counts the specs made for writing, in the whole process.
    final class WriteCounter: @unchecked Sendable {
        // A lock rather than an atomic: the package declares no minimum platform versions.
        private let lock = NSLock()
        private var count = 0

        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count
        }
    }

    /// Counts its versioned writes beside the version, under a key that sorts before it: the
    /// count steps with the versions when the spec is first asked for them in order.
    struct CountingSpec: VersionPathSpec {
        static let counter = WriteCounter()
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        var count: Int?

        init(withVersion version: Int?) {
            self.version = version
            count = version == nil ? nil : Self.counter.next()
        }
    }

    struct GaugeV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = CountingSpec
        var reading: String
    }

    struct GaugeV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = GaugeV1
        typealias VersionSpec = CountingSpec
        var reading: String
        init(reading: String) { self.reading = reading }
        init(from old: GaugeV1) { reading = old.reading + "+2" }
    }

    struct Gauge: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = GaugeV2
        typealias VersionSpec = CountingSpec
        var reading: String
        init(reading: String) { self.reading = reading }
        init(from old: GaugeV2) { reading = old.reading + "+3" }
    }

    /// Writes `generator` beside the version when the encoder's `userInfo` names a program.
    struct GeneratorSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?

        init(withVersion version: Int?) { self.version = version }

        enum CodingKeys: String, CodingKey { case version, generator }

        init(from decoder: any Decoder) throws {
            version = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .version)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(version, forKey: .version)
            if let program = encoder.userInfo[.specTruthGenerator] as? String {
                try container.encode(program, forKey: .generator)
            }
        }
    }

    struct Export: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = GeneratorSpec
        var generator: String
        var payload: String
    }

    struct Snapshot: VersionedCodable, Equatable {
        static let version: Int? = 4
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = GeneratorSpec
        var payload: String
    }
}

// MARK: - Old and new builds

extension SpecTruth {
    struct DiaryHeader: Codable, Equatable {
        var title: String
        var pinned: Bool
    }

    /// The old build's newest version, which reads and writes its header through a super
    /// decoder and encoder.
    struct DiaryV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var header: DiaryHeader
        var body: String

        enum CodingKeys: String, CodingKey { case header, body }

        init(header: DiaryHeader, body: String) {
            self.header = header
            self.body = body
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            header = try DiaryHeader(from: container.superDecoder(forKey: .header))
            body = try container.decode(String.self, forKey: .body)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try header.encode(to: container.superEncoder(forKey: .header))
            try container.encode(body, forKey: .body)
        }
    }

    /// The old build's newest version, which reads its header, where the spec keeps the
    /// version, through a super decoder and writes it as a plain field.
    /// The version inside the header, beside the type's own fields there.
    struct HeaderVersionSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header.version }
        struct Header: Codable { var version: Int? }
        var header: Header
        init(withVersion version: Int?) { header = Header(version: version) }
    }

    struct JournalEntryV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = HeaderVersionSpec
        var header: DiaryHeader
        var body: String

        enum CodingKeys: String, CodingKey { case header, body }

        init(header: DiaryHeader, body: String) {
            self.header = header
            self.body = body
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            header = try DiaryHeader(from: container.superDecoder(forKey: .header))
            body = try container.decode(String.self, forKey: .body)
        }
    }

    struct JournalEntry: VersionedCodable, Equatable {
        static let version: Int? = 2
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = JournalEntryV1
        typealias VersionSpec = HeaderVersionSpec
        var header: DiaryHeader
        var body: String
        var mood: String

        init(header: DiaryHeader, body: String, mood: String) {
            self.header = header
            self.body = body
            self.mood = mood
        }
        init(from old: JournalEntryV1) {
            self.init(header: old.header, body: old.body, mood: "")
        }
        func downgraded() -> JournalEntryV1 { JournalEntryV1(header: header, body: body) }
    }

    /// The old build's newest version, which reads its header's fields through a super decoder
    /// and writes them into a nested container.
    struct LogbookV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var title: String
        var body: String

        enum CodingKeys: String, CodingKey { case header, body }
        enum HeaderKeys: String, CodingKey { case title }

        init(title: String, body: String) {
            self.title = title
            self.body = body
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let header = try container.superDecoder(forKey: .header).container(keyedBy: HeaderKeys.self)
            title = try header.decode(String.self, forKey: .title)
            body = try container.decode(String.self, forKey: .body)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var header = container.nestedContainer(keyedBy: HeaderKeys.self, forKey: .header)
            try header.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
        }
    }

    struct Logbook: VersionedCodable, Equatable {
        static let version: Int? = 2
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = LogbookV1
        struct Header: Codable, Equatable { var title: String }
        var header: Header
        var body: String
        var weather: String

        init(header: Header, body: String, weather: String) {
            self.header = header
            self.body = body
            self.weather = weather
        }
        init(from old: LogbookV1) { self.init(header: Header(title: old.title), body: old.body, weather: "") }
        func downgraded() -> LogbookV1 { LogbookV1(title: header.title, body: body) }
    }

    /// The new build's header has a field the old build's does not know.
    struct ColoredDiaryHeader: Codable, Equatable {
        var title: String
        var pinned: Bool
        var color: String
    }

    /// The new build adds fields, at the root and in the header, so old builds may read and
    /// write it.
    struct Diary: VersionedCodable, Equatable {
        static let version: Int? = 2
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = DiaryV1
        var header: ColoredDiaryHeader
        var body: String
        var mood: String

        init(header: ColoredDiaryHeader, body: String, mood: String) {
            self.header = header
            self.body = body
            self.mood = mood
        }
        init(from old: DiaryV1) {
            self.init(
                header: ColoredDiaryHeader(title: old.header.title, pinned: old.header.pinned, color: ""),
                body: old.body,
                mood: ""
            )
        }
        func downgraded() -> DiaryV1 {
            DiaryV1(header: DiaryHeader(title: header.title, pinned: header.pinned), body: body)
        }
    }

    /// The old build's newest version, which writes a word count it never reads.
    struct EssayV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var text: String

        enum CodingKeys: String, CodingKey { case text, wordCount }

        init(text: String) { self.text = text }
        init(from decoder: any Decoder) throws {
            text = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .text)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(text.split(separator: " ").count, forKey: .wordCount)
        }
    }

    struct Essay: VersionedCodable, Equatable {
        static let version: Int? = 2
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = EssayV1
        var text: String
        var tags: [String]

        enum CodingKeys: String, CodingKey { case text, tags, wordCount }

        init(text: String, tags: [String]) {
            self.text = text
            self.tags = tags
        }
        init(from old: EssayV1) { self.init(text: old.text, tags: []) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decode(String.self, forKey: .text)
            tags = try container.decode([String].self, forKey: .tags)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(tags, forKey: .tags)
            try container.encode(text.split(separator: " ").count, forKey: .wordCount)
        }
        func downgraded() -> EssayV1 { EssayV1(text: text) }
    }
}

// MARK: - Dictionaries and null objects where the spec writes

extension SpecTruth {
    /// A root that is a dictionary of counts, which may hold any key.
    struct Census: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var counts: [String: Int]

        init(counts: [String: Int]) { self.counts = counts }
        init(from decoder: any Decoder) throws {
            counts = try decoder.singleValueContainer().decode([String: Int].self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(counts)
        }
    }

    /// Keeps a dictionary of counts in `_metadata`, where its spec keeps the version.
    struct Tally: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataSpec
        var _metadata: [String: Int]
    }

    /// The version at `_metadata.version`.
    struct MetadataSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }
        struct Metadata: Codable { var version: Int? }
        var _metadata: Metadata
        init(withVersion version: Int?) { _metadata = Metadata(version: version) }
    }

    /// A snake-case spec property, which snake-case strategies leave as it is when writing.
    struct SnakeVersionSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.schema_version }
        var schema_version: Int?
        init(withVersion version: Int?) { schema_version = version }
    }

    struct Ledger: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SnakeVersionSpec
        var balance: Int
    }

    /// Writes `"_metadata": null` for the `nil` version, with `encode(_:forKey:)`.
    struct NullableMetadataSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata?.version }

        struct Metadata: Codable {
            var version: Int?
        }
        var _metadata: Metadata?

        init(withVersion version: Int?) {
            _metadata = version.map { Metadata(version: $0) }
        }

        enum CodingKeys: String, CodingKey { case _metadata }

        init(from decoder: any Decoder) throws {
            _metadata = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
                Metadata.self,
                forKey: ._metadata
            )
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_metadata, forKey: ._metadata)
        }
    }

    /// Writes `"note": null` beside the version at the root, and reads only the version.
    struct NullNoteSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        var note: String?

        init(withVersion version: Int?) { self.version = version }

        enum CodingKeys: String, CodingKey { case version, note }

        init(from decoder: any Decoder) throws {
            version = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .version)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(note, forKey: .note)
        }
    }

    /// Opens a container of its own at `note`, where ``NullNoteSpec`` writes `null`.
    struct Annotated: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NullNoteSpec
        enum Opening: CaseIterable, Sendable { case nestedContainer, superEncoder, nestedUnkeyedContainer }
        var by: String
        /// How `note` is opened; not written.
        var opening = Opening.nestedContainer

        enum CodingKeys: String, CodingKey { case note, by }

        init(by: String, opening: Opening) {
            self.by = by
            self.opening = opening
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if var list = try? container.nestedUnkeyedContainer(forKey: .note) {
                by = try list.decode(String.self)
                opening = .nestedUnkeyedContainer
            } else {
                let note = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .note)
                by = try note.decode(String.self, forKey: .by)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch opening {
            case .nestedContainer:
                var note = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .note)
                try note.encode(by, forKey: .by)
            case .superEncoder:
                var note = container.superEncoder(forKey: .note).container(keyedBy: CodingKeys.self)
                try note.encode(by, forKey: .by)
            case .nestedUnkeyedContainer:
                var note = container.nestedUnkeyedContainer(forKey: .note)
                try note.encode(by)
            }
        }
    }

    struct ArchiveMetadata: Codable, Equatable {
        var editor: String
    }

    struct ArchiveV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NullableMetadataSpec
        var _metadata: ArchiveMetadata
        var title: String
    }

    /// ``ArchiveV0`` with its `_metadata` opened by hand, through `nestedContainer` or a super
    /// encoder, where the spec writes `null` for the `nil` version.
    struct HandWrittenArchiveV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NullableMetadataSpec
        var editor: String
        var title: String
        /// How `_metadata` is opened; not written.
        var bySuperEncoder = false

        enum CodingKeys: String, CodingKey { case _metadata, title, editor }

        init(editor: String, title: String, bySuperEncoder: Bool) {
            self.editor = editor
            self.title = title
            self.bySuperEncoder = bySuperEncoder
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let metadata = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: ._metadata)
            editor = try metadata.decode(String.self, forKey: .editor)
            title = try container.decode(String.self, forKey: .title)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var metadata =
                bySuperEncoder
                ? container.superEncoder(forKey: ._metadata).container(keyedBy: CodingKeys.self)
                : container.nestedContainer(keyedBy: CodingKeys.self, forKey: ._metadata)
            try metadata.encode(editor, forKey: .editor)
            try container.encode(title, forKey: .title)
        }
    }

    struct Archive: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = ArchiveV0
        typealias VersionSpec = NullableMetadataSpec
        var _metadata: ArchiveMetadata
        var title: String
        init(_metadata: ArchiveMetadata, title: String) {
            self._metadata = _metadata
            self.title = title
        }
        init(from old: ArchiveV0) { self.init(_metadata: old._metadata, title: old.title + "+1") }
    }
}

// MARK: - Specs 1.2 reads: the version's forms

extension SpecTruth {
    /// The version as a label, `"schema": "v2"`.
    struct SchemaLabelSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.number }
        var schema: String?
        var number: Int? {
            guard let schema, schema.hasPrefix("v") else { return nil }
            return Int(schema.dropFirst())
        }

        init(withVersion version: Int?) { schema = version.map { "v\($0)" } }

        enum CodingKeys: String, CodingKey { case schema }
    }

    struct BadgeV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SchemaLabelSpec
        var name: String
    }

    struct Badge: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = BadgeV1
        typealias VersionSpec = SchemaLabelSpec
        var name: String
        init(name: String) { self.name = name }
        init(from old: BadgeV1) { name = old.name + "+2" }
    }

    /// The version in the first of a list of headers.
    struct HeadersSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.headers[0].version }
        struct Header: Codable { var version: Int? }
        var headers: [Header]
        init(withVersion version: Int?) { headers = [Header(version: version)] }
    }

    struct ShelfV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = HeadersSpec
        var books: [String]
    }

    struct Shelf: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = ShelfV1
        typealias VersionSpec = HeadersSpec
        var books: [String]
        init(books: [String]) { self.books = books }
        init(from old: ShelfV1) { books = old.books + ["+2"] }
    }

    /// The version in the first item of a list, through a force unwrap.
    struct ItemsSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.items.first!.version }
        struct Item: Codable { var version: Int? }
        var items: [Item]
        init(withVersion version: Int?) { items = [Item(version: version)] }
    }

    struct CrateV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ItemsSpec
        var label: String
    }

    struct Crate: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = CrateV1
        typealias VersionSpec = ItemsSpec
        var label: String
        init(label: String) { self.label = label }
        init(from old: CrateV1) { label = old.label + "+2" }
    }

    /// `version ?? 0`: writes 0 for the `nil` version and reads 0 as `nil`.
    struct SentinelSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.stored }
        var version: Int
        var stored: Int? { version == 0 ? nil : version }

        init(withVersion version: Int?) { self.version = version ?? 0 }

        enum CodingKeys: String, CodingKey { case version }
    }

    struct PostcardV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SentinelSpec
        var greeting: String
    }

    struct Postcard: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = PostcardV0
        typealias VersionSpec = SentinelSpec
        var greeting: String
        init(greeting: String) { self.greeting = greeting }
        init(from old: PostcardV0) { greeting = old.greeting + "+1" }
        func downgraded() -> PostcardV0 { PostcardV0(greeting: greeting) }
    }

    /// The error a spec throws for a version it does not write.
    struct VersionNotWritten: Error {}

    /// Throws when asked to write no version: its chain has no `nil` version.
    struct NoNilSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?

        init(withVersion version: Int?) { self.version = version }

        enum CodingKeys: String, CodingKey { case version }

        func encode(to encoder: any Encoder) throws {
            guard let version else { throw VersionNotWritten() }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
        }
    }

    struct ReceiptV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NoNilSpec
        var total: Int
    }

    struct Receipt: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = ReceiptV1
        typealias VersionSpec = NoNilSpec
        var total: Int
        var currency: String
        init(total: Int, currency: String) {
            self.total = total
            self.currency = currency
        }
        init(from old: ReceiptV1) { self.init(total: old.total, currency: "+2") }
        func downgraded() -> ReceiptV1 { ReceiptV1(total: total) }
    }

    /// Throws when asked to write a version older than 3, the first it knows.
    struct ModernSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?

        init(withVersion version: Int?) { self.version = version }

        enum CodingKeys: String, CodingKey { case version }

        func encode(to encoder: any Encoder) throws {
            guard let version, version >= 3 else { throw VersionNotWritten() }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
        }
    }

    struct PolicyV3: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ModernSpec
        var clause: String
    }

    struct Policy: VersionedCodable, Equatable {
        static let version: Int? = 4
        typealias PreviousVersion = PolicyV3
        typealias VersionSpec = ModernSpec
        var clause: String
        init(clause: String) { self.clause = clause }
        init(from old: PolicyV3) { clause = old.clause + "+4" }
        func downgraded() -> PolicyV3 { PolicyV3(clause: clause) }
    }

    /// The version as an `Int`-backed enum.
    struct LevelSpec: VersionPathSpec {
        enum Level: Int, Codable {
            case first = 1
            case second = 2
        }
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.level?.rawValue }
        var level: Level?
        init(withVersion version: Int?) { level = version.flatMap(Level.init(rawValue:)) }
    }

    struct GadgetV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = LevelSpec
        var model: String
    }

    struct Gadget: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = GadgetV1
        typealias VersionSpec = LevelSpec
        var model: String
        init(model: String) { self.model = model }
        init(from old: GadgetV1) { model = old.model + "+2" }
    }

    /// The version as a `RawRepresentable` struct.
    struct RevisionSpec: VersionPathSpec {
        struct Revision: RawRepresentable, Codable {
            var rawValue: Int
        }
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.revision?.rawValue }
        var revision: Revision?
        init(withVersion version: Int?) { revision = version.map(Revision.init(rawValue:)) }
    }

    struct WidgetV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = RevisionSpec
        var part: String
    }

    struct Widget: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = WidgetV1
        typealias VersionSpec = RevisionSpec
        var part: String
        init(part: String) { self.part = part }
        init(from old: WidgetV1) { part = old.part + "+2" }
    }

    /// An optional header written with `encode(_:forKey:)`: `null` for no version.
    struct OptionalHeaderSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.header?.version }
        struct Header: Codable { var version: Int? }
        var header: Header?

        init(withVersion version: Int?) { header = version.map { Header(version: $0) } }

        enum CodingKeys: String, CodingKey { case header }

        init(from decoder: any Decoder) throws {
            header = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Header.self, forKey: .header)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(header, forKey: .header)
        }
    }

    struct PamphletV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = OptionalHeaderSpec
        var topic: String
    }

    struct Pamphlet: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = PamphletV0
        typealias VersionSpec = OptionalHeaderSpec
        var topic: String
        init(topic: String) { self.topic = topic }
        init(from old: PamphletV0) { topic = old.topic + "+1" }
    }

    /// Forwards its coding through a single-value container to an inner struct.
    struct ForwardingSpec: VersionPathSpec {
        struct Inner: Codable { var revision: Int? }
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.inner.revision }
        var inner: Inner

        init(withVersion version: Int?) { inner = Inner(revision: version) }

        init(from decoder: any Decoder) throws {
            inner = try decoder.singleValueContainer().decode(Inner.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    struct LeafletV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = ForwardingSpec
        var text: String
    }

    struct Leaflet: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = LeafletV1
        typealias VersionSpec = ForwardingSpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: LeafletV1) { text = old.text + "+2" }
    }

    /// One level of `DeepPathSpec`: an object holding the next level under `a`, or the version.
    indirect enum DeepLevel: Codable {
        case leaf(Int?)
        case level(DeepLevel)

        enum CodingKeys: String, CodingKey { case a, version }

        var next: DeepLevel {
            if case .level(let next) = self { return next }
            return self
        }
        var version: Int? {
            if case .leaf(let version) = self { return version }
            return nil
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.a) {
                self = .level(try container.decode(DeepLevel.self, forKey: .a))
            } else {
                self = .leaf(try container.decodeIfPresent(Int.self, forKey: .version))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .leaf(let version): try container.encodeIfPresent(version, forKey: .version)
            case .level(let next): try container.encode(next, forKey: .a)
            }
        }
    }

    /// The version 500 objects down: `a.a.….a.version`.
    struct DeepPathSpec: VersionPathSpec {
        static let depth = 500
        // Built once from `depth` steps; a key path is immutable once made.
        nonisolated(unsafe) static let path: KeyPath<Self, Int?> = {
            var path: KeyPath<Self, DeepLevel> = \Self.a
            for _ in 1..<depth {
                path = path.appending(path: \DeepLevel.next)
            }
            return path.appending(path: \DeepLevel.version)
        }()
        static var keyPathToVersion: KeyPath<Self, Int?> { path }
        var a: DeepLevel

        init(withVersion version: Int?) {
            var level = DeepLevel.leaf(version)
            for _ in 1..<Self.depth {
                level = .level(level)
            }
            a = level
        }

        /// A document of the given depth's levels, holding `version`, and the type's fields.
        static func document(version: Int, fields: [String: Any]) -> [String: Any] {
            var level: [String: Any] = ["version": version]
            for _ in 1..<depth {
                level = ["a": level]
            }
            return fields.merging(["a": level]) { $1 }
        }
    }

    struct AbyssV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = DeepPathSpec
        var name: String
    }

    struct Abyss: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = AbyssV1
        typealias VersionSpec = DeepPathSpec
        var name: String
        init(name: String) { self.name = name }
        init(from old: AbyssV1) { name = old.name + "+2" }
    }

    /// Reads what it can: a document that is no object has no version.
    struct LenientSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?

        init(withVersion version: Int?) { self.version = version }

        enum CodingKeys: String, CodingKey { case version }

        init(from decoder: any Decoder) throws {
            version =
                (try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .version)) ?? nil
        }
    }

    /// Documents from before versioning: a bare string, or an array of strings.
    struct ScrapV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = LenientSpec
        var lines: [String]

        init(lines: [String]) { self.lines = lines }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let line = try? container.decode(String.self) {
                lines = [line]
            } else {
                lines = try container.decode([String].self)
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(lines)
        }
    }

    struct Scrap: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = ScrapV0
        typealias VersionSpec = LenientSpec
        var lines: [String]
        var migrated: Bool
        init(lines: [String], migrated: Bool) {
            self.lines = lines
            self.migrated = migrated
        }
        init(from old: ScrapV0) { self.init(lines: old.lines, migrated: true) }
    }

    /// Version 1's spec: `_meta.v`.
    struct MetaVSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self._meta.v }
        struct Meta: Codable { var v: Int? }
        var _meta: Meta
        init(withVersion version: Int?) { _meta = Meta(v: version) }
    }

    /// Keeps its own draft label at `version`, where version 2's spec later put the number.
    struct DraftV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetaVSpec
        var version: String
        var title: String
    }

    struct Draft: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = DraftV1
        var title: String
        var draft: Int
        init(title: String, draft: Int) {
            self.title = title
            self.draft = draft
        }
        init(from old: DraftV1) throws {
            guard let draft = Int(old.version.replacingOccurrences(of: "draft-", with: "")) else {
                throw VersionedDecodingError.fieldNoLongerValid(
                    DecodingError.Context(codingPath: [], debugDescription: "No draft number in \(old.version)")
                )
            }
            self.init(title: old.title, draft: draft)
        }
        func downgraded() -> DraftV1 { DraftV1(version: "draft-\(draft)", title: title) }
    }

    /// Writes `legacy: true` beside the version, for versions older than 3 only.
    struct LegacyFlagSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.version }
        var version: Int?
        var legacy: Bool?
        init(withVersion version: Int?) {
            self.version = version
            legacy = (version ?? 0) < 3 ? true : nil
        }
    }

    struct ToolV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = LegacyFlagSpec
        var name: String
    }

    /// Has a `legacy` field of its own, where the spec writes only for older versions.
    struct Tool: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = ToolV2
        typealias VersionSpec = LegacyFlagSpec
        var name: String
        var legacy: Bool
        init(name: String, legacy: Bool) {
            self.name = name
            self.legacy = legacy
        }
        init(from old: ToolV2) { self.init(name: old.name + "+3", legacy: true) }
        func downgraded() -> ToolV2 { ToolV2(name: name) }
    }

    /// A camel-case spec property, which snake-case strategies rename.
    struct SchemaVersionSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.schemaVersion }
        var schemaVersion: Int?
        init(withVersion version: Int?) { schemaVersion = version }
    }

    struct RecipeV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SchemaVersionSpec
        var cookingTime: Int
    }

    struct Recipe: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = RecipeV1
        typealias VersionSpec = SchemaVersionSpec
        var cookingTime: Int
        var servingSize: Int
        init(cookingTime: Int, servingSize: Int) {
            self.cookingTime = cookingTime
            self.servingSize = servingSize
        }
        init(from old: RecipeV1) { self.init(cookingTime: old.cookingTime, servingSize: 0) }
    }
}

// MARK: - Other shapes

extension SpecTruth {
    /// A tree of versioned parts whose child is optional. A class, for the indirection a
    /// value type that holds itself needs.
    final class Branch: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        let child: Versioned<Branch>?
        let leaf: Int?

        init(child: Versioned<Branch>?, leaf: Int?) {
            self.child = child
            self.leaf = leaf
        }

        static func == (lhs: Branch, rhs: Branch) -> Bool {
            lhs.leaf == rhs.leaf && lhs.child?.wrappedValue == rhs.child?.wrappedValue
                && lhs.child?.storedVersion == rhs.child?.storedVersion
        }

        static func tree(depth: Int) -> Branch {
            var node = Branch(child: nil, leaf: depth)
            for _ in 1..<depth {
                node = Branch(child: Versioned(node), leaf: nil)
            }
            return node
        }

        var depth: Int {
            var depth = 1
            var node = self
            while let child = node.child {
                depth += 1
                node = child.wrappedValue
            }
            return depth
        }
    }

    struct Score: Codable, Equatable {
        var points: Int
        var bestRound: Int
    }

    /// A root that is a dictionary of scores, keyed by names that are data.
    struct Scoreboard: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        var scores: [String: Score]

        init(scores: [String: Score]) { self.scores = scores }
        init(from decoder: any Decoder) throws {
            scores = try decoder.singleValueContainer().decode([String: Score].self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(scores)
        }
    }

    /// Encodes as a single string, which cannot hold a version.
    struct Stamp: VersionedCodable, Equatable {
        static let version: Int? = 37
        typealias PreviousVersion = NothingEarlier
        var text: String
        init(text: String) { self.text = text }
        init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
    }

    /// Encodes as an array, which cannot hold a version.
    struct Roster: VersionedCodable, Equatable {
        static let version: Int? = 41
        typealias PreviousVersion = NothingEarlier
        var names: [String]
        init(names: [String]) { self.names = names }
        init(from decoder: any Decoder) throws { names = try decoder.singleValueContainer().decode([String].self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for name in names {
                try container.encode(name)
            }
        }
    }

    /// A small document of several kinds of values, and its plain twin, for damaged bytes.
    struct Sample: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var title: String
        var count: Int
        var ratio: Double
        var tags: [String]
    }

    struct PlainSample: Codable, Equatable {
        var version: Int
        var title: String
        var count: Int
        var ratio: Double
        var tags: [String]
    }

    /// The default spec's chain for the first-use orders.
    struct MemoV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var note: String
    }

    struct Memo: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = MemoV1
        var note: String
        init(note: String) { self.note = note }
        init(from old: MemoV1) { note = old.note + "+2" }
    }
}
