import Foundation
import VersionedCodable

/// One row of the performance table: a versioned operation beside its two floors.
///
/// All three closures do the same work on the same bytes with coders configured the same way.
/// The plain floor is a `Codable` struct with the same fields and no version; the "plain +
/// version" floor is the same struct with the version as one more field, the least work any
/// versioned decode or encode can do. Each closure checks its result, so that none can be
/// optimised away and a broken decode stops the run instead of producing a fast, wrong figure.
public struct RatioCase: Sendable {
    /// A short identifier, also the benchmark's name.
    public let name: String
    /// What the row measures, as the table shows it.
    public let title: String
    /// The figure the 1.2 line measured for this row against the plain floor, as text.
    public let oldFigure: String
    /// The highest acceptable median ratio of versioned to plain time.
    public let goal: Double
    /// The highest acceptable median ratio of versioned to "plain + version" time, where the
    /// row has such a goal.
    public let goalWithVersion: Double?
    /// How many more allocations a versioned operation may make than the "plain + version"
    /// floor, where the row has such a goal.
    public let allocationAllowance: Int?
    /// One plain `Codable` operation.
    public let floor: @Sendable () throws -> Void
    /// The plain operation with the version as one more field, where the row has it.
    public let floorWithVersion: (@Sendable () throws -> Void)?
    /// The same operation with versioning.
    public let versioned: @Sendable () throws -> Void
    /// The same operation done as VersionedCodable 1.2 did it (see `OneTwoMethod`), where 1.2
    /// could do it: a reference for the reader, with no threshold of its own.
    public var oneTwoMethod: (@Sendable () throws -> Void)? = nil
    /// 1.2's method with the least check a writer that watches the spec's keys makes (see
    /// `OneTwoMethod.encodeWatchingKeys`), where the row encodes: the floor of any design that
    /// refuses a clash rather than overwrite, with no threshold.
    public var oneTwoMethodWatchingKeys: (@Sendable () throws -> Void)? = nil
}

/// Thrown when a benchmarked operation returns something other than what it should.
public struct WrongBenchmarkResult: Error, CustomStringConvertible {
    /// Which case went wrong.
    public let description: String
}

private func expect(_ condition: Bool, _ what: String) throws {
    if !condition {
        throw WrongBenchmarkResult(description: what)
    }
}

/// The documents every case reads, encoded once with the library itself.
public enum BenchmarkDocuments {
    /// ``Article/sample`` as versioned JSON, about 2 KB.
    public static let articleJSON = try! JSONEncoder().encode(versioned: Article.sample)
    /// ``Note/sample`` as versioned JSON, about 200 bytes.
    public static let noteJSON = try! JSONEncoder().encode(versioned: Note.sample)
    /// ``Note/sample`` as a versioned binary property list.
    public static let noteBinaryPlist: Data = {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try! encoder.encode(versioned: Note.sample)
    }()
    /// ``Note/sample`` as a versioned XML property list.
    public static let noteXMLPlist: Data = {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        return try! encoder.encode(versioned: Note.sample)
    }()
    /// ``NoteNext/sample`` as versioned JSON, which builds of ``Note`` may read.
    public static let newerNoteJSON = try! JSONEncoder().encode(versioned: NoteNext.sample)
    /// A 24-byte document of the oldest counter step: decoding it as ``CounterChainNewest``
    /// runs every migration.
    public static let oldestCounterJSON = Data(#"{"count":17,"version":0}"#.utf8)
}

extension RatioCase {
    /// Every row of the table, in the order the table prints them.
    ///
    /// - Parameter itemCount: How many notes the `[Versioned<Note>]` row's document holds. The
    ///   table's figure is for 100,000 (about 20 MB); the instruction gate uses fewer, since
    ///   the cost per element does not depend on the count.
    /// - Returns: The rows.
    public static func all(itemCount: Int = 100_000) -> [RatioCase] {
        [
            jsonDecodeArticle,
            jsonDecodeNote,
            plistDecode(format: .binary, old: "1.35x"),
            plistDecode(format: .xml, old: "1.45x"),
            jsonEncodeArticle,
            jsonEncodeNote,
            counterChain,
            versionedArray(itemCount: itemCount),
            jsonDecodeNewerNote,
            jsonDecodeMetadataNote,
            jsonEncodeMetadataNote,
            apiRead,
            apiWrite,
            apiMerge,
        ]
    }

