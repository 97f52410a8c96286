import Foundation

/// Checks a property list before Foundation parses it, for the inputs that stop the process
/// inside Foundation's XML property list reader instead of throwing.
///
/// On Linux, Foundation's XML reader (the one in FoundationEssentials, Swift 6.3) has two such
/// inputs, measured with small programs run as separate processes:
///
/// - Nesting: the scanner recurses once per `<plist>`, `<array>` and `<dict>`, and overflows
///   the stack at about 590 nested arrays or 500 nested dictionaries on a thread with a 512 KB
///   stack, and at about 9,500 or 8,200 on an 8 MB main thread. It does so in every encoding it
///   reads, as it converts the text to UTF-8 first.
/// - Bytes that are not UTF-8: six or more of them inside an `<integer>` trap in
///   FoundationEssentials' `CodableUtilities.swift`, when the document is read as UTF-8.
///
/// Binary property lists (100,000 and 1,000,000 nested arrays were read without trouble) and
/// OpenStep property lists (which Foundation refuses past a depth of its own, and refuses when
/// they are not valid text) are left to Foundation, as are XML documents that declare an
/// encoding Foundation does not read, which it refuses before scanning.
///
/// The check follows Foundation's own rules for where a comment, processing instruction, CDATA
/// section or `DOCTYPE` ends, since a check that ended one earlier or later than Foundation
/// would measure text that Foundation skips, or skip text that Foundation reads: a `?>` ends a
/// processing instruction, never a `>`; the `-->` of a comment is looked for after its `<!--`;
/// an element's tag, and a `DOCTYPE` without an internal subset, end at the first `>`, quotes or
/// not, as Foundation reads no attributes.
@usableFromInline
enum PropertyListInputCheck {
    /// How deeply arrays and dictionaries may nest: far deeper than any real document, and a
    /// quarter of what Foundation's readers manage on the 8 MB stack that such a document is
    /// read on (see ``nestingReadOnCallingThread``).
    static let maximumNesting = 2_048

    /// How deeply a document may nest and still be read on the calling thread, whose stack may
    /// be a small one (512 KB) already partly used: Foundation's readers follow the nesting
    /// recursively, and a plain tree of nodes overflows a 512 KB stack at about 480 arrays and
    /// dictionaries. A document that nests deeper is read on a thread with an 8 MB stack of its
    /// own while the caller waits (see `StackSpace`).
    @usableFromInline
    static let nestingReadOnCallingThread = 128

    /// The limit on nested elements of any name: the arrays and dictionaries, plus the `<plist>`
    /// root and a value such as `<string>` inside the innermost one, which the scan counts too.
    static let maximumElementDepth = maximumNesting + 2

    /// How many arrays and dictionaries reading a binary property list may meet, counting one
    /// that several others refer to once for each: Foundation reads a shared one again for every
    /// reference, so forty dictionaries that each refer to the next twice would be read 2⁴⁰
    /// times. No property list that Foundation's encoder writes shares them.
    static let maximumExpansion = 1_000_000

