import Foundation

/// Checks an XML property list before Foundation parses it, for the two inputs that stop the
/// process inside Foundation's XML property list reader instead of throwing: bytes that are not
/// UTF-8 inside a value, and nesting deep enough to overflow the stack of the recursive scanner.
///
/// Binary property lists and XML in UTF-16 (which starts with a byte order mark) are left to
/// Foundation, which reads them safely.
enum PropertyListInputCheck {
    /// Far deeper than any real document, and shallow enough for the scanner's recursion on a
    /// secondary thread's stack.
    static let maximumDepth = 256

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

    private static func isValidUTF8(_ data: Data) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid:
                continue
            case .emptyInput:
                return true
            case .error:
                return false
            }
        }
    }

    /// Counts `<array>` and `<dict>` against their closing tags; `<array/>` does not nest.
    private static func nestingDepth(_ data: Data, exceeds limit: Int) -> Bool {
        let opening: [[UInt8]] = [Array("<array>".utf8), Array("<dict>".utf8)]
        let closing: [[UInt8]] = [Array("</array>".utf8), Array("</dict>".utf8)]
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            var depth = 0
            var index = 0
            while index < buffer.count {
                if buffer[index] == UInt8(ascii: "<") {
                    let rest = buffer[index...]
                    if opening.contains(where: { rest.starts(with: $0) }) {
                        depth += 1
                        if depth > limit {
                            return true
                        }
                    } else if closing.contains(where: { rest.starts(with: $0) }) {
                        depth -= 1
                    }
                }
                index += 1
            }
            return false
        }
    }
}
