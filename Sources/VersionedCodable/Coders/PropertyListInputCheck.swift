import Foundation

/// Checks an XML property list before Foundation parses it, for the two inputs that stop the
/// process inside Foundation's XML property list reader instead of throwing: bytes that are not
/// UTF-8 inside a value, and nesting deep enough to overflow the stack of the recursive scanner.
///
/// Binary property lists and XML in UTF-16 (which starts with a byte order mark) are left to
/// Foundation, which reads them safely.
enum PropertyListInputCheck {
    /// Far deeper than any real document, and shallow enough for the scanner's recursion on a
    /// secondary thread's stack: 256 levels of arrays and dictionaries, plus `<plist>` and a
    /// leaf element.
    static let maximumDepth = 258

    static func check(_ data: Data) throws {
        guard !data.starts(with: "bplist".utf8), !data.starts(with: [0xFE, 0xFF]), !data.starts(with: [0xFF, 0xFE])
        else {
            return
        }
        guard isValidUTF8(data) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The XML property list is not valid UTF-8.")
            )
        }
        if nestingDepth(data, exceeds: maximumDepth) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [],
                    debugDescription:
                        "The XML property list nests arrays and dictionaries more than \(maximumDepth) deep."
                )
            )
        }
    }

    /// Validates UTF-8 by hand over the raw bytes, with a fast path for ASCII, since the check
    /// runs before every versioned XML property list decode.
    private static func isValidUTF8(_ data: Data) -> Bool {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            let count = buffer.count
            var index = 0
            while index < count {
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
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
                guard index + length <= count, second.contains(buffer[index + 1]) else {
                    return false
                }
                for offset in 2..<length where buffer[index + offset] & 0xC0 != 0x80 {
                    return false
                }
                index += length
            }
            return true
        }
    }

    /// Counts open elements, whatever their names and attributes: `<name ...>` opens one,
    /// `</name>` closes one, and `<name/>`, `<?...?>`, comments and CDATA leave the depth as it
    /// is. Leaf elements such as `<string>` count for a moment, as does `<plist>`, which the
    /// limit allows for.
    private static func nestingDepth(_ data: Data, exceeds limit: Int) -> Bool {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            let count = buffer.count
            var depth = 0
            var index = 0

            /// Moves `index` past the next `>`, and tells whether the byte before it was `/`.
            func skipTag() -> Bool {
                while index < count, buffer[index] != UInt8(ascii: ">") {
                    index += 1
                }
                let selfClosing = index > 0 && index < count && buffer[index - 1] == UInt8(ascii: "/")
                index += 1
                return selfClosing
            }

            func skip(past terminator: StaticString) {
                let end = UnsafeRawBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
                while index < count, !buffer[index...].starts(with: end) {
                    index += 1
                }
                index += end.count
            }

            func startsHere(_ prefix: StaticString) -> Bool {
                let bytes = UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                return buffer[index...].starts(with: bytes)
            }

            while index < count {
                guard buffer[index] == UInt8(ascii: "<") else {
                    index += 1
                    continue
                }
                let next = index + 1 < count ? buffer[index + 1] : 0
                switch next {
                case UInt8(ascii: "!"):
                    if startsHere("<!--") {
                        skip(past: "-->")
                    } else if startsHere("<![CDATA[") {
                        skip(past: "]]>")
                    } else {
                        _ = skipTag()
                    }
                case UInt8(ascii: "?"):
                    _ = skipTag()
                case UInt8(ascii: "/"):
                    depth -= 1
                    _ = skipTag()
                default:
                    if !skipTag() {
                        depth += 1
                        if depth > limit {
                            return true
                        }
                    }
                }
            }
            return false
        }
    }
}
