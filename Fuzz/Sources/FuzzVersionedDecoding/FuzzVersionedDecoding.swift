import Foundation
import VersionedCodable

// The fuzzer calls `LLVMFuzzerTestOneInput` with each input it makes. Every input is decoded
// as JSON and as a property list, into a type whose version sits at the root and into one
// whose version sits in a nested object. Any thrown error is an expected outcome; a crash, a
// sanitizer report, or a decoded value that does not survive being written and read again is
// a finding. The first run found that Foundation's XML property list reader traps on bytes
// that are not UTF-8 inside an `<integer>`; the versioned decode now refuses such input first.

// MARK: - A chain with the version at the root

struct ArticleV0: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    var title: String
    var words: [String]
}

struct ArticleV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = ArticleV0
    var title: String
    var paragraphs: [[String]]
    var draft: Bool

    init(from old: ArticleV0) throws {
        title = old.title
        paragraphs = [old.words]
        draft = true
    }
}

struct ArticleV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = ArticleV1
    var title: String
    var subtitle: String?
    var paragraphs: [[String]]
    var draft: Bool

    init(from old: ArticleV1) throws {
        title = old.title
        subtitle = nil
        paragraphs = old.paragraphs
        draft = old.draft
    }
}

struct Article: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = ArticleV2
    var title: String
    var subtitle: String?
    var paragraphs: [[String]]
    var state: State
    var revision: Int

    enum State: String, Codable {
        case draft, published
    }

    init(from old: ArticleV2) throws {
        title = old.title
        subtitle = old.subtitle
        paragraphs = old.paragraphs
        state = old.draft ? .draft : .published
        revision = old.paragraphs.count
    }
}

// MARK: - A chain with the version inside `_meta`, beside the type's own field there

struct MetaVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<MetaVersionSpec, Int?> { \.meta.version }

    struct Meta: Codable {
        var version: Int?
    }

    var meta: Meta

    enum CodingKeys: String, CodingKey {
        case meta = "_meta"
    }

    init(withVersion version: Int?) {
        meta = Meta(version: version)
    }
}

struct TaggedNoteV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetaVersionSpec
    var text: String
}

struct TaggedNote: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = TaggedNoteV1
    typealias VersionSpec = MetaVersionSpec

    struct Meta: Codable, Equatable {
        var editor: String
    }

    var meta: Meta
    var text: String
    var tags: [String]

    enum CodingKeys: String, CodingKey {
        case meta = "_meta"
        case text, tags
    }

    init(from old: TaggedNoteV1) throws {
        meta = Meta(editor: "")
        text = old.text
        tags = []
    }
}

// MARK: - The fuzzing entry point

/// Decodes `data`; if that succeeds, the value must write and read back unchanged.
func check<Value: VersionedCodable & Equatable>(
    _ type: Value.Type,
    _ data: Data,
    decode: (Data) throws -> Value,
    encode: (Value) throws -> Data
) {
    guard let value = try? decode(data) else { return }
    let written: Data
    do {
        written = try encode(value)
    } catch {
        fatalError("\(Value.self) decoded but could not be written again: \(error)")
    }
    do {
        let reread = try decode(written)
        if reread != value {
            fatalError("\(Value.self) changed on the way round: \(value) became \(reread)")
        }
    } catch {
        fatalError("\(Value.self) could not read what it wrote: \(error)")
    }
}

func checkEveryDecoder<Value: VersionedCodable & Equatable>(_ type: Value.Type, _ data: Data) {
    check(
        type,
        data,
        decode: { try JSONDecoder().decode(versioned: Value.self, from: $0) },
        encode: { try JSONEncoder().encode(versioned: $0) }
    )
    check(
        type,
        data,
        decode: { try PropertyListDecoder().decode(versioned: Value.self, from: $0) },
        encode: { try PropertyListEncoder().encode(versioned: $0) }
    )
    // The same decoding through the custom-coder entry point must agree with the direct one.
    let direct = try? JSONDecoder().decode(versioned: Value.self, from: data)
    let transparent: Value? = try? Value.decodeTransparently(from: data) { type, data in
        try JSONDecoder().decode(type, from: data)
    }
    if direct != transparent {
        fatalError(
            "decodeTransparently disagrees with decode(versioned:): \(String(describing: direct)) vs \(String(describing: transparent))"
        )
    }
}

/// libFuzzer's entry point: decodes one input every way this target knows.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: Always 0; libFuzzer reserves other values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVersionedDecoding(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    checkEveryDecoder(Article.self, data)
    checkEveryDecoder(TaggedNote.self, data)
    return 0
}
