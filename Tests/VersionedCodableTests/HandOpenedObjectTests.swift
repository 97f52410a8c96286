import Foundation
import Testing
import VersionedCodable

// An object a type opens by hand (`nestedContainer`, `superEncoder`) where the spec writes one
// (`_metadata` under a `_metadata.version` spec) may be an optional's value: nothing tells the
// writer. It is written when it holds a key of the type's own, of any kind, and refused only
// when it holds nothing but the spec's; under a key strategy, a key of the type's there that
// the strategy makes one of the spec's is refused, as it is anywhere else.

@Suite("What a type writes in an object it opens by hand where the spec writes")
struct HandOpenedObjectTests {
    /// What the type writes in `_metadata`, beside the spec's version.
    enum Content: CaseIterable, Sendable {
        /// `encodeNil(forKey:)`: a `null` of its own.
        case null
        /// `encodeIfPresent(_:forKey:)` with a value of a type with no typed overload.
        case presentDate
        /// An object of its own, opened with `nestedContainer(keyedBy:forKey:)`.
        case nestedObject
        /// An object of its own, through `superEncoder(forKey:)`.
        case superObject
        /// Nothing: the object would read back as the spec's alone.
        case nothing
    }

    enum Opening: CaseIterable, Sendable { case nestedContainer, superEncoder }

    enum Keys: String, CodingKey { case _metadata, title, owner, stamp, details, by }

    /// Writes a title, and `content` in a `_metadata` it opens by hand.
    struct Stamped: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var title: String
        var content: Content
        var opening: Opening

        init(title: String, content: Content, opening: Opening) {
            self.title = title
            self.content = content
            self.opening = opening
        }

        /// Reads which content was written from the keys it finds; the opening is not written.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            title = try container.decode(String.self, forKey: .title)
            opening = .nestedContainer
            let metadata = try container.nestedContainer(keyedBy: Keys.self, forKey: ._metadata)
            if metadata.contains(.owner) {
                content = try metadata.decodeNil(forKey: .owner) ? .null : .nothing
            } else if metadata.contains(.stamp) {
                _ = try metadata.decode(Date.self, forKey: .stamp)
                content = .presentDate
            } else if metadata.contains(.details) {
                let details = try metadata.nestedContainer(keyedBy: Keys.self, forKey: .details)
                content = try details.decode(String.self, forKey: .by) == "nested" ? .nestedObject : .superObject
            } else {
                content = .nothing
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(title, forKey: .title)
            var metadata =
                opening == .superEncoder
                ? container.superEncoder(forKey: ._metadata).container(keyedBy: Keys.self)
                : container.nestedContainer(keyedBy: Keys.self, forKey: ._metadata)
            switch content {
            case .null:
                try metadata.encodeNil(forKey: .owner)
            case .presentDate:
                try metadata.encodeIfPresent(Date(timeIntervalSince1970: 0) as Date?, forKey: .stamp)
            case .nestedObject:
                var details = metadata.nestedContainer(keyedBy: Keys.self, forKey: .details)
                try details.encode("nested", forKey: .by)
            case .superObject:
                var details = metadata.superEncoder(forKey: .details).container(keyedBy: Keys.self)
                try details.encode("super", forKey: .by)
            case .nothing:
                break
            }
        }
    }

    @Test(
        "A key of the type's own of any kind makes the object its own: written, and read back",
        arguments: Content.allCases.filter { $0 != .nothing },
        Opening.allCases
    )
    func ownKeyOfAnyKind(content: Content, opening: Opening) throws {
        let value = Stamped(title: "t", content: content, opening: opening)
        for (name, encode) in VersionPlacementTests.formats {
            let data = try value.encodeTransparently(using: encode)
            let object = try VersionPlacementTests.object(data)
            let metadata = try #require(object["_metadata"] as? [String: Any], "\(name)")
            #expect(metadata["version"] as? Int == 3, "\(name)")
            let read = try VersionPlacementTests.decode(Stamped.self, data)
            #expect(read.wrappedValue == Stamped(title: "t", content: content, opening: .nestedContainer), "\(name)")
        }
    }

    @Test("An object opened by hand that holds only the spec's keys is refused", arguments: Opening.allCases)
    func nothingOfItsOwn(opening: Opening) throws {
        let value = Stamped(title: "t", content: .nothing, opening: opening)
        for (name, encode) in VersionPlacementTests.formats {
            #expect(throws: (any Error).self, "\(name)") { try value.encodeTransparently(using: encode) }
        }
    }

    @Test("Each key the spec writes is written once, wherever the type opened its object")
    func specKeysWrittenOnce() throws {
        // `KeyOrderEncoder`'s super encoders forget their path, so only nested containers are
        // listed here.
        for content in Content.allCases where content != .nothing && content != .superObject {
            let value = Stamped(title: "t", content: content, opening: .nestedContainer)
            let writes = try value.encodeTransparently(returning: { try KeyOrderEncoder.keys(writtenBy: $0) })
            #expect(writes.filter { $0 == "_metadata.version" }.count == 1, "\(content): \(writes)")
        }
    }

    /// Keeps its version at `_metadata.schemaVersion`, and writes `schema_version` of its own
    /// there: a key that `.convertToSnakeCase` makes the spec's.
    struct CamelKeyed: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = CamelMetadataSpec
        var title: String
        /// Whether `_metadata` is opened by hand, rather than written as a struct.
        var opensMetadata: Bool
        /// Whether `schema_version` is an object of its own, rather than a string.
        var asObject = false

        struct Metadata: Codable { var schema_version: String }
        enum CodingKeys: String, CodingKey { case _metadata, title, schema_version }

        init(title: String, opensMetadata: Bool, asObject: Bool = false) {
            self.title = title
            self.opensMetadata = opensMetadata
            self.asObject = asObject
        }

        init(from decoder: any Decoder) throws {
            title = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .title)
            opensMetadata = false
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            guard opensMetadata else {
                return try container.encode(Metadata(schema_version: "mine"), forKey: ._metadata)
            }
            var metadata = container.nestedContainer(keyedBy: CodingKeys.self, forKey: ._metadata)
            if asObject {
                var inner = metadata.nestedContainer(keyedBy: CodingKeys.self, forKey: .schema_version)
                try inner.encode("mine", forKey: .title)
            } else {
                try metadata.encode("mine", forKey: .schema_version)
            }
        }
    }

    @Test(
        "Under snake case, a key of the type's that becomes the spec's is refused in an object opened by hand",
        arguments: [(false, false), (true, false), (true, true)]
    )
    func keyStrategyInOpenedObject(opensMetadata: Bool, asObject: Bool) throws {
        let value = CamelKeyed(title: "t", opensMetadata: opensMetadata, asObject: asObject)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(throws: (any Error).self) {
            let data = try encoder.encode(versioned: value)
            Issue.record("written: \(String(decoding: data, as: UTF8.self))")
        }
        // Without the strategy the keys differ, and both are written.
        let data = try JSONEncoder().encode(versioned: value)
        let metadata = try #require(try VersionPlacementTests.object(data)["_metadata"] as? [String: Any])
        #expect(metadata["schemaVersion"] as? Int == 2)
        #expect(metadata["schema_version"] != nil)
    }
}
