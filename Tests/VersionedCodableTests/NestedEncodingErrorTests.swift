import Foundation
import Testing
import VersionedCodable

/// A part whose own `version` field is a string, where the default spec writes the version.
private struct ClashingPart: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var version: String
}

/// A part whose root is an array, where the default spec needs an object.
private struct ArrayPart: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var items: [Int]

    init(items: [Int]) {
        self.items = items
    }
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var items: [Int] = []
        while !container.isAtEnd {
            items.append(try container.decode(Int.self))
        }
        self.items = items
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for item in items {
            try container.encode(item)
        }
    }
}

private struct PartV1: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var name: String
}

/// A part with no downgrade to version 1.
private struct Part: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = PartV1
    var name: String
    init(name: String) { self.name = name }
    init(from old: PartV1) throws { name = old.name }
}

/// A part that hands its encoder to a dictionary with an entry under the version's key, and
/// notes the error its own code sees there before passing it on.
private struct EntryPart: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    /// The error the dictionary's encoding threw inside `encode(to:)`, per task.
    @TaskLocal static var seen: SeenError?

    final class SeenError: @unchecked Sendable {
        var error: (any Error)?
    }

    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
        do {
            try ["version": 7, "count": 1].encode(to: encoder)
        } catch {
            Self.seen?.error = error
            throw error
        }
    }
}

/// A part whose `_metadata`, where its spec keeps the version, is written as a string, and which
/// notes the error its own code sees there before passing it on.
private struct StringMetadataPart: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec

    struct Metadata: Codable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode("not an object")
        }
    }
    enum CodingKeys: String, CodingKey { case _metadata }

    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        do {
            try container.encode(Metadata(), forKey: ._metadata)
        } catch {
            EntryPart.seen?.error = error
            throw error
        }
    }
}

private struct Shelf<Item: VersionedCodable>: Codable {
    var title = "shelf"
    var items: [Versioned<Item>]
}

private struct VersionedShelf: VersionedCodable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var items: [Versioned<ClashingPart>]
}

/// A part whose version is at `_metadata.version`.
private struct MetadataPart: VersionedCodable, Equatable {
    static let version: Int? = 5
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec
    var note: String
}

/// Keeps its version at `_metadata.version` too, and writes itself as a `MetadataPart`: the two
/// specs' `_metadata` objects would merge but for the version inside them.
private struct ForwardsToMetadataPart: VersionedCodable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetadataVersionSpec
    var part: MetadataPart
    init(part: MetadataPart) { self.part = part }
    init(from decoder: any Decoder) throws { part = try Versioned<MetadataPart>(from: decoder).wrappedValue }
    func encode(to encoder: any Encoder) throws { try Versioned(part).encode(to: encoder) }
}

private struct ForwardingShelf: Codable {
    var item: Versioned<ForwardsToMetadataPart>
}

/// Keeps its version at the root, and writes itself as a `MetadataPart`: the two specs write no
/// key in common, so both versions stand in the one object.
private struct ForwardsToOtherSpecPart: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = NothingEarlier
    var part: MetadataPart
    init(part: MetadataPart) { self.part = part }
    init(from decoder: any Decoder) throws { part = try Versioned<MetadataPart>(from: decoder).wrappedValue }
    func encode(to encoder: any Encoder) throws { try Versioned(part).encode(to: encoder) }
}

@Suite("Errors of versioned parts that cannot be written say which part and which field")
struct NestedEncodingErrorTests {
    /// The part error inside whatever the coder wrapped around it.
    private func partError(_ error: (any Error)?) -> (path: String, description: String, underlying: (any Error)?)? {
        guard case EncodingError.invalidValue(_, let context)? = error as? EncodingError else {
            return nil
        }
        if let inner = context.underlyingError as? EncodingError {
            return partError(inner)
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return (path, context.debugDescription, context.underlyingError)
    }

    @Test("A clash in the second element names the type, the element's path and the field, with every coder")
    func clashInArray() throws {
        let shelf = Shelf(items: [Versioned(ClashingPart(version: "a")), Versioned(ClashingPart(version: "b"))])
        let json = #expect(throws: EncodingError.self) { try JSONEncoder().encode(shelf) }
        let plist = #expect(throws: EncodingError.self) { try PropertyListEncoder().encode(shelf) }
        for error in [json, plist] {
            let part = try #require(partError(error))
            #expect(part.path == ".items[0]")
            #expect(part.description.contains("ClashingPart at items[0] writes its own value at `version`"))
            let underlying = try #require(part.underlying as? VersionedEncodingError)
            #expect(underlying == .typeHasClashingVersionField)
        }
    }

    @Test("Inside encode(versioned:) the part's error comes out of the coder's wrapper")
    func clashInsideVersionedRoot() throws {
        let shelf = VersionedShelf(items: [Versioned(ClashingPart(version: "a"))])
        for encode in [
            { try JSONEncoder().encode(versioned: shelf) },
            { try PropertyListEncoder().encode(versioned: shelf) },
        ] as [() throws -> Data] {
            let error = #expect(throws: EncodingError.self) { try encode() }
            guard case .invalidValue(_, let context)? = error else {
                Issue.record("expected invalidValue, got \(String(describing: error))")
                continue
            }
            #expect(context.debugDescription.hasPrefix("ClashingPart at items[0] writes its own value"))
        }
    }

    @Test("A part forwarded into an object where both specs write names the key inside, not the object")
    func forwardedPartNamesTheKeyInside() throws {
        let shelf = ForwardingShelf(item: Versioned(ForwardsToMetadataPart(part: MetadataPart(note: "n"))))
        let json = #expect(throws: EncodingError.self) { try JSONEncoder().encode(shelf) }
        let plist = #expect(throws: EncodingError.self) { try PropertyListEncoder().encode(shelf) }
        for error in [json, plist] {
            let part = try #require(partError(error))
            #expect(part.path == ".item")
            #expect(
                part.description.contains(
                    "ForwardsToMetadataPart at item writes its own value at `_metadata.version`, where its "
                        + "VersionPathSpec (MetadataVersionSpec) puts the version"
                )
            )
            #expect(part.underlying as? VersionedEncodingError == .typeHasClashingVersionField)
        }
    }

