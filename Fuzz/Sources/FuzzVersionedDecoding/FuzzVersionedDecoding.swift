import Foundation
import VersionedCodable

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

// The fuzzer calls `LLVMFuzzerTestOneInput` with each input it makes. Every input is decoded
// as JSON and as a property list, into a type whose version sits at the root and into one
// whose version sits in a nested object. Any thrown error is an expected outcome; a crash, a
// sanitizer report, or a decoded value that does not survive being written and read again is
// a finding. The first run found that Foundation's XML property list reader traps on bytes
// that are not UTF-8 inside an `<integer>`; the versioned decode now refuses such input first.
//
// Property lists are decoded on a thread whose stack Foundation's recursive XML scanner
// overflows at about 430 nested arrays, so that a document the versioned decode reads on the
// calling thread although it nests deeper than the check lets it (128 levels; deeper ones are
// read on a thread with an 8 MB stack) crashes within the fuzzer's 4 KB inputs, rather than
// only at the 9,500 levels that overflow the main thread. Text that reads as an XML property
// list is also decoded again in UTF-16 or UTF-32 after a byte order mark, which Foundation
// reads as deeply as UTF-8, so that every mutation of the UTF-8 corpus is tried in those
// encodings too.

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

/// A tree of versioned parts, so that nesting in any format is read as deep as it goes.
struct Outline: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var title: String?
    var children: [Versioned<Outline>]
}

// MARK: - Chains whose key paths could trap on a document's data

/// The version in the first element of an array: `\.headers[0].version` would trap on an
/// empty `headers`.
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

/// Decodes `data` as a property list; call it on the stack `onPropertyListStack` makes.
func checkPropertyList<Value: VersionedCodable & Equatable>(_ type: Value.Type, _ data: Data) {
    check(
        type,
        data,
        decode: { try PropertyListDecoder().decode(versioned: Value.self, from: $0) },
        encode: { try PropertyListEncoder().encode(versioned: $0) }
    )
}

/// The stack of the thread that decodes property lists: room for the 258 levels of elements
/// that the versioned decode lets through, and too little for more than about 370 nested
/// dictionaries or 430 nested arrays, as measured in this target's build with the check
/// taken out.
let propertyListStackSize = 384 * 1024

/// Runs `body` on a new thread with a stack of `propertyListStackSize` bytes, and waits for it.
///
/// A POSIX thread that is joined, rather than Foundation's `Thread`, which may still hold
/// `body` (and the input it captures) when the fuzzer looks for leaks after each input.
func onPropertyListStack(_ body: @escaping () -> Void) {
    final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, propertyListStackSize)
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    #if canImport(Glibc)
        var thread = pthread_t()
    #else
        var thread: pthread_t?
    #endif
    let started = pthread_create(
        &thread,
        &attributes,
        { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        },
        work
    )
    guard started == 0 else {
        fatalError("could not start a thread: error \(started)")
    }
    #if canImport(Glibc)
        pthread_join(thread, nil)
    #else
        pthread_join(thread!, nil)
    #endif
}

/// The byte order marks and encodings that Foundation reads an XML property list in, besides
/// UTF-8. FE FF 00 00 is what Foundation takes for UTF-32LE's mark.
let otherXMLEncodings: [(mark: [UInt8], encoding: String.Encoding)] = [
    ([0xFF, 0xFE], .utf16LittleEndian),
    ([0xFE, 0xFF], .utf16BigEndian),
    ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian),
    ([0xFE, 0xFF, 0x00, 0x00], .utf32LittleEndian),
]

/// `data` again in one of `otherXMLEncodings`, chosen by its length, when it is UTF-8 text that
/// starts like XML; `nil` otherwise.
func reencodedXML(_ data: Data) -> Data? {
    guard let text = String(data: data, encoding: .utf8),
        text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).first == "<"
    else {
        return nil
    }
    let (mark, encoding) = otherXMLEncodings[data.count % otherXMLEncodings.count]
    return text.data(using: encoding).map { Data(mark) + $0 }
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
    checkJSON(HeaderedNote.self, data)
    checkJSON(UnwrappedNote.self, data)
    checkJSON(Outline.self, data)
    let reencoded = reencodedXML(data)
    onPropertyListStack {
        for document in [data, reencoded].compactMap({ $0 }) {
            checkPropertyList(Article.self, document)
            checkPropertyList(TaggedNote.self, document)
            checkPropertyList(HeaderedNote.self, document)
            checkPropertyList(UnwrappedNote.self, document)
            checkPropertyList(Outline.self, document)
        }
    }
    return 0
}
