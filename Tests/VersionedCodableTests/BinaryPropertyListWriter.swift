import Foundation

/// Writes the few binary property lists that `PropertyListSerialization` cannot: nesting deeper
/// than a recursive writer should be asked for, cycles, and repeated keys.
///
/// The format: `bplist00`, the objects, a table of their offsets, and a 32-byte trailer. Every
/// offset here is four bytes, and every object reference two, or four past 65,535 objects.
enum BinaryPropertyListWriter {
    enum Object {
        case ascii(String)
        case integer(UInt8)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    static func write(_ objects: [Object]) -> Data {
        var out = Data("bplist00".utf8)
        var offsets: [Int] = []
        func marker(_ high: UInt8, count: Int) {
            if count < 15 {
                out.append(high | UInt8(count))
            } else {
                out.append(high | 0x0F)
                out.append(0x12)
                out.append(contentsOf: withUnsafeBytes(of: UInt32(count).bigEndian, Array.init))
            }
        }
        let referenceSize = objects.count > 0xFFFF ? 4 : 2
        func reference(_ index: Int) {
            out.append(contentsOf: (0..<referenceSize).reversed().map { UInt8(truncatingIfNeeded: index >> ($0 * 8)) })
        }
        for object in objects {
            offsets.append(out.count)
            switch object {
            case .ascii(let text):
                marker(0x50, count: text.utf8.count)
                out.append(contentsOf: text.utf8)
            case .integer(let value):
                out.append(contentsOf: [0x10, value])
            case .array(let elements):
                marker(0xA0, count: elements.count)
                elements.forEach(reference)
            case .dictionary(let keys, let values):
                marker(0xD0, count: keys.count)
                keys.forEach(reference)
                values.forEach(reference)
            }
        }
        let tableOffset = out.count
        for offset in offsets {
            out.append(contentsOf: withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init))
        }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)])
        out.append(contentsOf: withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init))
        out.append(contentsOf: withUnsafeBytes(of: UInt64(0).bigEndian, Array.init))
        out.append(contentsOf: withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init))
        return out
    }

    /// A version 3 note whose `tags` is `depth` arrays, each holding the next.
    static func noteWithDeeplyNestedTags(depth: Int) -> Data {
        var objects: [Object] = [
            .dictionary(keys: [1, 2, 3, 4], values: [5, 6, 8, 7]),
            .ascii("version"), .ascii("title"), .ascii("count"), .ascii("tags"),
            .integer(3), .ascii("t"), .integer(1),
        ]
        let first = objects.count
        for level in 0..<depth {
            objects.append(level == depth - 1 ? .array([]) : .array([first + level + 1]))
        }
        return write(objects)
    }

    /// A version 3 note whose `tags` array holds itself.
    static func noteWithCyclicTags() -> Data {
        write([
            .dictionary(keys: [1, 2, 3, 4], values: [5, 6, 7, 8]),
            .ascii("version"), .ascii("title"), .ascii("count"), .ascii("tags"),
            .integer(3), .ascii("t"), .integer(1), .array([8, 8]),
        ])
    }

    static func noteWithDuplicateVersion(_ versions: (Int, Int)) -> Data {
        write([
            .dictionary(keys: [1, 2, 3, 1, 4], values: [5, 7, 8, 6, 9]),
            .ascii("version"), .ascii("title"), .ascii("tags"), .ascii("count"),
            .integer(UInt8(versions.0)), .integer(UInt8(versions.1)), .ascii("Ode"), .array([10]),
            .integer(5),
            .ascii("a"),
        ])
    }
}
