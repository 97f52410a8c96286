import Foundation
import Testing
import VersionedCodable

/// How deep a tree of `Versioned` parts is read and written: to `maximumVersionedPartDepth`
/// keys and indexes, on a 512 KB thread stack in this debug build, and no deeper, with an error
/// that says where. The work on a small stack runs in a child process, because an overflow
/// ends the process.
@Suite("The nesting limit of versioned parts")
struct NestedVersionedStackDepthTests {
    struct TreeNode: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var children: [Versioned<TreeNode>]
        var leaf: ThreadProbe?
    }

    struct PlainNode: Codable {
        var version: Int
        var children: [PlainNode]
    }

    /// An empty object in the innermost node.
    struct ThreadProbe: Codable, Equatable {}

    /// The deepest tree whose innermost part is within the limit: each node below the root
    /// adds two keys to the coding path (`children` and an index).
    static let deepest = maximumVersionedPartDepth / 2 + 1

    /// `depth` nested nodes, as the library writes them, with a probe in the innermost one.
    static func document(depth: Int) -> Data {
        let opening = #"{"version":1,"children":["#
        let text =
            String(repeating: opening, count: depth - 1) + #"{"version":1,"children":[],"leaf":{}}"#
            + String(repeating: "]}", count: depth - 1)
        return Data(text.utf8)
    }

    /// Runs `work` on a thread with a stack of `size` bytes (512 KB is the size of a secondary
    /// thread's stack on Apple platforms) and waits for it.
    static func onSmallStack(size: Int = 512 * 1_024, _ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
    }

    /// Writes and reads `tree` in both property-list formats, and ends the process: with 0 when
    /// both read back equal, with 2 when one does not.
    static func roundTripInPropertyLists<Tree: VersionedCodable & Equatable>(_ tree: Tree) -> Never {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            guard let data = try? encoder.encode(versioned: tree),
                (try? PropertyListDecoder().decode(versioned: Tree.self, from: data)) == tree
            else {
                exit(2)
            }
        }
        exit(0)
    }

    static func tree(depth: Int) -> TreeNode {
        var node = TreeNode(children: [], leaf: ThreadProbe())
        for _ in 1..<depth {
            node = TreeNode(children: [Versioned(node)], leaf: nil)
        }
        return node
    }

    static func depth(of tree: TreeNode) -> Int {
        var depth = 1
        var node = tree
        while let child = node.children.first {
            depth += 1
            node = child.wrappedValue
        }
        return depth
    }

    @Test("A tree of versioned nodes at the limit reads and writes on a 512 KB stack, in JSON and property lists")
    func treeAtTheLimitFitsASmallStack() async {
        await #expect(processExitsWith: .success) {
            let tree = NestedVersionedStackDepthTests.tree(depth: NestedVersionedStackDepthTests.deepest)
            NestedVersionedStackDepthTests.onSmallStack {
                let json = NestedVersionedStackDepthTests.document(depth: NestedVersionedStackDepthTests.deepest)
                guard let read = try? JSONDecoder().decode(versioned: TreeNode.self, from: json),
                    let part = try? JSONDecoder().decode(Versioned<TreeNode>.self, from: json),
                    read == tree, part.wrappedValue == tree,
                    let written = try? JSONEncoder().encode(versioned: tree),
                    (try? JSONDecoder().decode(versioned: TreeNode.self, from: written)) == tree
                else {
                    exit(1)
                }
                NestedVersionedStackDepthTests.roundTripInPropertyLists(tree)
            }
        }
    }

    /// A node whose one child is optional: each node adds one key to the coding path, so the
    /// tree at the limit is twice as deep as one of arrays.
    final class ChainNode: VersionedCodable, Equatable, Sendable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        let child: Versioned<ChainNode>?
        let depth: Int

        init(child: Versioned<ChainNode>?, depth: Int) {
            self.child = child
            self.depth = depth
        }

        static func == (lhs: ChainNode, rhs: ChainNode) -> Bool {
            lhs.depth == rhs.depth && lhs.child?.wrappedValue == rhs.child?.wrappedValue
        }
    }

    static func chain(depth: Int) -> ChainNode {
        var node = ChainNode(child: nil, depth: 1)
        for level in 1..<depth {
            node = ChainNode(child: Versioned(node), depth: level + 1)
        }
        return node
    }

    @Test("A tree of versioned nodes with an optional child at the limit reads and writes on a 512 KB stack")
    func optionalChildrenAtTheLimitFitASmallStack() async {
        await #expect(processExitsWith: .success) {
            let tree = NestedVersionedStackDepthTests.chain(depth: maximumVersionedPartDepth + 1)
            NestedVersionedStackDepthTests.onSmallStack {
                guard let json = try? JSONEncoder().encode(versioned: tree),
                    (try? JSONDecoder().decode(versioned: ChainNode.self, from: json)) == tree
                else {
                    exit(1)
                }
                NestedVersionedStackDepthTests.roundTripInPropertyLists(tree)
            }
        }
        #expect(throws: EncodingError.self) {
            try JSONEncoder().encode(versioned: Self.chain(depth: maximumVersionedPartDepth + 2))
        }
    }

    /// The type of an old build, which keeps the fields of a newer document that it does not know.
    struct Shelf: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var name: String
    }

    /// A value of any depth, made of objects and arrays with a number in the innermost one.
    indirect enum Nest: Codable, Equatable, Sendable {
        case leaf(Int)
        case array([Nest])
        case object([String: Nest])

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let value = try? single.decode(Int.self) {
                self = .leaf(value)
            } else if let elements = try? single.decode([Nest].self) {
                self = .array(elements)
            } else {
                self = .object(try single.decode([String: Nest].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            switch self {
            case .leaf(let value): try single.encode(value)
            case .array(let elements): try single.encode(elements)
            case .object(let fields): try single.encode(fields)
            }
        }
    }

    /// A version-2 shelf as a newer build writes it, with a field that a build of version 1 keeps.
    struct NewerShelf: Codable, Equatable {
        var version = 2
        var versionReadableFrom = 1
        var versionWritableFrom = 1
        var name = "books"
        var deep: Nest
    }

    static func write(_ value: some Encodable, as format: String) throws -> Data {
        if format == "json" {
            return try JSONEncoder().encode(value)
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == "xml" ? .xml : .binary
        return try encoder.encode(value)
    }

    static func read<Value: Decodable>(_ type: Value.Type, _ data: Data, as format: String) throws -> Value {
        format == "json"
            ? try JSONDecoder().decode(type, from: data) : try PropertyListDecoder().decode(type, from: data)
    }

    @Test("Kept objects and arrays nested to the limit are read and written back on a 512 KB stack, in every format")
    func keptValuesAtTheLimitFitASmallStack() async {
        await #expect(processExitsWith: .success) {
            // The outermost value is at `deep`, one key from the root, and the innermost one at
            // the limit, holding a number.
            var objects = Nest.leaf(1)
            var arrays = Nest.leaf(1)
            for _ in 0..<maximumVersionedPartDepth {
                objects = .object(["a": objects])
                arrays = .array([arrays])
            }
            for deep in [objects, arrays] {
                for format in ["json", "xml", "binary"] {
                    guard let document = try? NestedVersionedStackDepthTests.write(NewerShelf(deep: deep), as: format)
                    else {
                        exit(3)
                    }
                    // Read and written back on the small stack; compared on the main thread's.
                    nonisolated(unsafe) var written: Data?
                    NestedVersionedStackDepthTests.onSmallStack {
                        guard
                            var read = try? NestedVersionedStackDepthTests.read(
                                Versioned<Shelf>.self,
                                document,
                                as: format
                            )
                        else {
                            return
                        }
                        read.wrappedValue.name = "records"
                        written = try? NestedVersionedStackDepthTests.write(read, as: format)
                    }
                    guard let written,
                        (try? Self.read(NewerShelf.self, written, as: format))
                            == NewerShelf(name: "records", deep: deep)
                    else {
                        exit(1)
                    }
                }
            }
            exit(0)
        }
    }

    @Test("A part one level past the limit throws an error that says the document nests too deep, and where")
    func pastTheLimitThrows() throws {
        let depth = Self.deepest + 1
        let data = Self.document(depth: depth)
        do {
            _ = try JSONDecoder().decode(versioned: TreeNode.self, from: data)
            Issue.record("A tree past the limit decoded")
        } catch let DecodingError.dataCorrupted(context) {
            // The innermost part's error, wrapped by each part above it.
            var innermost = context
            while case let DecodingError.dataCorrupted(inner)? = innermost.underlyingError as? DecodingError {
                innermost = inner
            }
            #expect(innermost.codingPath.count == maximumVersionedPartDepth + 2)
            #expect(innermost.debugDescription.contains("more than \(maximumVersionedPartDepth) keys and indexes deep"))
        }
        do {
            _ = try JSONEncoder().encode(versioned: Self.tree(depth: depth))
            Issue.record("A tree past the limit encoded")
        } catch let error as EncodingError {
            #expect("\(error)".contains("more than \(maximumVersionedPartDepth) keys and indexes deep"))
        }
    }

    @Test("Ten thousand nested parts throw rather than overflow the stack")
    func farPastTheLimitThrows() {
        // JSONDecoder itself refuses nesting this deep; the versioned decode throws, in any case.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(versioned: TreeNode.self, from: Self.document(depth: 10_000))
        }
    }

    @Test("An array of many versioned items is not limited: each item is one level deep")
    func arraysOfPartsAreNotLimited() throws {
        let items = Array(repeating: Versioned(TreeNode(children: [], leaf: nil)), count: 5_000)
        let data = try JSONEncoder().encode(items)
        #expect(try JSONDecoder().decode([Versioned<TreeNode>].self, from: data).count == 5_000)
    }
}
