import Foundation

/// Tells which inputs Foundation's property list readers survive, so that the fuzz target
/// decodes only those as property lists.
///
/// A versioned decode hands the bytes to Foundation's reader exactly as a plain decode does, so
/// where that reader stops the process, a versioned decode stops with it. Such a stop says
/// nothing about VersionedCodable, and it would end the fuzz run before the run reached the
/// library's own code again; the target therefore skips the property list decode of an input
/// this filter refuses, and still decodes the input as JSON.
///
/// On Linux, Foundation's readers (FoundationEssentials, Swift 6.3) stop the process on three
/// kinds of input, measured with small programs run as separate processes:
///
/// - XML nested deep: the XML scanner recurses once per `<plist>`, `<array>` and `<dict>`. Built
///   as this target is, with AddressSanitizer, on the 8 MB main thread, 7,500 nested arrays
///   read and 8,000 overflow the stack. It does so in every encoding it reads, as it converts
///   the text to UTF-8 first.
/// - Bytes that are not UTF-8: six or more of them inside an XML `<integer>` trap in
///   FoundationEssentials' `CodableUtilities.swift` when the document is read as UTF-8; five
///   throw.
/// - Binary property lists whose arrays and dictionaries contain themselves or are shared:
///   see ``BinaryPropertyListWalk``.
///
/// OpenStep property lists, which Foundation on Linux refuses, and XML documents that declare
/// an encoding Foundation does not read, which it refuses before scanning, are left to
/// Foundation, as is text that is not valid in the encoding its byte order mark names, which
/// Foundation fails to convert and throws for.
///
/// The filter follows Foundation's own rules for where a comment, processing instruction, CDATA
/// section or `DOCTYPE` ends, since a filter that ended one earlier or later than Foundation
/// would measure text that Foundation skips, or skip text that Foundation reads: a `?>` ends a
/// processing instruction, never a `>`; the `-->` of a comment is looked for after its `<!--`;
/// an element's tag, and a `DOCTYPE` without an internal subset, end at the first `>`, quotes or
/// not, as Foundation reads no attributes.
enum PropertyListInputFilter {
    /// Why an input is not decoded as a property list.
    enum Refusal: Equatable {
        /// XML that Foundation reads as UTF-8 and that is not UTF-8.
        case notUTF8
        /// XML whose elements nest deeper than ``maximumElementDepth``.
        case tooDeep
        /// A binary property list the reader could not finish.
        case binary(BinaryPropertyListWalk.Refusal)
    }

    /// How deeply arrays and dictionaries may nest: far deeper than any real document, and
    /// under a third of what Foundation's XML reader manages on the main thread, where the fuzz
    /// target decodes. The fuzzer's inputs of at most 4 KB nest at most about 680 deep; the limit
    /// matters for longer inputs run by hand or with a larger `-max_len`.
    static let maximumNesting = 2_048

    /// The limit on nested elements of any name: the arrays and dictionaries, plus the `<plist>`
    /// root and a value such as `<string>` inside the innermost one, which the scan counts too.
    static let maximumElementDepth = maximumNesting + 2

    /// How many arrays and dictionaries reading a binary property list may meet, counting one
    /// that several others refer to once for each: several times what an input of 4 KB holds
    /// without sharing, and few enough that the target stays well within libFuzzer's timeout of
    /// 10 seconds an input. An outline whose every level lists the next one twice is read in
    /// full, written and read again: at 8,190 arrays and dictionaries that took a second in this
    /// target's build, at 65,534 seven seconds.
    static let maximumExpansion = 10_000

