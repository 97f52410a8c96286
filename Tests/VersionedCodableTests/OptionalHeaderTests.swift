import Foundation
import Testing
import VersionedCodable

// A type whose optional header shares the spec's object (`_metadata`, with the version at
// `_metadata.version`) and that writes it as `null` while it is `nil` reads its own document
// back: an object that holds only what the spec wrote is the `nil` header.

@Suite("An optional header where the spec writes")
struct OptionalHeaderTests {
    struct Document: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Meta: Codable, Equatable { var owner: String }
        var _metadata: Meta?
        var body: String

        enum CodingKeys: String, CodingKey { case _metadata, body }

        init(meta: Meta?, body: String) {
            _metadata = meta
            self.body = body
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _metadata = try container.decode(Meta?.self, forKey: ._metadata)
            body = try container.decode(String.self, forKey: .body)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_metadata, forKey: ._metadata)
            try container.encode(body, forKey: .body)
        }
    }

    /// Writes its header with `encodeNil` while it is `nil`, and asks `decodeNil` whether it is:
    /// a header whose fields are all optional would read as one with no owner otherwise.
    struct AskingDocument: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        struct Meta: Codable, Equatable { var owner: String? }
        var _metadata: Meta?
        var body: String

        enum CodingKeys: String, CodingKey { case _metadata, body }

        init(meta: Meta?, body: String) {
            _metadata = meta
            self.body = body
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let isNil = try container.decodeNil(forKey: ._metadata)
            _metadata = isNil ? nil : try container.decode(Meta.self, forKey: ._metadata)
            body = try container.decode(String.self, forKey: .body)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let _metadata {
                try container.encode(_metadata, forKey: ._metadata)
            } else {
                try container.encodeNil(forKey: ._metadata)
            }
            try container.encode(body, forKey: .body)
        }
    }

    /// Leaves its header out while it is `nil`, and asks `contains` whether it is there.
    struct CheckingDocument: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = DeepVersionSpec
        struct Format: Codable, Equatable { var note: String? }
        struct Header: Codable, Equatable {
            var format: Format?
            var owner: String?

            init(format: Format?, owner: String?) {
                self.format = format
                self.owner = owner
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                format = container.contains(.format) ? try container.decode(Format.self, forKey: .format) : nil
                owner = try container.decodeIfPresent(String.self, forKey: .owner)
            }
        }
        var header: Header?
        var body: String

        init(header: Header?, body: String) {
            self.header = header
            self.body = body
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            header = container.contains(.header) ? try container.decode(Header.self, forKey: .header) : nil
            body = try container.decode(String.self, forKey: .body)
        }
    }

    @Test(
        "A header left out while nil is not there to contains, at every depth, in every format",
        arguments: SpecTruth.Format.allCases
    )
    func headerAskedWithContains(format: SpecTruth.Format) throws {
        let values = [
            CheckingDocument(header: nil, body: "x"),
            CheckingDocument(header: .init(format: nil, owner: "ann"), body: "y"),
            CheckingDocument(header: .init(format: .init(note: "n"), owner: nil), body: "z"),
        ]
        for value in values {
            let written = try format.write(value)
            #expect(try format.readValue(CheckingDocument.self, written) == value)
        }
    }

    @Test("A header written with encodeNil is nil to decodeNil, in every format", arguments: SpecTruth.Format.allCases)
    func headerAskedWithDecodeNil(format: SpecTruth.Format) throws {
        let values = [
            AskingDocument(meta: nil, body: "x"),
            AskingDocument(meta: .init(owner: "ann"), body: "y"),
        ]
        for value in values {
            let written = try format.write(value)
            #expect(try format.readValue(AskingDocument.self, written) == value)
        }
    }

    @Test("A header written as null while nil reads back as nil, in every format", arguments: SpecTruth.Format.allCases)
    func nullHeaderReadsBack(format: SpecTruth.Format) throws {
        for value in [Document(meta: nil, body: "x"), Document(meta: .init(owner: "ann"), body: "y")] {
            let written = try format.write(value)
            #expect(try format.readValue(Document.self, written) == value)
        }
    }
}