    /// The names of the rows, without building their documents.
    public static let names = [
        "json-decode-2kb", "json-decode-200b", "plist-binary-decode-200b", "plist-xml-decode-200b",
        "json-encode-2kb", "json-encode-200b", "chain-\(counterChainSteps)-steps", "versioned-array-decode",
        "json-decode-newer-200b", "json-decode-metadata-200b", "json-encode-metadata-200b",
        "api-read-200b", "api-write-200b", "api-merge-200b",
    ]

    private static let jsonDecodeArticle: RatioCase = {
        let data = BenchmarkDocuments.articleJSON
        let plainDecoder = JSONDecoder()
        let withVersionDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        let oneTwoDecoder = JSONDecoder()
        let expectedReads = Article.sample.reads
        return RatioCase(
            name: "json-decode-2kb",
            title: "JSON decode, current, 2 KB (\(data.count) B)",
            oldFigure: "1.31x",
            goal: 1.05,
            goalWithVersion: 1.02,
            allocationAllowance: 0,
            floor: {
                let article = try plainDecoder.decode(PlainArticle.self, from: data)
                try expect(article.reads == expectedReads, "plain article")
            },
            floorWithVersion: {
                let article = try withVersionDecoder.decode(PlainArticleWithVersion.self, from: data)
                try expect(article.reads == expectedReads && article.version == 2, "plain article with version")
            },
            versioned: {
                let article = try versionedDecoder.decode(versioned: Article.self, from: data)
                try expect(article.reads == expectedReads, "versioned article")
            },
            oneTwoMethod: {
                let article = try OneTwoMethod.decode(Article.self, from: data) {
                    try oneTwoDecoder.decode($0, from: $1)
                }
                try expect(article.reads == expectedReads, "1.2's article")
            }
        )
    }()

    /// A document of the next version, read by a build that knows ``Note`` as its newest: the
    /// floors are plain decodes of the older type from the same bytes, which drop the unknown
    /// fields, and the versioned decode keeps them.
    private static let jsonDecodeNewerNote: RatioCase = {
        let data = BenchmarkDocuments.newerNoteJSON
        let plainDecoder = JSONDecoder()
        let withVersionDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        return RatioCase(
            name: "json-decode-newer-200b",
            title: "JSON decode of a newer compatible version, unknown fields kept, \(data.count) B",
            oldFigure: "—",
            goal: 1.30,
            goalWithVersion: nil,
            allocationAllowance: nil,
            floor: {
                let note = try plainDecoder.decode(PlainNote.self, from: data)
                try expect(note.id == 7_301, "plain note from a newer document")
            },
            floorWithVersion: {
                let note = try withVersionDecoder.decode(PlainNoteWithVersion.self, from: data)
                try expect(note.id == 7_301 && note.version == 3, "plain note with version from a newer document")
            },
            versioned: {
                let note = try versionedDecoder.decode(Versioned<Note>.self, from: data)
                try expect(
                    note.wrappedValue.id == 7_301 && note.isFromNewerVersion,
                    "newer note read by an older build"
                )
            }
        )
    }()

    private static let jsonDecodeNote: RatioCase = {
        let data = BenchmarkDocuments.noteJSON
        let plainDecoder = JSONDecoder()
        let withVersionDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        let oneTwoDecoder = JSONDecoder()
        return RatioCase(
            name: "json-decode-200b",
            title: "JSON decode, current, 200 B (\(data.count) B)",
            oldFigure: "1.54x",
            goal: 1.10,
            goalWithVersion: 1.04,
            allocationAllowance: 0,
            floor: {
                let note = try plainDecoder.decode(PlainNote.self, from: data)
                try expect(note.id == 7_301, "plain note")
            },
            floorWithVersion: {
                let note = try withVersionDecoder.decode(PlainNoteWithVersion.self, from: data)
                try expect(note.id == 7_301 && note.version == 2, "plain note with version")
            },
            versioned: {
                let note = try versionedDecoder.decode(versioned: Note.self, from: data)
                try expect(note.id == 7_301, "versioned note")
            },
            oneTwoMethod: {
                let note = try OneTwoMethod.decode(Note.self, from: data) { try oneTwoDecoder.decode($0, from: $1) }
                try expect(note.id == 7_301, "1.2's note")
            }
        )
    }()