    /// Why Foundation's readers could stop the process on `data`, or `nil` when they read it
    /// through (whether they return or throw).
    static func refusal(of data: Data) -> Refusal? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Refusal? in
            // Binary property lists start with this, whatever follows, as Foundation tells them.
            if buffer.starts(with: "bplist".utf8) {
                return BinaryPropertyListWalk(buffer)
                    .flatMap { $0.refusal(maximumDepth: maximumNesting, maximumExpansion: maximumExpansion) }
                    .map(Refusal.binary)
            }
            switch TextEncoding(byteOrderMarkOf: buffer) {
            case .utf8(let byteOrderMarkLength):
                let text = UnsafeRawBufferPointer(rebasing: buffer[byteOrderMarkLength...])
                // Text that is all ASCII is UTF-8 whatever it declares; most inputs are.
                let validating = !text.allSatisfy { $0 < 0x80 } && (byteOrderMarkLength > 0 || declaresUTF8(text))
                return scan(text, validatingUTF8: validating)
            case .transcoded(let encoding, let byteOrderMarkLength):
                // The conversion Foundation makes before it scans, so the same characters.
                guard var text = String(bytes: buffer[byteOrderMarkLength...], encoding: encoding) else {
                    return nil
                }
                return text.withUTF8 { scan(UnsafeRawBufferPointer($0), validatingUTF8: false) }
            }
        }
    }

    /// The encoding Foundation reads a text property list in, told by its byte order mark the way
    /// `PropertyListDecoder.detectEncoding` tells it.
    private enum TextEncoding {
        /// UTF-8, or no byte order mark at all.
        case utf8(byteOrderMarkLength: Int)
        /// An encoding that Foundation converts to UTF-8 before it scans.
        case transcoded(String.Encoding, byteOrderMarkLength: Int)

        init(byteOrderMarkOf bytes: UnsafeRawBufferPointer) {
            // -1 past the end, which no mark has.
            func byte(_ offset: Int) -> Int { offset < bytes.count ? Int(bytes[offset]) : -1 }
            switch (byte(0), byte(1), byte(2), byte(3)) {
            case (0x00, 0x00, 0xFE, 0xFF):
                self = .transcoded(.utf32BigEndian, byteOrderMarkLength: 4)
            case (0xFE, 0xFF, 0x00, 0x00):
                // Not UTF-32LE's mark (that is FF FE 00 00, which Foundation reads as UTF-16LE),
                // but what Foundation takes for it.
                self = .transcoded(.utf32LittleEndian, byteOrderMarkLength: 4)
            case (0xFE, 0xFF, _, _):
                self = .transcoded(.utf16BigEndian, byteOrderMarkLength: 2)
            case (0xFF, 0xFE, _, _):
                self = .transcoded(.utf16LittleEndian, byteOrderMarkLength: 2)
            case (0xEF, 0xBB, 0xBF, _):
                self = .utf8(byteOrderMarkLength: 3)
            default:
                self = .utf8(byteOrderMarkLength: 0)
            }
        }
    }

    /// Whether Foundation reads `text`, which has no byte order mark, as UTF-8: it does unless an
    /// `<?xml` declaration at the very start names another encoding, which Foundation refuses on
    /// Linux before scanning. This follows Foundation's `scanForExplicitXMLEncoding`, byte for
    /// byte, so that no text it reads as UTF-8 goes unvalidated.
    private static func declaresUTF8(_ text: UnsafeRawBufferPointer) -> Bool {
        let count = text.count
        guard text.starts(with: "<?xml".utf8) else {
            return true
        }
        var index = 5
        while index < count {
            let byte = text[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: ">") || count - index <= 9 {
                // The declaration ends without naming an encoding, or Foundation throws.
                return true
            }
            if byte == UInt8(ascii: "e"), text[index...].starts(with: "encoding=".utf8) {
                let quote = text[index + 9]
                guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                    return true
                }
                // Compared without regard to case, as Foundation's `strncasecmp` does.
                let name = text[(index + 10)...].prefix { $0 != quote }
                return name.count == 5
                    && zip(name, "utf-8".utf8).allSatisfy { byte, expected in
                        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                            ? byte + 0x20 == expected : byte == expected
                    }
            }
            index += 1
        }
        return true
    }

    /// Measures the nesting of XML `text` and, when `validatingUTF8`, checks that it is UTF-8, in
    /// one pass. Text whose first character other than white space is not `<` is no XML to
    /// Foundation, which reads it as an OpenStep property list instead.
    ///
    /// Every element counts, whatever its name, as Foundation refuses names it does not know;
    /// `<name .../>` does not, nor does anything inside a comment, processing instruction, CDATA
    /// section or `DOCTYPE`. A `<` followed by anything but a letter, `/`, `!` or `?` opens
    /// nothing, as Foundation refuses it. The scan ends with the root element, after which
    /// Foundation reads nothing: in a document that Foundation reads up to some point, every
    /// element the scan counts up to there is one that Foundation opened or closed too, so the
    /// two reach the root's end together.
    private static func scan(_ text: UnsafeRawBufferPointer, validatingUTF8: Bool) -> Refusal? {
        guard let first = text.firstIndex(where: { !isWhiteSpace($0) }), text[first] == UInt8(ascii: "<") else {
            return nil
        }
        var reader = MarkupReader(text, validatingUTF8: validatingUTF8)
        let count = text.count
        var depth = 0
        // Before the root element Foundation reads a processing instruction's `?>` from after its
        // `<?`; inside it, from the `?` on, so `<?>` is a whole one there.
        var inProlog = true
        while reader.index < count {
            reader.skipASCII(until: UInt8(ascii: "<"))
            let start = reader.index
            guard start < count else {
                break
            }
            guard text[start] == UInt8(ascii: "<") else {
                guard reader.step() else { return .notUTF8 }
                continue
            }
            let next = start + 1 < count ? text[start + 1] : 0
            let isValid: Bool
            switch next {
            case UInt8(ascii: "!"):
                if text[start...].starts(with: "<!--".utf8) {
                    isValid = reader.skip(past: "-->", from: start + 4)
                } else if text[start...].starts(with: "<![CDATA[".utf8) {
                    isValid = reader.skip(past: "]]>", from: start + 9)
                } else {
                    isValid = reader.skipDeclaration(from: start + 2)
                }
            case UInt8(ascii: "?"):
                isValid = reader.skip(past: "?>", from: start + (inProlog ? 2 : 1))
            case UInt8(ascii: "/"):
                inProlog = false
                guard reader.skipTag(from: start + 2) != nil else { return .notUTF8 }
                isValid = true
                if depth > 0 {
                    depth -= 1
                    if depth == 0 {
                        // The root element is closed, and Foundation reads no further.
                        return nil
                    }
                }
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                let isRoot = inProlog
                inProlog = false
                guard let isEmpty = reader.skipTag(from: start + 1) else { return .notUTF8 }
                isValid = true
                if !isEmpty {
                    depth += 1
                    if depth > maximumElementDepth {
                        return .tooDeep
                    }
                } else if isRoot {
                    return nil
                }
            default:
                inProlog = false
                reader.index += 1
                isValid = true
            }
            if !isValid {
                return .notUTF8
            }
        }
        return nil
    }

    /// The white space Foundation skips before deciding whether a property list is XML.
    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// A position in XML text that moves a character at a time, so that every byte it passes is
