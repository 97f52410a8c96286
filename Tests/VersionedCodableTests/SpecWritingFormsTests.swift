import Foundation
import Testing
import VersionedCodable

/// A spec is written by hand as often as synthesized, and may reach its object through any
/// container an encoder offers. Each way it may write an object is merged into the document and
/// read back; each way it may not is refused with a reason, before anything is written.
@Suite("Every way a spec may write its object")
struct SpecWritingFormsTests {
    static let formKey = CodingUserInfoKey(rawValue: "SpecWritingFormsTests.form")!

    /// How the spec writes, chosen by the coder's `userInfo`.
    enum Form: String, CaseIterable, Sendable {
        /// `_metadata.version` through `superEncoder(forKey:)`.
        case superEncoderForKey
        /// `super.version` through the key-less `superEncoder()`.
        case superEncoder
        /// `_metadata` opened twice with `nestedContainer`, a constant in one, the version in the
        /// other.
        case nestedTwice
        /// `_metadata` reached through one super encoder whose keyed container is opened twice.
        case superEncoderTwice
        /// The version and a constant each written as a single value through
        /// `superEncoder(forKey:)`, and read through `superDecoder(forKey:)`.
        case superEncoderValue
        /// The version at the root, with an array value beside it.
        case arrayValue
        /// An array at the root.
        case arrayAtRoot
        /// A single value at the root.
        case singleValueAtRoot
        /// An array opened with `nestedUnkeyedContainer(forKey:)`.
        case nestedUnkeyed
        /// An array written through `superEncoder(forKey:)`.
        case superEncoderArray

        /// The reason a spec of this form is refused with, if it is.
        var refusal: String? {
            switch self {
            case .arrayAtRoot: "writes an array at the root of the document"
            case .singleValueAtRoot: "writes a single value at the root of the document"
            case .nestedUnkeyed: "writes an array with nestedUnkeyedContainer(forKey:)"
            case .superEncoderArray: "writes an array through superEncoder(forKey:)"
            default: nil
            }
        }

        /// The path of the version in a written document.
        var versionPath: [String] {
            switch self {
            case .superEncoderForKey, .nestedTwice, .superEncoderTwice: ["_metadata", "version"]
            case .superEncoder: ["super", "version"]
            default: ["version"]
            }
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct FormSpec: VersionPathSpec {
        static let keyPathToVersion: KeyPath<Self, Int?> = \Self.version
        var version: Int?
        init(withVersion version: Int?) { self.version = version }

        static func form(_ userInfo: [CodingUserInfoKey: Any]) -> Form {
            userInfo[SpecWritingFormsTests.formKey] as? Form ?? .arrayValue
        }

        init(from decoder: any Decoder) throws {
            var object = try decoder.container(keyedBy: Key.self)
            if Self.form(decoder.userInfo) == .superEncoderValue {
                version = try Int?(from: object.superDecoder(forKey: Key("version")))
                _ = try String(from: object.superDecoder(forKey: Key("by")))
                return
            }
            let path = Self.form(decoder.userInfo).versionPath
            for name in path.dropLast() {
                object = try object.nestedContainer(keyedBy: Key.self, forKey: Key(name))
            }
            version = try object.decodeIfPresent(Int.self, forKey: Key(path.last!))
        }

        func encode(to encoder: any Encoder) throws {
            switch Self.form(encoder.userInfo) {
            case .superEncoderForKey:
                var root = encoder.container(keyedBy: Key.self)
                var metadata = root.superEncoder(forKey: Key("_metadata")).container(keyedBy: Key.self)
                try metadata.encode(version, forKey: Key("version"))
            case .superEncoder:
                var root = encoder.container(keyedBy: Key.self)
                var metadata = root.superEncoder().container(keyedBy: Key.self)
                try metadata.encode(version, forKey: Key("version"))
            case .nestedTwice:
                var root = encoder.container(keyedBy: Key.self)
                var first = root.nestedContainer(keyedBy: Key.self, forKey: Key("_metadata"))
                try first.encode("spec", forKey: Key("by"))
                var second = root.nestedContainer(keyedBy: Key.self, forKey: Key("_metadata"))
                try second.encode(version, forKey: Key("version"))
            case .superEncoderTwice:
                var root = encoder.container(keyedBy: Key.self)
                let metadata = root.superEncoder(forKey: Key("_metadata"))
                var first = metadata.container(keyedBy: Key.self)
                try first.encode(version, forKey: Key("version"))
                var second = metadata.container(keyedBy: Key.self)
                try second.encode("spec", forKey: Key("by"))
            case .superEncoderValue:
                var root = encoder.container(keyedBy: Key.self)
                try version.encode(to: root.superEncoder(forKey: Key("version")))
                try "spec".encode(to: root.superEncoder(forKey: Key("by")))
            case .superEncoderArray:
                var root = encoder.container(keyedBy: Key.self)
                try root.encode(version, forKey: Key("version"))
                try [1, 2].encode(to: root.superEncoder(forKey: Key("list")))
            case .arrayValue:
                var root = encoder.container(keyedBy: Key.self)
                try root.encode(version, forKey: Key("version"))
                try root.encode([1, 2], forKey: Key("list"))
            case .arrayAtRoot:
                var root = encoder.unkeyedContainer()
                try root.encode(version)
            case .singleValueAtRoot:
                var root = encoder.singleValueContainer()
                try root.encode(version)
            case .nestedUnkeyed:
                var root = encoder.container(keyedBy: Key.self)
                try root.encode(version, forKey: Key("version"))
                var list = root.nestedUnkeyedContainer(forKey: Key("list"))
                try list.encode(1)
            }
        }
    }

    struct MemoV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = FormSpec
        var text: String
    }