    private static func plistDecode(
        format: PropertyListSerialization.PropertyListFormat,
        old: String
    ) -> RatioCase {
        let isBinary = format == .binary
        let data = isBinary ? BenchmarkDocuments.noteBinaryPlist : BenchmarkDocuments.noteXMLPlist
        let plainDecoder = PropertyListDecoder()
        let withVersionDecoder = PropertyListDecoder()
        let versionedDecoder = PropertyListDecoder()
        let oneTwoDecoder = PropertyListDecoder()
        let kind = isBinary ? "binary" : "xml"
        return RatioCase(
            name: "plist-\(kind)-decode-200b",
            title: "Property list (\(kind)) decode, 200 B shape (\(data.count) B)",
            oldFigure: old,
            goal: 1.10,
            goalWithVersion: 1.04,
            allocationAllowance: 0,
            floor: {
                let note = try plainDecoder.decode(PlainNote.self, from: data)
                try expect(note.id == 7_301, "plain \(kind) note")
            },
            floorWithVersion: {
                let note = try withVersionDecoder.decode(PlainNoteWithVersion.self, from: data)
                try expect(note.id == 7_301 && note.version == 2, "plain \(kind) note with version")
            },
            versioned: {
                let note = try versionedDecoder.decode(versioned: Note.self, from: data)
                try expect(note.id == 7_301, "versioned \(kind) note")
            },
            oneTwoMethod: {
                let note = try OneTwoMethod.decode(Note.self, from: data) { try oneTwoDecoder.decode($0, from: $1) }
                try expect(note.id == 7_301, "1.2's \(kind) note")
            }
        )
    }

    private static let jsonEncodeArticle: RatioCase = {
        let versionedValue = Article.sample
        let plainValue = PlainArticle(versionedValue)
        let withVersionValue = PlainArticleWithVersion(versionedValue)
        let plainEncoder = JSONEncoder()
        let withVersionEncoder = JSONEncoder()
        let versionedEncoder = JSONEncoder()
        let oneTwoEncoder = JSONEncoder()
        let minimumSize = BenchmarkDocuments.articleJSON.count - 16
        return RatioCase(
            name: "json-encode-2kb",
            title: "JSON encode, 2 KB (clash and mirror checks on)",
            oldFigure: "1.04x",
            goal: 1.04,
            goalWithVersion: 1.02,
            allocationAllowance: 1,
            floor: {
                let data = try plainEncoder.encode(plainValue)
                try expect(data.count >= minimumSize, "plain article encode")
            },
            floorWithVersion: {
                let data = try withVersionEncoder.encode(withVersionValue)
                try expect(data.count >= minimumSize, "plain article with version encode")
            },
            versioned: {
                let data = try versionedEncoder.encode(versioned: versionedValue)
                try expect(data.count >= minimumSize, "versioned article encode")
            },
            oneTwoMethod: {
                let data = try OneTwoMethod.encode(versionedValue) { try oneTwoEncoder.encode($0) }
                try expect(data.count >= minimumSize, "1.2's article encode")
            },
            oneTwoMethodWatchingKeys: {
                let data = try OneTwoMethod.encodeWatchingKeys(versionedValue) { try oneTwoEncoder.encode($0) }
                try expect(data.count >= minimumSize, "1.2's article encode watching keys")
            }
        )
    }()

