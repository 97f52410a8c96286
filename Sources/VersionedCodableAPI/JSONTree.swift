/// A JSON document as a tree whose leaves keep their text as it was written.
///
/// The merge compares three encodes of values of one type, made by one encoder: equal values
/// are equal text, so a leaf is compared and written back as its bytes, and a number or a
/// string never passes through another Swift type that could round it.
enum JSONTree: Hashable {
    /// A string (with its quotes), a number, `true`, `false` or `null`, as written.
    case leaf(ArraySlice<UInt8>)
    case array([JSONTree])
    case object([Member])

    /// A key of an object: `name` for comparing, `text` (quoted, as written) for writing back.
    struct Member: Hashable {
        var name: String
        var text: ArraySlice<UInt8>
        var value: JSONTree
    }

    var isNull: Bool {
        if case .leaf(let text) = self { return text.elementsEqual("null".utf8) }
        return false
    }

    /// Every member and element either tree has, for checking a body's fields against what
    /// several elements were written back with: objects join their members, arrays their
    /// elements, into one element.
    static func union(_ lhs: JSONTree?, _ rhs: JSONTree) -> JSONTree {
        switch (lhs, rhs) {
        case (.object(let left)?, .object(let right)):
            var members = left
            var positions: [String: Int] = [:]
            for (index, member) in members.enumerated() where positions[member.name] == nil {
                positions[member.name] = index
            }
            for member in right {
                if let index = positions[member.name] {
                    members[index].value = union(members[index].value, member.value)
                } else {
                    positions[member.name] = members.count
                    members.append(member)
                }
            }
            return .object(members)
        case (.array(let left)?, .array(let right)):
            let elements = left + right
            guard let first = elements.first else { return .array([]) }
            return .array([elements.dropFirst().reduce(first) { union($0, $1) }])
        case (nil, _):
            return rhs
        case (let left?, _):
            return left
        }
    }

    /// The tree with every array's elements in the order of their text: equal when two trees
    /// differ only in the order a set or a dictionary was written in.
    var withArraysSorted: JSONTree {
        switch self {
        case .leaf:
            return self
        case .array(let elements):
            let sorted = elements.map { element in
                let tree = element.withArraysSorted
                return (tree: tree, text: tree.bytes)
            }.sorted { $0.text.lexicographicallyPrecedes($1.text) }
            return .array(sorted.map(\.tree))
        case .object(let members):
            return .object(
                members.map { JSONTree.Member(name: $0.name, text: $0.text, value: $0.value.withArraysSorted) }
            )
        }
    }

    /// The tree's text, cut and escaped to quote in an error: it may come from a client.
    var shortText: String {
        escapedForMessage(String(decoding: bytes.prefix(256), as: UTF8.self), limit: 64)
    }

    /// The string a string leaf holds, escapes resolved; `nil` for anything else.
    var stringValue: String? {
        guard case .leaf(let text) = self, text.first == UInt8(ascii: "\"") else { return nil }
        return try? Parser.unquote(text)
    }

    /// The value of the member named `name`, when this is an object that has one.
    subscript(member name: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// The tree as JSON text.
    var bytes: [UInt8] {
        var output: [UInt8] = []
        write(to: &output)
        return output
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .leaf(let text):
            output.append(contentsOf: text)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(contentsOf: member.text)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONTree {
    /// Parses a document that a JSON decoder has already accepted, or that an encoder wrote.
    ///
    /// It checks the structure (brackets, separators, quotes), which is all the merge relies
    /// on, and leaves the spelling of numbers and literals to the decoder that reads the
    /// result.
    ///
    /// - Parameter bytes: The document.
    /// - Throws: ``JSONTree/Malformed`` where the structure breaks or nests deeper than
    ///   ``maximumDepth``.
    init(parsing bytes: [UInt8]) throws {
        var parser = Parser(bytes: bytes)
        self = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == bytes.count else { throw Malformed(offset: parser.position) }
    }

    /// How deep arrays and objects may nest: deeper than any decoder of the platform reads.
    static let maximumDepth = 512

    /// Where a document's structure breaks.
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int

        var description: String {
            "the body is not JSON that fields can be checked in (UTF-8, without JSON5's extensions) at byte \(offset)"
        }
    }

    fileprivate struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> JSONTree {
            skipSpace()
            guard position < bytes.count, depth < JSONTree.maximumDepth else { throw Malformed(offset: position) }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [Member] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                repeat {
                    skipSpace()
                    let text = try string()
                    skipSpace()
                    try expect(":")
                    members.append(Member(name: try Self.unquote(text), text: text, value: try value(depth: depth + 1)))
                    skipSpace()
                } while try separator(closing: "}")
                return .object(members)
            case UInt8(ascii: "["):
                position += 1
                var elements: [JSONTree] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                repeat {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                } while try separator(closing: "]")
                return .array(elements)
            case UInt8(ascii: "\""):
                return .leaf(try string())
            default:
                let start = position
                while position < bytes.count, !Self.ends(bytes[position]) {
                    position += 1
                }
                guard position > start else { throw Malformed(offset: position) }
                return .leaf(bytes[start..<position])
            }
        }

        /// Consumes `,` (another element follows) or `closing` (the container ends).
        mutating func separator(closing: Unicode.Scalar) throws -> Bool {
            guard position < bytes.count else { throw Malformed(offset: position) }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                return true
            }
            try expect(closing)
            return false
        }

        mutating func expect(_ character: Unicode.Scalar) throws {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else {
                throw Malformed(offset: position)
            }
            position += 1
        }

        /// A string with its quotes, as written.
        mutating func string() throws -> ArraySlice<UInt8> {
            let start = position
            try expect("\"")
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    position += 1
                    return bytes[start..<position]
                case UInt8(ascii: "\\"):
                    position += 2
                default:
                    position += 1
                }
            }
            throw Malformed(offset: start)
        }

        static func ends(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: true
            default: false
            }
        }

        /// The string a quoted key stands for, escapes resolved.
        static func unquote(_ text: ArraySlice<UInt8>) throws -> String {
            let inner = text.dropFirst().dropLast()
            guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
            var units: [UInt16] = []
            var index = inner.startIndex
            func hex(_ offset: Int) throws -> UInt16 {
                guard offset + 4 <= inner.endIndex,
                    let value = UInt16(String(decoding: inner[offset..<offset + 4], as: UTF8.self), radix: 16)
                else { throw Malformed(offset: offset) }
                return value
            }
            var scalars: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: units, as: UTF16.self).utf8)
                units.removeAll()
            }
            while index < inner.endIndex {
                let byte = inner[index]
                guard byte == UInt8(ascii: "\\"), index + 1 < inner.endIndex else {
                    flush()
                    scalars.append(byte)
                    index += 1
                    continue
                }
                let escaped = inner[index + 1]
                index += 2
                if escaped == UInt8(ascii: "u") {
                    units.append(try hex(index))
                    index += 4
                    continue
                }
                flush()
                switch escaped {
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                default: scalars.append(escaped)
                }
            }
            flush()
            return String(decoding: scalars, as: UTF8.self)
        }
    }
}
