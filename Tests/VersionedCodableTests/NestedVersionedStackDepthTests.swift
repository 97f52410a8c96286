import Foundation
import Testing
import VersionedCodable

/// How deep a tree of `Versioned` parts can be read and written on a small thread stack.
///
/// Each nested part adds the library's frames to the recursion of the coder itself, so a tree
/// of versioned nodes used to overflow a 512 KB stack at about 134 levels in a debug build and
/// 200 in release, where the plain tree reads to JSONDecoder's nesting limit (256 nodes, each an
/// object and an array). Once the versioned parts of a document have used a fair amount of
/// stack and the rest might not fit, the library continues on a thread with a stack of its
/// own; these tests hold it to the plain tree's depth. The work runs in a child process,
/// because an overflow ends the process.
@Suite("Stack depth of nested versioned values")
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

    /// Records the thread it was decoded on, to tell whether a part left the calling thread.
    struct ThreadProbe: Codable, Equatable {
        nonisolated(unsafe) static var decodedOn: Thread?

        init() {}

        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: PlainKey.self)
            ThreadProbe.decodedOn = Thread.current
        }

        func encode(to encoder: any Encoder) throws {
            _ = encoder.container(keyedBy: PlainKey.self)
        }
    }

    struct PlainKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The deepest tree of nodes JSONDecoder reads: 512 levels of nesting.
    static let jsonLimit = 256

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

    static func depth(of tree: TreeNode) -> Int {
        var depth = 1
        var node = tree
        while let child = node.children.first {
            depth += 1
            node = child.wrappedValue
        }
        return depth
    }

    @Test("The plain tree reads to JSONDecoder's nesting limit, and no further")
    func plainTreeReachesTheLimit() throws {
        // The reference the versioned tree is held to: if JSONDecoder's limit moved, the depth
        // the other tests use would have to move with it.
        let data = Self.document(depth: Self.jsonLimit)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PlainNode.self, from: Self.document(depth: Self.jsonLimit + 1))
        }
        _ = try JSONDecoder().decode(PlainNode.self, from: data)
    }

    /// Decodes the deepest tree JSON allows, in both calls, on a stack of `stackSize` bytes, and
    /// ends the process with success when both are whole.
    static func decodeDeepestTree(onStackOf stackSize: Int) {
        let data = NestedVersionedStackDepthTests.document(depth: NestedVersionedStackDepthTests.jsonLimit)
        NestedVersionedStackDepthTests.onSmallStack(size: stackSize) {
            guard let tree = try? JSONDecoder().decode(Versioned<TreeNode>.self, from: data),
                let root = try? JSONDecoder().decode(versioned: TreeNode.self, from: data)
            else {
                exit(1)
            }
            let depths = [
                NestedVersionedStackDepthTests.depth(of: tree.wrappedValue),
                NestedVersionedStackDepthTests.depth(of: root),
            ]
            exit(depths == [256, 256] ? 0 : 1)
        }
    }

    @Test("A tree of versioned nodes as deep as JSON allows decodes on a 512 KB stack")
    func nestedVersionedPartsFitASmallStack() async {
        await #expect(processExitsWith: .success) {
            NestedVersionedStackDepthTests.decodeDeepestTree(onStackOf: 512 * 1_024)
        }
    }

    @Test("A tree of versioned nodes as deep as JSON allows decodes on a 256 KB stack")
    func nestedVersionedPartsFitASmallerStack() async {
        await #expect(processExitsWith: .success) {
            NestedVersionedStackDepthTests.decodeDeepestTree(onStackOf: 256 * 1_024)
        }
    }

    @Test("Trees of versioned nodes in property lists decode on a 512 KB stack to the input check's limit")
    func nestedVersionedPartsInPropertyLists() async {
        await #expect(processExitsWith: .success) {
            // 1,023 nodes: 2,046 arrays and dictionaries, under the check's 2,048; a plain tree
            // overflows such a stack at about 230 nodes, and asking the decoder for the coding
            // path at every deep level once made this quadratic, and overflowed it too.
            var tree = TreeNode(children: [], leaf: nil)
            for _ in 1..<1_023 {
                tree = TreeNode(children: [Versioned(tree)], leaf: nil)
            }
            // Written on this thread: Foundation's encoders serialize what they are given
            // recursively, which a 512 KB stack would not hold either for the plain tree.
            var documents: [Data] = []
            for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
                let encoder = PropertyListEncoder()
                encoder.outputFormat = format
                guard let data = try? encoder.encode(versioned: tree) else { exit(1) }
                documents.append(data)
            }
            let written = documents
            NestedVersionedStackDepthTests.onSmallStack {
                for data in written {
                    guard let read = try? PropertyListDecoder().decode(versioned: TreeNode.self, from: data),
                        NestedVersionedStackDepthTests.depth(of: read) == 1_023
                    else {
                        exit(2)
                    }
                }
                exit(0)
            }
        }
    }

    @Test("A tree of versioned nodes deeper than the plain tree can be written encodes on a 512 KB stack")
    func nestedVersionedPartsEncodeOnASmallStack() async {
        await #expect(processExitsWith: .success) {
            // Built on a large stack; writing it is what is measured.
            let depth = 220
            var node = TreeNode(children: [], leaf: nil)
            for _ in 1..<depth {
                node = TreeNode(children: [Versioned(node)], leaf: nil)
            }
            let tree = node
            NestedVersionedStackDepthTests.onSmallStack {
                guard let data = try? JSONEncoder().encode(versioned: tree),
                    let back = try? JSONDecoder().decode(versioned: TreeNode.self, from: data)
                else {
                    exit(1)
                }
                exit(back == tree && NestedVersionedStackDepthTests.depth(of: back) == depth ? 0 : 1)
            }
        }
    }

    @Test("A shallow document is read on the calling thread, and a deep one leaves it only once it is deep")
    func onlyDeepDocumentsLeaveTheThread() async {
        await #expect(processExitsWith: .success) {
            NestedVersionedStackDepthTests.onSmallStack {
                let caller = Thread.current
                for depth in [1, 2, 8] {
                    _ = try? JSONDecoder().decode(
                        versioned: TreeNode.self,
                        from: NestedVersionedStackDepthTests.document(depth: depth)
                    )
                    if ThreadProbe.decodedOn !== caller {
                        exit(2)
                    }
                }
                _ = try? JSONDecoder().decode(
                    versioned: TreeNode.self,
                    from: NestedVersionedStackDepthTests.document(depth: NestedVersionedStackDepthTests.jsonLimit)
                )
                exit(ThreadProbe.decodedOn !== caller && ThreadProbe.decodedOn != nil ? 0 : 3)
            }
        }
    }

    @Test("An array of many versioned items is read on the calling thread, however little stack is left")
    func arraysOfPartsStayOnTheThread() async {
        await #expect(processExitsWith: .success) {
            NestedVersionedStackDepthTests.onSmallStack(size: 128 * 1_024) {
                let caller = Thread.current
                let items = Array(repeating: Versioned(TreeNode(children: [], leaf: ThreadProbe())), count: 200)
                guard let data = try? JSONEncoder().encode(items) else {
                    exit(1)
                }
                ThreadProbe.decodedOn = nil
                guard let back = try? JSONDecoder().decode([Versioned<TreeNode>].self, from: data) else {
                    exit(2)
                }
                exit(back.count == 200 && ThreadProbe.decodedOn === caller ? 0 : 3)
            }
        }
    }
}