    private static let jsonEncodeNote: RatioCase = {
        let versionedValue = Note.sample
        let plainValue = PlainNote(versionedValue)
        let withVersionValue = PlainNoteWithVersion(versionedValue)
        let plainEncoder = JSONEncoder()
        let withVersionEncoder = JSONEncoder()
        let versionedEncoder = JSONEncoder()
        let oneTwoEncoder = JSONEncoder()
        let minimumSize = BenchmarkDocuments.noteJSON.count - 16
        return RatioCase(
            name: "json-encode-200b",
            title: "JSON encode, 200 B (clash and mirror checks on)",
            oldFigure: "1.10x",
            goal: 1.09,
            goalWithVersion: 1.04,
            allocationAllowance: 1,
            floor: {
                let data = try plainEncoder.encode(plainValue)
                try expect(data.count >= minimumSize, "plain note encode")
            },
            floorWithVersion: {
                let data = try withVersionEncoder.encode(withVersionValue)
                try expect(data.count >= minimumSize, "plain note with version encode")
            },
            versioned: {
                let data = try versionedEncoder.encode(versioned: versionedValue)
                try expect(data.count >= minimumSize, "versioned note encode")
            },
            oneTwoMethod: {
                let data = try OneTwoMethod.encode(versionedValue) { try oneTwoEncoder.encode($0) }
                try expect(data.count >= minimumSize, "1.2's note encode")
            },
            oneTwoMethodWatchingKeys: {
                let data = try OneTwoMethod.encodeWatchingKeys(versionedValue) { try oneTwoEncoder.encode($0) }
                try expect(data.count >= minimumSize, "1.2's note encode watching keys")
            }
        )
    }()

    private static let counterChain: RatioCase = {
        let data = BenchmarkDocuments.oldestCounterJSON
        let plainDecoder = JSONDecoder()
        let withVersionDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        let oneTwoDecoder = JSONDecoder()
        let steps = counterChainSteps
        return RatioCase(
            name: "chain-\(steps)-steps",
            title: "\(steps)-step chain of trivial migrations, \(data.count) B",
            oldFigure: "3.08x",
            goal: 1.30,
            goalWithVersion: nil,
            allocationAllowance: nil,
            floor: {
                let counter = try plainDecoder.decode(PlainCounter.self, from: data)
                try expect(counter.count == 17, "plain counter")
            },
            floorWithVersion: {
                let counter = try withVersionDecoder.decode(PlainCounterWithVersion.self, from: data)
                try expect(counter.count == 17 && counter.version == 0, "plain counter with version")
            },
            versioned: {
                let counter = try versionedDecoder.decode(versioned: CounterChainNewest.self, from: data)
                try expect(counter.count == 17 + steps, "migrated counter")
            },
            oneTwoMethod: {
                let counter = try OneTwoMethod.decode(CounterChainNewest.self, from: data) {
                    try oneTwoDecoder.decode($0, from: $1)
                }
                try expect(counter.count == 17 + steps, "1.2's migrated counter")
            }
        )
    }()

    private static func versionedArray(itemCount: Int) -> RatioCase {
        let notes = (0..<itemCount).map { index in
            var note = Note.sample
            note.id = index
            return Versioned(note)
        }
        let data = try! JSONEncoder().encode(notes)
        let plainDecoder = JSONDecoder()
        let withVersionDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        let last = itemCount - 1
        return RatioCase(
            name: "versioned-array-decode",
            title: "`[Versioned<Note>]`, \(itemCount) items of 200 B (\(data.count / 1_000) KB)",
            oldFigure: "—",
            goal: 1.10,
            goalWithVersion: 1.04,
            allocationAllowance: nil,
            floor: {
                let notes = try plainDecoder.decode([PlainNote].self, from: data)
                try expect(notes.count == itemCount && notes[last].id == last, "plain notes")
            },
            floorWithVersion: {
                let notes = try withVersionDecoder.decode([PlainNoteWithVersion].self, from: data)
                try expect(notes.count == itemCount && notes[last].version == 2, "plain notes with version")
            },
            versioned: {
                let notes = try versionedDecoder.decode([Versioned<Note>].self, from: data)
                try expect(notes.count == itemCount && notes[last].wrappedValue.id == last, "versioned notes")
            }
        )
    }
}