    struct Memo: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = MemoV1
        typealias VersionSpec = FormSpec
        var text: String
        var migrated = false
        init(text: String, migrated: Bool = false) {
            self.text = text
            self.migrated = migrated
        }
        init(from old: MemoV1) { self.init(text: old.text, migrated: true) }
    }

    /// A document that holds a memo as a part.
    struct Folder: Codable, Equatable {
        var memo: Versioned<Memo>
        var name: String
    }

    enum Format: String, CaseIterable, Sendable {
        case json, xmlPlist, binaryPlist

        func encode(_ value: some Encodable, form: Form, versioned: Bool) throws -> Data {
            let userInfo = [SpecWritingFormsTests.formKey: form]
            switch self {
            case .json:
                let encoder = JSONEncoder()
                encoder.userInfo = userInfo
                if versioned, let value = value as? any VersionedCodable {
                    return try encoder.encode(versioned: value)
                }
                return try encoder.encode(value)
            case .xmlPlist, .binaryPlist:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = self == .xmlPlist ? .xml : .binary
                encoder.userInfo = userInfo
                if versioned, let value = value as? any VersionedCodable {
                    return try encoder.encode(versioned: value)
                }
                return try encoder.encode(value)
            }
        }

        func decode<T: VersionedCodable>(versioned type: T.Type, _ data: Data, form: Form) throws -> T {
            let userInfo = [SpecWritingFormsTests.formKey: form]
            switch self {
            case .json:
                let decoder = JSONDecoder()
                decoder.userInfo = userInfo
                return try decoder.decode(versioned: type, from: data)
            case .xmlPlist, .binaryPlist:
                let decoder = PropertyListDecoder()
                decoder.userInfo = userInfo
                return try decoder.decode(versioned: type, from: data)
            }
        }

        func decode<T: Decodable>(_ type: T.Type, _ data: Data, form: Form) throws -> T {
            let userInfo = [SpecWritingFormsTests.formKey: form]
            switch self {
            case .json:
                let decoder = JSONDecoder()
                decoder.userInfo = userInfo
                return try decoder.decode(type, from: data)
            case .xmlPlist, .binaryPlist:
                let decoder = PropertyListDecoder()
                decoder.userInfo = userInfo
                return try decoder.decode(type, from: data)
            }
        }

