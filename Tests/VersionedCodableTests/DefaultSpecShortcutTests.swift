import Foundation
import Testing
import VersionedCodable

/// The default spec is read and written without decoding or encoding it: its one key at the
/// root is read and written directly. That shortcut must be exact, so a spec declared the same
/// way, which takes the general path, must give the same result on every document.
@Suite("The default spec's shortcut gives what the general path gives")
struct DefaultSpecShortcutTests {
    /// Declared as `VersionKeyAtRootVersionPathSpec` is, but a type of its own, so the library
    /// decodes and encodes it as it does any custom spec.
    struct SameAsDefaultSpec: VersionPathSpec {
        static let keyPathToVersion: KeyPath<Self, Int?> = \Self.version
        let version: Int?
        init(withVersion version: Int?) { self.version = version }
    }

    struct ShortcutV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var text: String
    }

    struct Shortcut: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = ShortcutV0
        var text: String
        init(text: String) { self.text = text }
        init(from old: ShortcutV0) { text = old.text + "+3" }
    }

    struct GeneralV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = SameAsDefaultSpec
        var text: String
    }

    struct General: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = GeneralV0
        typealias VersionSpec = SameAsDefaultSpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: GeneralV0) { text = old.text + "+3" }
    }

    static let documents = [
        #"{"version":3,"text":"a"}"#, #"{"text":"a"}"#, #"{"version":null,"text":"a"}"#,
        #"{"version":"3","text":"a"}"#, #"{"version":3.5,"text":"a"}"#, #"{"version":1e300,"text":"a"}"#,
        #"{"version":true,"text":"a"}"#, #"{"version":{},"text":"a"}"#, #"{"version":[3],"text":"a"}"#,
        #"{"version":9,"text":"a"}"#, #"{"version":2,"text":"a"}"#, #"["version",3]"#, #""a""#, "{", "",
        #"{"version":3}"#, #"{"Version":3,"text":"a"}"#,
    ]

    /// What a decode gives, as text that compares results and error kinds.
    static func outcome(_ read: () throws -> (version: Int?, text: String)) -> String {
        do {
            let value = try read()
            return "\(value.version.map(String.init) ?? "nil") \(value.text)"
        } catch let error as DecodingError {
            switch error {
            case .keyNotFound(let key, _): return "keyNotFound \(key.stringValue)"
            case .valueNotFound: return "valueNotFound"
            case .typeMismatch: return "typeMismatch"
            case .dataCorrupted: return "dataCorrupted"
            @unknown default: return "\(error)"
            }
        } catch VersionedDecodingError.unsupportedVersion {
            return "unsupportedVersion"
        } catch VersionedDecodingError.documentVersionTooNew(let found, _) {
            return "documentVersionTooNew \(found)"
        } catch {
            return "\(type(of: error))"
        }
    }

    @Test("Every document reads the same through the shortcut and through the spec's own decode", arguments: documents)
    func sameReading(document: String) {
        let data = Data(document.utf8)
        for decoder in [
            JSONDecoder(),
            {
                let d = JSONDecoder(); d.keyDecodingStrategy = .convertFromSnakeCase; return d
            }(),
        ] {
            let shortcut = Self.outcome {
                let read = try decoder.decodeWithStoredVersion(Shortcut.self, from: data)
                return (read.storedVersion, read.wrappedValue.text)
            }
            let general = Self.outcome {
                let read = try decoder.decodeWithStoredVersion(General.self, from: data)
                return (read.storedVersion, read.wrappedValue.text)
            }
            #expect(shortcut == general, "\(document)")
            let shortcutVersion = Self.outcome { (try decoder.storedVersion(of: Shortcut.self, from: data), "") }
            let generalVersion = Self.outcome { (try decoder.storedVersion(of: General.self, from: data), "") }
            #expect(shortcutVersion == generalVersion, "\(document)")
        }
    }

    /// Version 1 keeps the version with `Spec`; version 2 under `_metadata`, with a root field
    /// `version` of its own, where version 1's build reads first.
    struct MovedV1<Spec: VersionPathSpec>: VersionedCodable, Equatable {
        static var version: Int? { 1 }
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = Spec
        var text: String
    }

    struct Moved<Spec: VersionPathSpec>: VersionedCodable, Equatable {
        static var version: Int? { 2 }
        typealias PreviousVersion = MovedV1<Spec>
        typealias VersionSpec = MetadataVersionSpec
        var text: String
        var version: Int?
        init(text: String, version: Int?) {
            self.text = text
            self.version = version
        }
        init(from old: MovedV1<Spec>) { self.init(text: old.text, version: nil) }
    }

    @Test("Where an older version keeps the version with it, both find the same places")
    func sameOlderPlaces() throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        for version in [1, 2, 7, nil] {
            let shortcut = Result {
                try json.encode(versioned: Moved<VersionKeyAtRootVersionPathSpec>(text: "a", version: version))
            }
            let general = Result { try json.encode(versioned: Moved<SameAsDefaultSpec>(text: "a", version: version)) }
            switch (shortcut, general) {
            case (.success(let a), .success(let b)): #expect(a == b)
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)")
            default: Issue.record("version \(String(describing: version)): \(shortcut) against \(general)")
            }
        }
        #expect(throws: VersionedEncodingError.self) {
            try json.encode(versioned: Moved<VersionKeyAtRootVersionPathSpec>(text: "a", version: 1))
        }
    }

    @Test("Both write the same bytes, in JSON and both property lists, for every version")
    func sameWriting() throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        let binary = PropertyListEncoder()
        binary.outputFormat = .binary
        let xml = PropertyListEncoder()
        xml.outputFormat = .xml
        let encoders: [(any Encodable) throws -> Data] = [
            { try json.encode($0) }, { try binary.encode($0) }, { try xml.encode($0) },
        ]
        for encode in encoders {
            #expect(
                try Shortcut(text: "a").encodeTransparently(using: encode)
                    == General(text: "a").encodeTransparently(using: encode)
            )
            #expect(
                try ShortcutV0(text: "a").encodeTransparently(using: encode)
                    == GeneralV0(text: "a").encodeTransparently(using: encode)
            )
        }
    }
}