    /// Throws when Foundation could stop the process while reading `data`.
    ///
    /// Runs before every versioned property list decode, so the usual input, UTF-8 XML, takes one
    /// pass over its bytes that both validates the UTF-8 and measures the nesting.
    ///
    /// - Parameter data: A property list in any format.
    /// - Returns: How deeply the document's elements (XML) or arrays and dictionaries (binary)
    ///   nest, to tell whether it is read on the calling thread.
    /// - Throws: `DecodingError.dataCorrupted` for a property list that nests arrays and
    ///   dictionaries more than ``maximumNesting`` deep, an XML one that is not valid in the
    ///   encoding Foundation would read it in, or that starts with a zero byte, as UTF-16 and
    ///   UTF-32 do without a byte order mark, and a binary one with an array or dictionary that
    ///   contains itself or that would expand too far.
    @usableFromInline
    @discardableResult
    static func check(_ data: Data) throws -> Int {
        var nesting = 0
        let finding = try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Finding? in
            // Binary property lists start with this, whatever follows, as Foundation tells them.
            if buffer.starts(with: "bplist".utf8) {
                return BinaryPropertyListCheck(buffer).flatMap {
                    $0.check(maximumDepth: maximumNesting, maximumExpansion: maximumExpansion, nesting: &nesting)
                }
                .map(Finding.binary)
            }
            switch TextEncoding(byteOrderMarkOf: buffer) {
            case .utf8(let byteOrderMarkLength):
                let text = UnsafeRawBufferPointer(rebasing: buffer[byteOrderMarkLength...])
                if byteOrderMarkLength == 0, text.prefix(2).contains(0) {
                    return .zeroByteAtStart
                }
                // Text that is all ASCII is UTF-8 whatever it declares; most documents are.
                let validating = !isASCII(text) && (byteOrderMarkLength > 0 || declaresUTF8(text))
                return scan(text, validatingUTF8: validating, nesting: &nesting)
            case .transcoded(let encoding, let name, let byteOrderMarkLength):
                // The conversion Foundation makes before it scans, so the same characters.
                guard var text = String(bytes: buffer[byteOrderMarkLength...], encoding: encoding) else {
                    throw corrupted(
                        "is not valid \(name), the encoding its byte order mark announces",
                        format: "property list"
                    )
                }
                return text.withUTF8 { scan(UnsafeRawBufferPointer($0), validatingUTF8: false, nesting: &nesting) }
            }
        }
        switch finding {
        case nil:
            return nesting
        case .notUTF8:
            throw corrupted("is not valid UTF-8")
        case .tooDeep:
            throw corrupted("nests arrays and dictionaries more than \(maximumNesting) deep")
        case .binary(.tooDeep):
            throw corrupted(
                "nests arrays and dictionaries more than \(maximumNesting) deep",
                format: "binary property list"
            )
        case .binary(.containsItself):
            throw corrupted("has an array or dictionary that contains itself", format: "binary property list")
        case .binary(.expandsTooFar):
            throw corrupted(
                "refers to the same arrays and dictionaries so often that reading it would meet more than "
                    + "\(maximumExpansion) of them",
                format: "binary property list"
            )
        case .zeroByteAtStart:
            // Foundation reads UTF-16 and UTF-32 without a byte order mark as UTF-8, and fails on
            // the zero byte that each ASCII character has in them with "unknown tag" or
            // "unexpected character"; naming the encoding helps more. No text property list that
            // Foundation reads has a zero among its first two bytes.
            throw corrupted(
                "starts with a zero byte, as UTF-16 or UTF-32 without a byte order mark does; "
                    + "Foundation reads those encodings only after a byte order mark",
                format: "property list"
            )
        }
    }

    /// Runs `read`, which hands a document that ``check(_:)`` passed to Foundation's
    /// property-list reader: on the calling thread, or on a thread with a large stack for a
    /// document nested more than ``nestingReadOnCallingThread`` deep. An error of Foundation's
    /// reader is thrown as the `DecodingError` a malformed document throws (see
    /// ``decodingError(for:)``).
    ///
    /// - Parameters:
    ///   - nesting: How deeply the document nests, as ``check(_:)`` returned it.
    ///   - read: The read.
    /// - Returns: What `read` returns.
    @inlinable
    static func reading<Result>(nesting: Int, _ read: () throws -> Result) throws -> Result {
        do {
            guard nesting > nestingReadOnCallingThread else {
                return try read()
            }
            return try StackSpace.onFreshStack(read, unavailable: StackSpace.noThreadError(codingPath: []))
        } catch {
            throw decodingError(for: error)
        }
    }

    /// `error` as the `DecodingError` a malformed document throws, when Foundation's property
    /// list readers threw an error of their own (an object number out of range, a string longer
    /// than the document, text that cannot be converted) rather than a `DecodingError`; any other
    /// error as it is, so that a migration step's error reaches the caller unchanged.
    @usableFromInline
    static func decodingError(for error: any Error) -> any Error {
        guard !(error is DecodingError) else {
            return error
        }
        let name = String(reflecting: type(of: error))
        guard name.hasSuffix(".BPlistError") || name.hasSuffix(".XMLPlistError") else {
            return error
        }
        return DecodingError.dataCorrupted(
            .init(
                codingPath: [],
                debugDescription: "The property list is not valid: \(error).",
                underlyingError: error
            )
        )
    }

    /// Whether `data` is a property list to whatever reads it: a binary one, or text whose first
    /// kilobyte opens a `<plist` element, in UTF-8 or in any of the encodings Foundation reads
    /// after a byte order mark. Used where the coder is not known, so that a property list gets
    /// the check its reader needs and other XML does not get a property list's limits.
    static func looksLikePropertyList(_ data: Data) -> Bool {
        let prefix = data.prefix(1_024)
        if prefix.starts(with: "bplist".utf8) {
            return true
        }
        // A cut through a character ends the text early, which can only miss what follows it.
        if String(decoding: prefix, as: UTF8.self).contains("<plist") {
            return true
        }
        guard let first = prefix.first, first == 0x00 || first == 0xFE || first == 0xFF else {
            return false
        }
        let whole = prefix.prefix(prefix.count & ~3)
        let encodings: [String.Encoding] = [.utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian]
        return encodings.contains { String(data: whole, encoding: $0)?.contains("<plist") ?? false }
    }

    /// The error for a refused property list; `format` is "property list" where the refusal
    /// does not depend on the document being XML.
    private static func corrupted(_ problem: String, format: String = "XML property list") -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "The \(format) \(problem)."))
    }

    /// Why a property list is refused.
    private enum Finding {
        case notUTF8
        case tooDeep
        case zeroByteAtStart
        case binary(BinaryPropertyListCheck.Finding)
    }

    /// The encoding Foundation reads a text property list in, told by its byte order mark the way
    /// `PropertyListDecoder.detectEncoding` tells it.
    private enum TextEncoding {
        /// UTF-8, or no byte order mark at all.
        case utf8(byteOrderMarkLength: Int)
        /// An encoding that Foundation converts to UTF-8 before it scans.
        case transcoded(String.Encoding, name: String, byteOrderMarkLength: Int)

        init(byteOrderMarkOf bytes: UnsafeRawBufferPointer) {
            // -1 past the end, which no mark has.
            func byte(_ offset: Int) -> Int { offset < bytes.count ? Int(bytes[offset]) : -1 }
            switch (byte(0), byte(1), byte(2), byte(3)) {
            case (0x00, 0x00, 0xFE, 0xFF):
                self = .transcoded(.utf32BigEndian, name: "UTF-32BE", byteOrderMarkLength: 4)
            case (0xFE, 0xFF, 0x00, 0x00):
                // Not UTF-32LE's mark (that is FF FE 00 00, which Foundation reads as UTF-16LE),
                // but what Foundation takes for it.
                self = .transcoded(.utf32LittleEndian, name: "UTF-32LE", byteOrderMarkLength: 4)
            case (0xFE, 0xFF, _, _):
                self = .transcoded(.utf16BigEndian, name: "UTF-16BE", byteOrderMarkLength: 2)
            case (0xFF, 0xFE, _, _):
                self = .transcoded(.utf16LittleEndian, name: "UTF-16LE", byteOrderMarkLength: 2)
            case (0xEF, 0xBB, 0xBF, _):
                self = .utf8(byteOrderMarkLength: 3)
            default:
                self = .utf8(byteOrderMarkLength: 0)
            }
        }
    }

    /// Whether Foundation reads `text`, which has no byte order mark, as UTF-8: it does unless an
    /// `<?xml` declaration at the very start names another encoding, which Foundation refuses on
    /// Linux before scanning and converts to UTF-8 on Apple platforms. This follows Foundation's
    /// `scanForExplicitXMLEncoding`, byte for byte, so that no text it reads as UTF-8 goes
    /// unvalidated.
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
    private static func scan(_ text: UnsafeRawBufferPointer, validatingUTF8: Bool, nesting: inout Int) -> Finding? {
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
                    nesting = max(nesting, depth)
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

    /// Whether every byte of `text` is ASCII, looked at eight bytes at a time.
    private static func isASCII(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else {
            return true
        }
        let count = text.count
        var position = 0
        var seen: UInt64 = 0
        while position &+ 8 <= count {
            seen |= base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            position &+= 8
        }
        while position < count {
            seen |= UInt64(text[position])
            position &+= 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
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
    @inline(__always)
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

    /// Moves over ASCII other than `stop`, the bulk of most documents, in a loop tight enough
    /// to keep the check cheap beside the decode it guards.
    @inline(__always)
    mutating func skipASCII(until stop: UInt8) {
        var position = index
        let count = text.count
        if let base = text.baseAddress {
            // Eight bytes at a time while none of them is `stop` or above ASCII: a byte equal to
            // `stop` is a zero byte of `word ^ stops`, which the borrow trick finds.
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            let stops = UInt64(stop) &* ones
            while position &+ 8 <= count {
                let word = base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                let matched = word ^ stops
                if (matched &- ones) & ~matched & highBits != 0 || word & highBits != 0 {
                    break
                }
                position &+= 8
            }
        }
        while position < count {
            let byte = text[position]
            if byte == stop || byte >= 0x80 {
                break
            }
            position += 1
        }
        index = position
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
