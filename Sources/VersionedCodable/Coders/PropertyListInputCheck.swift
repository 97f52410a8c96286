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

    /// Counts open elements, whatever their names and attributes: `<name ...>` opens one,
    /// `</name>` closes one, and `<name/>`, `<?...?>`, comments and CDATA leave the depth as it
    /// is. Leaf elements such as `<string>` count for a moment, as does `<plist>`, which the
    /// limit allows for.
    private static func nestingDepth(_ data: Data, exceeds limit: Int) -> Bool {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            let less = UInt8(ascii: "<")
            let greater = UInt8(ascii: ">")
            let slash = UInt8(ascii: "/")
            var depth = 0
            var index = 0

            func skip(past terminator: [UInt8]) {
                while index < buffer.count, !buffer[index...].starts(with: terminator) {
                    index += 1
                }
                index += terminator.count
            }

            while index < buffer.count {
                guard buffer[index] == less else {
                    index += 1
                    continue
                }
                let rest = buffer[index...]
                if rest.starts(with: "<!--".utf8) {
                    skip(past: Array("-->".utf8))
                } else if rest.starts(with: "<![CDATA[".utf8) {
                    skip(past: Array("]]>".utf8))
                } else if rest.starts(with: "<?".utf8) || rest.starts(with: "<!".utf8) {
                    skip(past: [greater])
                } else if rest.starts(with: "</".utf8) {
                    depth -= 1
                    skip(past: [greater])
                } else {
                    skip(past: [greater])
                    let selfClosing = index >= 2 && index - 2 < buffer.count && buffer[index - 2] == slash
                    if !selfClosing {
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
