import Foundation
import Testing
import VersionedCodable

/// A spec is user code: what it reads and writes may depend on the decoder's or the encoder's
/// `userInfo`, and on nothing the library could learn once. These run each order of first use
/// in a process of its own, so that nothing one order leaves behind can decide the other's.
@Suite("A spec is asked on each document, with each coder's userInfo")
struct SpecAskedPerDocumentTests {
    static let keyName = CodingUserInfoKey(rawValue: "SpecAskedPerDocumentTests.keyName")!

    /// Keeps the version under the key the coder's `userInfo` names, `version` by default.
    struct NamedKeySpec: VersionPathSpec {
        static let keyPathToVersion: KeyPath<Self, Int?> = \Self.version
        var version: Int?
        init(withVersion version: Int?) { self.version = version }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let name = decoder.userInfo[SpecAskedPerDocumentTests.keyName] as? String ?? "version"
            version = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int.self, forKey: Key(stringValue: name))
        }

        func encode(to encoder: any Encoder) throws {
            let name = encoder.userInfo[SpecAskedPerDocumentTests.keyName] as? String ?? "version"
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(version, forKey: Key(stringValue: name))
        }
    }

    struct ReportV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NamedKeySpec
        var title: String
    }

    struct Report: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = ReportV1
        typealias VersionSpec = NamedKeySpec
        var title: String
        var schema: Int?
        init(title: String, schema: Int? = nil) {
            self.title = title
            self.schema = schema
        }
        init(from old: ReportV1) { self.init(title: old.title + "+2") }
    }

    static func coders(named name: String?) -> (JSONEncoder, JSONDecoder) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let decoder = JSONDecoder()
        if let name {
            encoder.userInfo[keyName] = name
            decoder.userInfo[keyName] = name
        }
        return (encoder, decoder)
    }

    /// Writes and reads with the key `schema` and then with the default key, or the other way
    /// round, and checks every document against what the coders' `userInfo` says.
    static func check(schemaFirst: Bool) throws -> Bool {
        let names: [String?] = schemaFirst ? ["schema", nil] : [nil, "schema"]
        for name in names {
            let (encoder, decoder) = coders(named: name)
            let written = try encoder.encode(versioned: Report(title: "a"))
            let expected = name == nil ? #"{"title":"a","version":2}"# : #"{"schema":2,"title":"a"}"#
            guard String(decoding: written, as: UTF8.self) == expected else { return false }
            let read = try decoder.decodeWithStoredVersion(Report.self, from: written)
            // Under `schema`, the type's own `schema` mirrors the version, and reads it.
            let mirror = name == nil ? nil : 2
            guard read.storedVersion == 2, read.wrappedValue == Report(title: "a", schema: mirror) else { return false }
            // A version 1 document under the key this decoder looks for migrates; under the
            // other key it has no version, which this chain does not have.
            let key = name ?? "version"
            let old = Data(#"{"\#(key)":1,"title":"b"}"#.utf8)
            guard try decoder.decode(versioned: Report.self, from: old) == Report(title: "b+2") else { return false }
            let other = Data(#"{"\#(key == "version" ? "schema" : "version")":1,"title":"b"}"#.utf8)
            do {
                _ = try decoder.decode(versioned: Report.self, from: other)
                return false
            } catch VersionedDecodingError.unsupportedVersion {}
        }
        return true
    }

    @Test("What a spec reads and writes follows each coder's userInfo, in either order of first use")
    func userInfoDecides() async {
        await #expect(processExitsWith: .success) {
            guard (try? SpecAskedPerDocumentTests.check(schemaFirst: true)) == true else { exit(1) }
        }
        await #expect(processExitsWith: .success) {
            guard (try? SpecAskedPerDocumentTests.check(schemaFirst: false)) == true else { exit(1) }
        }
    }

    /// Lists every key it is given, as a type that reads whatever a document holds does.
    struct Listing: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = NamedKeySpec
        var keys: [String]
        init(from decoder: any Decoder) throws {
            keys = try decoder.container(keyedBy: NamedKeySpec.Key.self).allKeys.map(\.stringValue).sorted()
        }
        func encode(to encoder: any Encoder) throws {}
    }

    /// Reads one document under the key `schema` and under the default key, in the given order:
    /// the key the spec read each time is the one the type does not see.
    static func checkListing(schemaFirst: Bool) throws -> Bool {
        let document = Data(#"{"schema":1,"title":"a","version":1}"#.utf8)
        let names: [String?] = schemaFirst ? ["schema", nil, "schema"] : [nil, "schema", nil]
        for name in names {
            let (_, decoder) = coders(named: name)
            let keys = try decoder.decode(versioned: Listing.self, from: document).keys
            guard keys == (name == nil ? ["schema", "title"] : ["title", "version"]) else { return false }
        }
        return true
    }

    @Test("What a type sees beside the spec follows what the spec read in each document, in either order")
    func placeFollowsEachDocument() async {
        await #expect(processExitsWith: .success) {
            guard (try? SpecAskedPerDocumentTests.checkListing(schemaFirst: true)) == true else { exit(1) }
        }
        await #expect(processExitsWith: .success) {
            guard (try? SpecAskedPerDocumentTests.checkListing(schemaFirst: false)) == true else { exit(1) }
        }
    }

    @Test("The type's own field under a key the spec writes only for some coders is a clash only for them")
    func clashFollowsUserInfo() throws {
        let (plain, _) = Self.coders(named: nil)
        let written = try plain.encode(versioned: Report(title: "a", schema: 7))
        #expect(String(decoding: written, as: UTF8.self) == #"{"schema":7,"title":"a","version":2}"#)
        let (named, _) = Self.coders(named: "schema")
        // A mirror: `schema` holds an integer where this coder's spec writes the version.
        let mirrored = try named.encode(versioned: Report(title: "a", schema: 7))
        #expect(String(decoding: mirrored, as: UTF8.self) == #"{"schema":2,"title":"a"}"#)
    }

    /// Writes the version as a string label: there is no integer beside which the older builds
    /// that may read a document could be named.
    struct LabelSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.number }
        var schema: String?
        var number: Int? { schema.flatMap { Int($0.dropFirst()) } }
        init(withVersion version: Int?) { schema = version.map { "v\($0)" } }
    }

    struct LabelledV1: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = LabelSpec
        var title: String
    }

    struct Labelled: VersionedCodable {
        static let version: Int? = 2
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = LabelledV1
        typealias VersionSpec = LabelSpec
        var title: String
        var tags: [String]
        init(title: String, tags: [String]) {
            self.title = title
            self.tags = tags
        }
        init(from old: LabelledV1) { self.init(title: old.title, tags: []) }
    }

    @Test("A version that declares older builds may read it, with a spec that writes a label, is refused clearly")
    func labelCannotNameOlderBuilds() throws {
        #expect(throws: Never.self) { try JSONEncoder().encode(versioned: LabelledV1(title: "a")) }
        do {
            _ = try JSONEncoder().encode(versioned: Labelled(title: "a", tags: []))
            Issue.record("a declaration was written where no reader could find it")
        } catch VersionedDecodingError.invalidVersionChain(.unsupportedSpec(let spec, let reason)) {
            #expect(ObjectIdentifier(spec) == ObjectIdentifier(LabelSpec.self))
            #expect(reason.contains("older builds"))
        }
    }
}