        func object(_ data: Data) throws -> [String: Any] {
            switch self {
            case .json: try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
            case .xmlPlist, .binaryPlist:
                try #require(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            }
        }
    }

    static func version(in object: [String: Any], at path: [String]) -> Int? {
        var object = object
        for name in path.dropLast() {
            guard let inner = object[name] as? [String: Any] else { return nil }
            object = inner
        }
        return (object[path.last!] as? NSNumber)?.intValue
    }

    @Test(
        "A spec's object, however it is reached, is merged into the document and read back",
        arguments: Form.allCases.filter { $0.refusal == nil },
        Format.allCases
    )
    func merged(form: Form, format: Format) throws {
        let memo = Memo(text: "t")
        let written = try format.encode(memo, form: form, versioned: true)
        let object = try format.object(written)
        #expect(Self.version(in: object, at: form.versionPath) == 2)
        #expect(object["text"] as? String == "t")
        if form == .nestedTwice || form == .superEncoderTwice {
            #expect((object["_metadata"] as? [String: Any])?["by"] as? String == "spec")
        }
        if form == .arrayValue {
            #expect(object["list"] as? [Int] == [1, 2])
        }
        if form == .superEncoderValue {
            #expect(object["by"] as? String == "spec")
        }
        #expect(try format.decode(versioned: Memo.self, written, form: form) == memo)

        let old = try format.encode(MemoV1(text: "o"), form: form, versioned: true)
        #expect(Self.version(in: try format.object(old), at: form.versionPath) == 1)
        #expect(try format.decode(versioned: Memo.self, old, form: form) == Memo(text: "o", migrated: true))

        let folder = Folder(memo: Versioned(memo), name: "f")
        let part = try format.encode(folder, form: form, versioned: false)
        let partObject = try #require(try format.object(part)["memo"] as? [String: Any])
        #expect(Self.version(in: partObject, at: form.versionPath) == 2)
        #expect(try format.decode(Folder.self, part, form: form).memo.wrappedValue == memo)
    }

    /// Lists the keys it finds at its root, and writes each back, beside what `Spec` writes.
    struct Listing<Spec: VersionPathSpec>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = Spec
        var found: [String]
        init(found: [String]) { self.found = found }
        init(from decoder: any Decoder) throws {
            found = try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue).sorted()
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for key in found {
                try container.encode(true, forKey: Key(key))
            }
        }
    }

    @Test(
        "A type that lists its keys sees none of those a spec reads through a super decoder",
        arguments: Format.allCases
    )
    func superDecoderKeysHidden(format: Format) throws {
        let value = Listing<FormSpec>(found: ["a"])
        let written = try format.encode(value, form: .superEncoderValue, versioned: true)
        #expect(Set(try format.object(written).keys) == ["a", "by", "version"])
        let read = try format.decode(versioned: Listing<FormSpec>.self, written, form: .superEncoderValue)
        #expect(read == value)
        let again = try format.encode(read, form: .superEncoderValue, versioned: true)
        #expect(try format.decode(versioned: Listing<FormSpec>.self, again, form: .superEncoderValue) == value)
    }

    @Test(
        "A spec that writes an array or a single value where an object is needed is refused with its reason",
        arguments: Form.allCases.filter { $0.refusal != nil },
        Format.allCases
    )
    func refused(form: Form, format: Format) throws {
        let reason = try #require(form.refusal)
        for value in [Memo(text: "t"), MemoV1(text: "o")] as [any VersionedCodable] {
            do {
                let written = try format.encode(value, form: form, versioned: true)
                Issue.record("written: \(String(decoding: written, as: UTF8.self))")
            } catch VersionedDecodingError.invalidVersionChain(.unsupportedSpec(let spec, let said)) {
                #expect(spec is FormSpec.Type)
                #expect(said.contains(reason), "the reason: \(said)")
            }
        }
        do {
            _ = try format.encode(Folder(memo: Versioned(Memo(text: "t")), name: "f"), form: form, versioned: false)
            Issue.record("a part was written")
        } catch {
            #expect("\(error)".contains(reason), "the error: \(error)")
        }
    }
}
