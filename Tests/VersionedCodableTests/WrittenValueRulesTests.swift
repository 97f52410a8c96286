import Foundation
import Testing
import VersionedCodable

// What decides a write is what is written: a key as the encoder's key strategy writes it, with
// its integer value; a value by the single value it writes; a dictionary by its entries, whatever
// its values' types.

@Suite("Written values and keys, as the coder writes them")
struct WrittenValueRulesTests {
    /// Names keys by their integer values where they have one: 7 is `version`, others `k<n>`.
    static let byIntegerValue = JSONEncoder.KeyEncodingStrategy.custom { path in
        let key = path.last!
        switch key.intValue {
        case 7?: return HandWrittenKeyTypesTests.AnyKey("version")
        case let value?: return HandWrittenKeyTypesTests.AnyKey("k\(value)")
        case nil: return HandWrittenKeyTypesTests.AnyKey(key.stringValue)
        }
    }

    struct Ticket: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        var title: String
        var revision: Int
        enum CodingKeys: Int, CodingKey { case title = 1, revision = 7 }
    }

    struct Memo: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Editor: Codable, Equatable { var editor: String }
        var title: String
        var _metadata: Editor
        enum CodingKeys: Int, CodingKey { case title = 1, _metadata = 3 }
    }

    /// Opens its `_metadata` (3) with `nestedContainer`.
    struct OpenedMemo: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var editor: String
        init(editor: String) { self.editor = editor }
        init(from decoder: any Decoder) throws { editor = "" }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Memo.CodingKeys.self)
            var metadata = container.nestedContainer(keyedBy: Memo.CodingKeys.self, forKey: ._metadata)
            try metadata.encode(editor, forKey: .title)
        }
    }

    @Test("A custom key strategy that reads a key's integer value is asked with it")
    func integerKeysUnderCustomStrategy() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = Self.byIntegerValue
        // The strategy writes `revision` (7) as `version`: it would have been replaced by the
        // version.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try encoder.encode(versioned: Ticket(title: "T", revision: 99))
        }
        // It writes the type's `_metadata` (3) as `k3`, and the spec's `_metadata` as it is:
        // the version would have gone into the type's object, under `k3`.
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try encoder.encode(versioned: Memo(title: "T", _metadata: .init(editor: "Ada")))
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try encoder.encode(versioned: OpenedMemo(editor: "Ada"))
        }
        // Without the strategy, both are written as a plain encode writes them.
        let plain = try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(versioned: Memo(title: "T", _metadata: .init(editor: "Ada")))
        )
        #expect((plain as? NSDictionary) == ["title": "T", "_metadata": ["editor": "Ada", "version": 2]])
    }

    /// Keeps the version at `_metadata.version`, and writes `format: "invoice"` beside it.
    struct InvoiceSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self._metadata.version }
        init(withVersion version: Int?) {
            _metadata = Metadata(version: version)
            format = "invoice"
        }
        struct Metadata: Codable { var version: Int? }
        var _metadata: Metadata
        var format: String
    }

    enum Format: String, Codable { case invoice, receipt }

    struct Invoice: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = InvoiceSpec
        var total: Int
        var format: Format
    }

    /// Leaves the format to its spec.
    struct FormatlessInvoice: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = InvoiceSpec
        var total: Int
    }

    @Test("A value where the spec writes its constant is refused, even one that writes the same string")
    func enumWritingTheSpecsString() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Another case writes another string, which the spec's would replace; the same string
        // would be the spec's on reading, not the type's.
        for format in [Format.invoice, .receipt] {
            #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
                try encoder.encode(versioned: Invoice(total: 5, format: format))
            }
            #expect {
                try encoder.encode([Versioned(Invoice(total: 5, format: format))])
            } throws: { error in
                (error as? EncodingError).map {
                    guard case .invalidValue(_, let context) = $0 else { return false }
                    return context.underlyingError as? VersionedEncodingError == .typeHasClashingVersionField
                } ?? false
            }
        }
        let invoice = FormatlessInvoice(total: 5)
        let data = try encoder.encode(versioned: invoice)
        #expect(String(decoding: data, as: UTF8.self) == #"{"_metadata":{"version":1},"format":"invoice","total":5}"#)
        #expect(try JSONDecoder().decode(versioned: FormatlessInvoice.self, from: data) == invoice)
    }

    struct Counts: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
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

    /// Forwards its encoding to a part whose spec keeps the version elsewhere.
    struct Report: VersionedCodable, Equatable {
        static let version: Int? = 5
        typealias PreviousVersion = NothingEarlier
        var part: Counts
        init(part: Counts) { self.part = part }
        init(from decoder: any Decoder) throws {
            part = try decoder.singleValueContainer().decode(Versioned<Counts>.self).wrappedValue
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Versioned(part))
        }
    }

    /// Writes a dictionary whose values are only `Encodable`.
    struct Labels: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        struct Label: Encodable { var text: String }
        var labels: [String: String]
        init(labels: [String: String]) { self.labels = labels }
        init(from decoder: any Decoder) throws { labels = try [String: String](from: decoder) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(labels.mapValues(Label.init))
        }
    }

    @Test("A dictionary's entries keep their keys under a key strategy, whichever writer merges it")
    func dictionaryEntriesUnderKeyStrategy() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let report = Report(part: Counts(counts: ["pageViews": 3, "a": 1]))
        let data = try encoder.encode(versioned: report)
        #expect(
            String(decoding: data, as: UTF8.self) == #"{"_metadata":{"version":2},"a":1,"pageViews":3,"version":5}"#
        )
        let labels = try encoder.encode(versioned: Labels(labels: ["firstLine": "x"]))
        #expect(String(decoding: labels, as: UTF8.self) == #"{"firstLine":{"text":"x"},"version":1}"#)
    }
}