/// validated as UTF-8 when asked, whether it is markup, text or something skipped.
private struct MarkupReader {
    /// The text, in UTF-8 or in an encoding whose ASCII bytes stand for ASCII characters.
    let text: UnsafeRawBufferPointer
    /// Whether to check the bytes passed as UTF-8, which is needed only when Foundation reads
    /// them as such.
    let validatesUTF8: Bool
    /// The offset of the next byte to read.
    var index = 0

    init(_ text: UnsafeRawBufferPointer, validatingUTF8: Bool) {
        self.text = text
        self.validatesUTF8 = validatingUTF8
    }

    /// Moves past one character: a byte, or a whole UTF-8 sequence. Returns `false`, and stays,
    /// when the bytes there are not UTF-8.
    mutating func step() -> Bool {
        let lead = text[index]
        if lead < 0x80 || !validatesUTF8 {
            index += 1
            return true
        }
        // The allowed range of the second byte, and how many continuation bytes follow.
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0xC2...0xDF: (second, length) = (0x80...0xBF, 2)
        case 0xE0: (second, length) = (0xA0...0xBF, 3)
        case 0xE1...0xEC, 0xEE...0xEF: (second, length) = (0x80...0xBF, 3)
        case 0xED: (second, length) = (0x80...0x9F, 3)
        case 0xF0: (second, length) = (0x90...0xBF, 4)
        case 0xF1...0xF3: (second, length) = (0x80...0xBF, 4)
        case 0xF4: (second, length) = (0x80...0x8F, 4)
        default: return false
        }
        guard index + length <= text.count, second.contains(text[index + 1]) else {
            return false
        }
        for offset in 2..<length where text[index + offset] & 0xC0 != 0x80 {
            return false
        }
        index += length
        return true
    }

    /// Moves over ASCII other than `stop`; a byte above ASCII is left for ``step()``.
    mutating func skipASCII(until stop: UInt8) {
        while index < text.count, text[index] != stop, text[index] < 0x80 {
            index += 1
        }
    }

    /// Moves past the first `terminator` that starts at or after `start`, or to the end when
    /// there is none, as Foundation then throws. Returns `false` at bytes that are not UTF-8.
    mutating func skip(past terminator: StaticString, from start: Int) -> Bool {
        let end = UnsafeRawBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        index = min(start, text.count)
        while true {
            skipASCII(until: end[0])
            guard index < text.count else {
                return true
            }
            if text[index] == end[0], text[index...].starts(with: end) {
                index += end.count
                return true
            }
            guard step() else { return false }
        }
    }

    /// Moves past the first `>` at or after `start`, which ends a tag for Foundation even inside
    /// quotes. Returns whether the tag is empty (`/` right before the `>`), or `nil` at bytes
    /// that are not UTF-8.
    mutating func skipTag(from start: Int) -> Bool? {
        index = min(start, text.count)
        while true {
            skipASCII(until: UInt8(ascii: ">"))
            guard index < text.count else {
                return false
            }
            if text[index] == UInt8(ascii: ">") {
                index += 1
                return text[index - 2] == UInt8(ascii: "/")
            }
            guard step() else { return nil }
        }
    }

    /// Moves past a `<!DOCTYPE ...>` or other `<!` declaration whose name starts at `start`.
    ///
    /// Foundation ends it at the first `>`, inside quotes or not, and refuses an internal subset
    /// (`[ ... ]`) outright; to measure the rest as an XML reader would, the subset is skipped
    /// with its quoted strings, comments and processing instructions, up to the `]` and the `>`
    /// after it. Returns `false` at bytes that are not UTF-8.
    mutating func skipDeclaration(from start: Int) -> Bool {
        index = min(start, text.count)
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: ">"):
                index += 1
                return true
            case UInt8(ascii: "["):
                index += 1
                return skipInternalSubset() && skipTag(from: index) != nil
            default:
                guard step() else { return false }
            }
        }
        return true
    }

    /// Moves past an internal subset's `]`, from just after its `[`.
    private mutating func skipInternalSubset() -> Bool {
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "]"):
                index += 1
                return true
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index += 1
                while index < text.count, text[index] != byte {
                    guard step() else { return false }
                }
                index += 1
            case UInt8(ascii: "<") where text[index...].starts(with: "<!--".utf8):
                guard skip(past: "-->", from: index + 4) else { return false }
            case UInt8(ascii: "<") where text[index...].starts(with: "<?".utf8):
                guard skip(past: "?>", from: index + 2) else { return false }
            default:
                guard step() else { return false }
            }
        }
        return true
    }
}
