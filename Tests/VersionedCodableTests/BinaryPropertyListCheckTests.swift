import Foundation
import Testing
import VersionedCodable

extension BinaryPropertyListWriter {
    /// The objects of `{"version": 1, "items": [[[…]]]}`, the arrays nested `depth` deep and
    /// numbered from 4.
    static func nestedItems(depth: Int) -> [Object] {
        var objects: [Object] = [
            .dictionary(keys: [1, 3], values: [2, 4]), .ascii("version"), .integer(1), .ascii("items"),
        ]
        for level in 0..<depth {
            objects.append(.array(level == depth - 1 ? [] : [objects.count + 1]))
        }
        return objects
    }
}

@Suite("Checking binary property lists before Foundation reads them")
struct BinaryPropertyListCheckTests {
    struct Tree: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var items: [Nested]
    }

    /// An array of arrays to any depth.
    struct Nested: Codable, Equatable {
        var children: [Nested]
        init(children: [Nested]) { self.children = children }
        init(from decoder: any Decoder) throws { children = try [Nested](from: decoder) }
        func encode(to encoder: any Encoder) throws { try children.encode(to: encoder) }
    }

    /// Whether decoding `data` throws `DecodingError.dataCorrupted` saying `words`.
    static func refuses(_ data: Data, saying words: String) -> Bool {
        do {
            _ = try PropertyListDecoder().decode(versioned: Tree.self, from: data)
            return false
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription.contains(words)
        } catch {
            return false
        }
    }

    @Test("What the check builds reads as Foundation reads it, nested a few levels")
    func shallowNestingDecodes() throws {
        let tree = try PropertyListDecoder().decode(
            versioned: Tree.self,
            from: BinaryPropertyListWriter.write(BinaryPropertyListWriter.nestedItems(depth: 3))
        )
        #expect(tree == Tree(items: [Nested(children: [Nested(children: [])])]))
        #expect(
            try PropertyListDecoder().storedVersion(
                of: Tree.self,
                from: BinaryPropertyListWriter.write(BinaryPropertyListWriter.nestedItems(depth: 3))
            ) == 1
        )
    }

    @Test("Arrays nested thousands deep throw rather than overflow the stack")
    func deepNesting() async {
        await #expect(processExitsWith: .success) {
            for depth in [2_100, 100_000] {
                guard
                    Self.refuses(
                        BinaryPropertyListWriter.write(BinaryPropertyListWriter.nestedItems(depth: depth)),
                        saying: "nests"
                    )
                else { exit(1) }
            }
            // Deeper than a 512 KB stack holds, and read on a stack of its own.
            let deep = BinaryPropertyListWriter.write(BinaryPropertyListWriter.nestedItems(depth: 1_500))
            guard (try? PropertyListDecoder().decode(versioned: Tree.self, from: deep)) != nil else { exit(2) }
        }
    }

    @Test("An array that contains itself throws rather than recurse forever")
    func arrayContainingItself() async {
        await #expect(processExitsWith: .success) {
            var objects = BinaryPropertyListWriter.nestedItems(depth: 3)
            objects[6] = .array([4])
            guard Self.refuses(BinaryPropertyListWriter.write(objects), saying: "contains itself") else { exit(1) }
            let root = BinaryPropertyListWriter.write([.dictionary(keys: [1], values: [0]), .ascii("items")])
            guard Self.refuses(root, saying: "contains itself") else { exit(2) }
        }
    }

    @Test("Arrays that each refer to the next twice throw rather than read it 2^40 times")
    func sharedArrays() async {
        await #expect(processExitsWith: .success) {
            var objects = BinaryPropertyListWriter.nestedItems(depth: 40)
            for index in 4..<(objects.count - 1) {
                objects[index] = .array([index + 1, index + 1])
            }
            guard Self.refuses(BinaryPropertyListWriter.write(objects), saying: "so often") else { exit(1) }
        }
    }

    @Test("An object number past the table throws a DecodingError, not the reader's own error")
    func referenceOutOfRange() throws {
        var objects = BinaryPropertyListWriter.nestedItems(depth: 3)
        objects[5] = .array([200])
        #expect(throws: DecodingError.self) {
            try PropertyListDecoder().decode(versioned: Tree.self, from: BinaryPropertyListWriter.write(objects))
        }
        // The version itself is readable; only the part past the table is not.
        #expect(
            try PropertyListDecoder().storedVersion(of: Tree.self, from: BinaryPropertyListWriter.write(objects)) == 1
        )
        objects[0] = .dictionary(keys: [1, 3], values: [90, 4])
        #expect(throws: DecodingError.self) {
            try PropertyListDecoder().storedVersion(of: Tree.self, from: BinaryPropertyListWriter.write(objects))
        }
    }
}
