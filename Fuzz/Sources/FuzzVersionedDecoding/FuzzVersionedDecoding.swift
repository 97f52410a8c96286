import Foundation
import VersionedCodable

// The fuzzer calls `LLVMFuzzerTestOneInput` with each input it makes. Every input is decoded
// as JSON and, when Foundation's property list readers survive it, as a property list: into a
// type whose version sits at the root, one whose version sits in a nested object beside the
// type's own field there, one whose spec reaches the version through an optional, a tree of
// versioned parts, and one whose spec keeps the version in an array, which the library refuses.
// Any thrown error is an expected outcome. A crash, a sanitizer report, a decoded value that
// does not survive being written and read again, a tree that nests deeper than
// `maximumVersionedPartDepth` lets a decode go, or a refused spec that reads a version is a
// finding.
//
// A versioned decode hands a property list to Foundation's reader as a plain decode does, so
// where that reader stops the process (XML nested thousands deep, bytes that are not UTF-8
// inside an `<integer>`, a binary property list that contains itself or shares its arrays), a
// versioned decode stops with it. Those stops are Foundation's: `PropertyListInputFilter` tells
// such inputs, and the target skips their property list decode, so that a run goes on to find
// faults in VersionedCodable.
//
// Everything is decoded on the calling thread, libFuzzer's main thread with an 8 MB stack: the
// library starts no threads and keeps no state per thread, so another thread would show no more
// of it, and the filter's limits are measured for that stack.

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

/// A tree of versioned parts, so that nesting in any format is read up to the library's depth
/// limit and refused past it.
struct Outline: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var title: String?
    var children: [Versioned<Outline>]

    /// The most levels a decoded outline may have, itself included: each level below the root
    /// adds two keys and indexes (`children`, and the child's index) to the coding path, which
    /// may be at most ``maximumVersionedPartDepth`` long at a versioned part.
    static let maximumLevels = maximumVersionedPartDepth / 2 + 1

    /// How many levels of outlines this one holds, itself included.
    var levels: Int {
        1 + (children.map(\.wrappedValue.levels).max() ?? 0)
    }
}

// MARK: - Chains whose key paths would trap if applied to a document's data

/// The version in the first element of an array, `\.headers[0].version`, as VersionedCodable
/// 1.2 read it, and which would trap on a document whose `headers` is empty: the key path is
/// applied only to a spec that has the element, so such a document has no version.
struct HeadersVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<HeadersVersionSpec, Int?> { \.headers[0].version }

    struct Header: Codable {
        var version: Int?
    }

    var headers: [Header]

    init(withVersion version: Int?) {
        headers = [Header(version: version)]
    }
}

struct HeaderedNoteV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = HeadersVersionSpec
    var text: String
}

struct HeaderedNote: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = HeaderedNoteV1
    typealias VersionSpec = HeadersVersionSpec
    var text: String
    var pages: Int

    init(from old: HeaderedNoteV1) throws {
        text = old.text
        pages = 1
    }
}

/// The version in an optional parent reached by a force unwrap: `\._meta!.version` would trap
/// on a document without `_meta`.
struct UnwrappingVersionSpec: VersionPathSpec {
    static var keyPathToVersion: KeyPath<UnwrappingVersionSpec, Int?> { \._meta!.version }

    struct Meta: Codable {
        var version: Int?
    }

    var _meta: Meta?

    init(withVersion version: Int?) {
        _meta = Meta(version: version)
    }
}

struct UnwrappedNoteV0: VersionedCodable, Equatable {
    static let version: Int? = nil
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = UnwrappingVersionSpec
    var text: String
}

struct UnwrappedNote: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = UnwrappedNoteV0
    typealias VersionSpec = UnwrappingVersionSpec
    var text: String
    var title: String

    init(from old: UnwrappedNoteV0) throws {
        text = old.text
        title = ""
    }
}

// MARK: - The fuzzing entry point

/// Decodes `data`; if that succeeds, the value must keep the library's limits, and write and
/// read back unchanged.
func check<Value: VersionedCodable & Equatable>(
    _ type: Value.Type,
    _ data: Data,
    decode: (Data) throws -> Value,
    encode: (Value) throws -> Data
) {
    guard let value = try? decode(data) else { return }
    if let outline = value as? Outline, outline.levels > Outline.maximumLevels {
        fatalError("an outline of \(outline.levels) levels decoded; the depth limit allows \(Outline.maximumLevels)")
    }
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

/// Decodes `data` as JSON, directly and through `decodeTransparently`, which must agree.
func checkJSON<Value: VersionedCodable & Equatable>(_ type: Value.Type, _ data: Data) {
    check(
        type,
        data,
        decode: { try JSONDecoder().decode(versioned: Value.self, from: $0) },
        encode: { try JSONEncoder().encode(versioned: $0) }
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

/// Decodes `data` as a property list; only for data that `PropertyListInputFilter` lets through.
func checkPropertyList<Value: VersionedCodable & Equatable>(_ type: Value.Type, _ data: Data) {
    check(
        type,
        data,
        decode: { try PropertyListDecoder().decode(versioned: Value.self, from: $0) },
        encode: { try PropertyListEncoder().encode(versioned: $0) }
    )
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
    checkJSON(Article.self, data)
    checkJSON(TaggedNote.self, data)
    checkJSON(UnwrappedNote.self, data)
    checkJSON(Outline.self, data)
    checkJSON(HeaderedNote.self, data)
    guard PropertyListInputFilter.refusal(of: data) == nil else {
        return 0
    }
    checkPropertyList(Article.self, data)
    checkPropertyList(TaggedNote.self, data)
    checkPropertyList(UnwrappedNote.self, data)
    checkPropertyList(Outline.self, data)
    checkPropertyList(HeaderedNote.self, data)
    return 0
}