    @Test("A part forwarded into an object where the specs write different keys is written with both versions")
    func forwardedPartWithOtherKeys() throws {
        let value = ForwardsToOtherSpecPart(part: MetadataPart(note: "n"))
        let type = ForwardsToOtherSpecPart.self
        for (encode, decode) in [
            ({ try JSONEncoder().encode(versioned: value) }, { try JSONDecoder().decode(versioned: type, from: $0) }),
            (
                { try PropertyListEncoder().encode(versioned: value) },
                { try PropertyListDecoder().decode(versioned: type, from: $0) }
            ),
        ] as [(() throws -> Data, (Data) throws -> ForwardsToOtherSpecPart)] {
            let data = try encode()
            let object = try VersionPlacementTests.object(data)
            #expect(object["version"] as? Int == 2)
            #expect((object["_metadata"] as? [String: Any])?["version"] as? Int == 5)
            #expect(try decode(data) == value)
        }
    }

    @Test("At the root of a document the clash is 1.2's error itself")
    func clashAtRoot() {
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try JSONEncoder().encode(versioned: ClashingPart(version: "a"))
        }
        #expect(throws: VersionedEncodingError.typeHasClashingVersionField) {
            try PropertyListEncoder().encode(versioned: ClashingPart(version: "a"))
        }
    }

    @Test("The type's own code sees the error the user sees, where it was found: no stand-in")
    func errorSeenWhereFound() throws {
        let seen = EntryPart.SeenError()
        try EntryPart.$seen.withValue(seen) {
            #expect(throws: VersionedEncodingError.dictionaryEntryClash(key: "version")) {
                try JSONEncoder().encode(versioned: EntryPart())
            }
            #expect(seen.error as? VersionedEncodingError == .dictionaryEntryClash(key: "version"))
            // Inside a document the part's own code sees the same error, and the document's
            // encode gets it as the underlying error of the part's location.
            seen.error = nil
            let error = #expect(throws: EncodingError.self) {
                try JSONEncoder().encode(Shelf(items: [Versioned(EntryPart())]))
            }
            #expect(seen.error as? VersionedEncodingError == .dictionaryEntryClash(key: "version"))
            let part = try #require(partError(error))
            #expect(part.underlying as? VersionedEncodingError == .dictionaryEntryClash(key: "version"))
        }
    }

    @Test("An object on the spec's path that is not one is named by the part's path, however deep the coder is")
    func notAnObjectSeenWhereFound() throws {
        let seen = EntryPart.SeenError()
        try EntryPart.$seen.withValue(seen) {
            for encode in [
                { try JSONEncoder().encode(versioned: StringMetadataPart()) },
                { try PropertyListEncoder().encode(versioned: StringMetadataPart()) },
            ] as [() throws -> Data] {
                seen.error = nil
                #expect(throws: VersionedEncodingError.versionLocationNotAnObject(codingPath: ["_metadata"])) {
                    try encode()
                }
                // Thrown while the coder stands inside `_metadata`, and still the part's path.
                #expect(
                    seen.error as? VersionedEncodingError == .versionLocationNotAnObject(codingPath: ["_metadata"])
                )
            }
            seen.error = nil
            let error = #expect(throws: EncodingError.self) {
                try JSONEncoder().encode(Shelf(items: [Versioned(StringMetadataPart())]))
            }
            let path = ["items", "Index 0", "_metadata"]
            let inside = VersionedEncodingError.versionLocationNotAnObject(codingPath: path)
            #expect(seen.error as? VersionedEncodingError == inside)
            let part = try #require(partError(error))
            #expect(part.underlying as? VersionedEncodingError == inside)
        }
    }

    @Test("A part that is not an object names its place from the document's root")
    func notAnObjectInArray() throws {
        let error = #expect(throws: EncodingError.self) {
            try JSONEncoder().encode(Shelf(items: [Versioned(ArrayPart(items: [1]))]))
        }
        let part = try #require(partError(error))
        #expect(part.path == ".items[0]")
        #expect(
            part.description.contains(
                "ArrayPart at items[0] writes a single value, `nil` or an array at its root, which cannot hold the version"
            )
        )
        let underlying = try #require(part.underlying as? VersionedEncodingError)
        #expect(underlying == .versionLocationNotAnObject(codingPath: ["items", "Index 0"]))
        #expect(throws: VersionedEncodingError.cannotHoldVersion(ArrayPart.self, version: ArrayPart.version)) {
            try JSONEncoder().encode(versioned: ArrayPart(items: [1]))
        }
    }

    @Test("A part that cannot be written as the version asked for names the part and the version")
    func downgradeInArray() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(Part.self, asVersion: 1)
        let error = #expect(throws: EncodingError.self) {
            try encoder.encode(Shelf(items: [Versioned(Part(name: "a"))]))
        }
        let part = try #require(partError(error))
        #expect(part.path == ".items[0]")
        #expect(part.description.hasPrefix("Part at items[0] cannot be written as version 1: Part cannot be written"))
        let underlying = try #require(part.underlying as? VersionedEncodingError)
        #expect(underlying == .noDowngrade(from: Part.self))
    }
}