/// What an older build's type reads and writes through a key-less super decoder and encoder,
/// and a dictionary whose keys a key strategy turns into the spec's.
@Suite("Keys a type reaches in other ways than its own coding keys")
struct KeysReachedOtherwiseTests {
    /// The older build's newest version, which keeps its settings under `super`.
    struct PanelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var title: String
        var settings: [String: Int]

        enum CodingKeys: String, CodingKey { case title }

        init(title: String, settings: [String: Int]) {
            self.title = title
            self.settings = settings
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            settings = try [String: Int](from: container.superDecoder())
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try settings.encode(to: container.superEncoder())
        }
    }

    @Test("An older build's edit of what it reads through a key-less super decoder is written back, not the original")
    func superDecoderEdits() throws {
        let newer = Data(
            #"{"version":2,"versionReadableFrom":1,"versionWritableFrom":1,"title":"t","super":{"size":1},"colour":"red"}"#
                .utf8
        )
        var read = try JSONDecoder().decode(Versioned<PanelV1>.self, from: newer)
        #expect(read.isFromNewerVersion)
        read.wrappedValue.settings["size"] = 2
        let written = try JSONEncoder().encode(read)
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object["super"] as? [String: Int] == ["size": 2])
        #expect(object["colour"] as? String == "red")
        #expect(object["version"] as? Int == 2)
    }

    enum Setting: String, CodingKeyRepresentable, Hashable, Codable {
        case version = "Version"
        case size = "Size"
    }

    struct Settings: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var values: [Setting: Int]
        init(values: [Setting: Int]) { self.values = values }
        init(from decoder: any Decoder) throws { values = try [Setting: Int](from: decoder) }
        func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
    }

    @Test("A dictionary entry is refused only under the version's own key, never on a guess about a key strategy")
    func entryNearTheVersionKey() throws {
        // "Version" is written as it is, beside the version, as a plain encode writes it, and
        // reads back.
        let settings = Settings(values: [.version: 7, .size: 3])
        let written = try JSONEncoder().encode(versioned: settings)
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Int])
        #expect(object == ["Size": 3, "Version": 7, "version": 1])
        #expect(try JSONDecoder().decode(versioned: Settings.self, from: written).values == settings.values)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let snake = try encoder.encode(versioned: Settings(values: [.size: 3]))
        #expect(try JSONSerialization.jsonObject(with: snake) as? [String: Int] == ["size": 3, "version": 1])
    }
}
