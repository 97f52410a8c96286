import Foundation
import VersionedCodable

/// One row of the performance table: a versioned operation beside its plain `Codable` floor.
///
/// Both closures do the same work on the same bytes with coders configured the same way; the
/// only difference is versioning. Each checks its result, so that neither can be optimised
/// away and a broken decode stops the run instead of producing a fast, wrong figure.
public struct RatioCase: Sendable {
    /// A short identifier, also the benchmark's name.
    public let name: String
    /// What the row measures, as the table shows it.
    public let title: String
    /// The figure the 1.2 line measured for this row, as text.
    public let oldFigure: String
    /// The highest acceptable median ratio of versioned to plain time.
    public let goal: Double
    /// Whether the row counts allocations against the "plain + 5" goal.
    public let checksAllocations: Bool
    /// One plain `Codable` operation.
    public let floor: @Sendable () throws -> Void
    /// The same operation with versioning.
    public let versioned: @Sendable () throws -> Void
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
    /// A 24-byte document of the oldest counter step: decoding it as ``CounterChainNewest``
    /// runs every migration.
    public static let oldestCounterJSON = Data(#"{"count":17,"version":0}"#.utf8)
}

extension RatioCase {
    /// Every row of the table, in the order the table prints them.
    public static let all: [RatioCase] = [
        jsonDecode(
            name: "json-decode-2kb",
            title: "JSON decode, current version, 2 KB",
            old: "1.31x",
            goal: 1.05
        ),
        jsonDecodeNote,
        plistDecode(format: .binary, old: "1.35x"),
        plistDecode(format: .xml, old: "1.45x"),
        jsonEncodeArticle,
        jsonEncodeNote,
        counterChain,
    ]

    private static func jsonDecode(name: String, title: String, old: String, goal: Double) -> RatioCase {
        let data = BenchmarkDocuments.articleJSON
        let plainDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        let expectedReads = Article.sample.reads
        return RatioCase(
            name: name,
            title: "\(title) (\(data.count) B)",
            oldFigure: old,
            goal: goal,
            checksAllocations: true,
            floor: {
                let article = try plainDecoder.decode(PlainArticle.self, from: data)
                try expect(article.reads == expectedReads, "plain article")
            },
            versioned: {
                let article = try versionedDecoder.decode(versioned: Article.self, from: data)
                try expect(article.reads == expectedReads, "versioned article")
            }
        )
    }

    private static let jsonDecodeNote: RatioCase = {
        let data = BenchmarkDocuments.noteJSON
        let plainDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        return RatioCase(
            name: "json-decode-200b",
            title: "JSON decode, current version, 200 B (\(data.count) B)",
            oldFigure: "1.54x",
            goal: 1.10,
            checksAllocations: true,
            floor: {
                let note = try plainDecoder.decode(PlainNote.self, from: data)
                try expect(note.id == 7_301, "plain note")
            },
            versioned: {
                let note = try versionedDecoder.decode(versioned: Note.self, from: data)
                try expect(note.id == 7_301, "versioned note")
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
        let versionedDecoder = PropertyListDecoder()
        let kind = isBinary ? "binary" : "xml"
        return RatioCase(
            name: "plist-\(kind)-decode-200b",
            title: "Property list (\(kind)) decode, current, 200 B shape (\(data.count) B)",
            oldFigure: old,
            goal: 1.10,
            checksAllocations: true,
            floor: {
                let note = try plainDecoder.decode(PlainNote.self, from: data)
                try expect(note.id == 7_301, "plain \(kind) note")
            },
            versioned: {
                let note = try versionedDecoder.decode(versioned: Note.self, from: data)
                try expect(note.id == 7_301, "versioned \(kind) note")
            }
        )
    }

    private static let jsonEncodeArticle: RatioCase = {
        let versionedValue = Article.sample
        let plainValue = PlainArticle(versionedValue)
        let plainEncoder = JSONEncoder()
        let versionedEncoder = JSONEncoder()
        let minimumSize = BenchmarkDocuments.articleJSON.count - 16
        return RatioCase(
            name: "json-encode-2kb",
            title: "JSON encode, versioned vs plain, 2 KB",
            oldFigure: "1.04x",
            goal: 1.05,
            checksAllocations: false,
            floor: {
                let data = try plainEncoder.encode(plainValue)
                try expect(data.count >= minimumSize, "plain article encode")
            },
            versioned: {
                let data = try versionedEncoder.encode(versioned: versionedValue)
                try expect(data.count >= minimumSize, "versioned article encode")
            }
        )
    }()

    private static let jsonEncodeNote: RatioCase = {
        let versionedValue = Note.sample
        let plainValue = PlainNote(versionedValue)
        let plainEncoder = JSONEncoder()
        let versionedEncoder = JSONEncoder()
        let minimumSize = BenchmarkDocuments.noteJSON.count - 16
        return RatioCase(
            name: "json-encode-200b",
            title: "JSON encode, versioned vs plain, 200 B",
            oldFigure: "1.10x",
            goal: 1.10,
            checksAllocations: false,
            floor: {
                let data = try plainEncoder.encode(plainValue)
                try expect(data.count >= minimumSize, "plain note encode")
            },
            versioned: {
                let data = try versionedEncoder.encode(versioned: versionedValue)
                try expect(data.count >= minimumSize, "versioned note encode")
            }
        )
    }()

    private static let counterChain: RatioCase = {
        let data = BenchmarkDocuments.oldestCounterJSON
        let plainDecoder = JSONDecoder()
        let versionedDecoder = JSONDecoder()
        let steps = counterChainSteps
        return RatioCase(
            name: "chain-\(steps)-steps",
            title: "\(steps)-step chain of trivial migrations, \(data.count) B, vs plain decode",
            oldFigure: "3.08x",
            goal: 1.50,
            checksAllocations: false,
            floor: {
                let counter = try plainDecoder.decode(PlainCounter.self, from: data)
                try expect(counter.count == 17, "plain counter")
            },
            versioned: {
                let counter = try versionedDecoder.decode(versioned: CounterChainNewest.self, from: data)
                try expect(counter.count == 17 + steps, "migrated counter")
            }
        )
    }()
}
