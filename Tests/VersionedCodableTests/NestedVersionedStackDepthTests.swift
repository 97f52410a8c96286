import Foundation
import Testing
import VersionedCodable

/// How deep a tree of `Versioned` parts can be read on a small thread stack.
///
/// Each nested part adds the frames of its versioned decode to the recursion of the decoder
/// itself. A 512 KB stack reads about 126 nested parts in a debug build and 194 in release,
/// where plain values reach JSON's nesting limit (256); splitting the decode into frames that
/// end before the fields are read gained 13 levels but cost 6% more instructions on every
/// small decode, so it was not kept. This test guards the depth reached today, a little below
/// it, so that frames that grow are noticed. The work runs in a child process, because an
/// overflow ends the process.
@Suite("Stack depth of nested versioned values")
struct NestedVersionedStackDepthTests {
    struct TreeNode: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var children: [Versioned<TreeNode>]
    }

    /// `depth` nested nodes, as the library writes them.
    static func document(depth: Int) -> Data {
        let opening = #"{"version":1,"children":["#
        let text =
            String(repeating: opening, count: depth - 1) + #"{"version":1,"children":[]}"#
            + String(repeating: "]}", count: depth - 1)
        return Data(text.utf8)
    }

    /// Runs `work` on a thread with a 512 KB stack, the size of a secondary thread's stack on
    /// Apple platforms, and waits for it.
    static func onSmallStack(_ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.stackSize = 512 * 1_024
        thread.start()
        done.wait()
    }

    #if DEBUG
        static let depth = 115
    #else
        static let depth = 180
    #endif

    @Test("A tree of versioned nodes decodes on a 512 KB stack as deep as it did")
    func nestedVersionedPartsFitASmallStack() async {
        await #expect(processExitsWith: .success) {
            let data = NestedVersionedStackDepthTests.document(depth: NestedVersionedStackDepthTests.depth)
            NestedVersionedStackDepthTests.onSmallStack {
                guard let tree = try? JSONDecoder().decode(Versioned<TreeNode>.self, from: data) else {
                    exit(1)
                }
                var depth = 1
                var node = tree.wrappedValue
                while let child = node.children.first {
                    depth += 1
                    node = child.wrappedValue
                }
                exit(depth == NestedVersionedStackDepthTests.depth ? 0 : 1)
            }
        }
    }
}
