import Foundation
import Testing
import VersionedCodable

/// How deep a tree of `Versioned` parts can be read on a small thread stack.
///
/// Each nested part adds the frames of its versioned decode to the recursion of the decoder
/// itself, so the library keeps those frames small: the work done before the part's fields
/// are read (the version, the chain check) and after a failure (locating it) happens in
/// functions whose frames are gone by the time the recursion continues. The depths below are
/// past where the library overflowed a 512 KB stack before that (about 126 levels in a debug
/// build, 194 in release), measured in the build `swift test` makes. The work runs in a child
/// process, because an overflow ends the process.
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
        static let depth = 134
    #else
        static let depth = 200
    #endif

    @Test("A tree of versioned nodes decodes on a 512 KB stack past the depth that overflowed it")
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
