import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

/// A version 1 client's edit of `stored`, sent as `body`, merged through the body.
private func edit(
    _ body: String,
    into stored: Board = BoardAPI.stored,
    identity: ElementIdentity = .member("id")
)
    throws -> Board
{
    let versions = try BoardAPI.versions(identity: identity)
    return try versions.merge(Board.self, from: Data(body.utf8), at: BoardAPI.first, into: stored)
}

/// The body a version 1 client sends for `tasks`, with the rest of the board as it was shown.
private func tasks(_ tasks: String) -> String {
    #"{"title":"Week","notes":[{"text":"Rent"},{"text":"Milk"}],"tags":"home,a,b","tasks":"# + tasks + "}"
}

private func cannotMerge(at expected: String) -> (any Error) -> Bool {
    { error in
        guard case .cannotMerge(_, _, let path, _) = error as? APIVersionError else { return false }
        return path == expected
    }
}

@Suite("Each element of an edited array keeps its own hidden fields")
struct ElementIdentityTests {
    @Test("Removing one task, editing another and adding a third: each keeps its own assignee")
    func removeEditAdd() throws {
        let merged = try edit(tasks(#"[{"id":9,"title":"Email Bo"},{"id":12,"title":"Book"}]"#))
        #expect(
            merged.tasks == [
                .init(id: 9, title: "Email Bo", assignee: "Ben"),
                .init(id: 12, title: "Book", assignee: nil),
            ]
        )
    }

    @Test("Inserting at the front, moving and editing: matched by id wherever each one went")
    func insertMoveEdit() throws {
        let merged = try edit(
            tasks(#"[{"id":1,"title":"First"},{"id":9,"title":"Email"},{"id":7,"title":"Call Ana"}]"#)
        )
        #expect(
            merged.tasks == [
                .init(id: 1, title: "First", assignee: nil),
                .init(id: 9, title: "Email", assignee: "Ben"),
                .init(id: 7, title: "Call Ana", assignee: "Ana"),
            ]
        )
    }

    @Test("Removing every task but one, or every task: what is left is its own")
    func removals() throws {
        #expect(try edit(tasks(#"[{"id":9,"title":"Email"}]"#)).tasks == [BoardAPI.stored.tasks[1]])
        #expect(try edit(tasks("[]")).tasks == [])
    }

    @Test("A changed id is another task: the stored one is removed, its assignee with it")
    func changedIdentity() throws {
        let merged = try edit(tasks(#"[{"id":8,"title":"Call"},{"id":9,"title":"Email"}]"#))
        #expect(merged.tasks == [.init(id: 8, title: "Call", assignee: nil), BoardAPI.stored.tasks[1]])
    }

    @Test("Two tasks sent with one id: refused at the second, nothing guessed")
    func duplicateIdentitySent() {
        #expect(throws: APIVersionError.self) {
            try edit(tasks(#"[{"id":9,"title":"A"},{"id":9,"title":"B"}]"#))
        }
        #expect(
            performing: { try edit(tasks(#"[{"id":9,"title":"A"},{"id":9,"title":"B"}]"#)) },
            throws: cannotMerge(at: "tasks[1]")
        )
    }

    @Test("Two stored tasks with one id: an edit of the list is refused naming it")
    func duplicateIdentityStored() {
        var stored = BoardAPI.stored
        stored.tasks[1].id = 7
        #expect(
            performing: { try edit(tasks(#"[{"id":7,"title":"Call"}]"#), into: stored) },
            throws: cannotMerge(at: "tasks")
        )
    }

    @Test("An identity is named per array, or none, beside the default member")
    func identityDeclaration() throws {
        // snippet: element-identity
        let identity = ElementIdentity.member("id")
            .identifying(elementsOf: "columns.cards", by: "slug")
            .identifying(elementsOf: "history", by: nil)
        // end snippet
        let versions = try BoardAPI.versions(identity: identity)
        #expect(versions.elementIdentity == identity)
        #expect(identity != .member("id"))
    }

    @Test("An identity named per array: tasks matched by title when the declaration says so")
    func identityPerArray() throws {
        let identity = ElementIdentity.none.identifying(elementsOf: "tasks", by: "title")
        let merged = try edit(tasks(#"[{"id":70,"title":"Call"},{"id":90,"title":"Email"}]"#), identity: identity)
        #expect(merged.tasks.map(\.assignee) == ["Ana", "Ben"])
        #expect(merged.tasks.map(\.id) == [70, 90])
    }

    @Test("Without an identity, a task removed and another appended is refused")
    func noIdentityRemoveAndAppend() {
        #expect(
            performing: {
                try edit(tasks(#"[{"id":9,"title":"Email"},{"id":12,"title":"Book"}]"#), identity: .none)
            },
            throws: cannotMerge(at: "tasks")
        )
    }

    @Test("Without an identity, edits in place merge with the element at their place")
    func noIdentityInPlace() throws {
        let merged = try edit(tasks(#"[{"id":7,"title":"Call Ana"},{"id":9,"title":"Email"}]"#), identity: .none)
        #expect(merged.tasks.map(\.assignee) == ["Ana", "Ben"])
        #expect(merged.tasks[0].title == "Call Ana")
    }

    @Test("Notes have no identity: moved, removed and added without a hidden field moving")
    func notesWithoutIdentity() throws {
        let body = { (notes: String) in
            #"{"title":"Week","tags":"home,a,b","tasks":[{"id":7,"title":"Call"},{"id":9,"title":"Email"}],"notes":"#
                + notes + "}"
        }
        // Moved as they were: each keeps its own.
        #expect(try edit(body(#"[{"text":"Milk"},{"text":"Rent"}]"#)).notes.map(\.pinned) == [false, true])
        // The one not pinned removed, a new one added: nothing hidden can move to it.
        #expect(try edit(body(#"[{"text":"Rent"},{"text":"Eggs"}]"#)).notes.map(\.pinned) == [true, false])
        // The pinned one removed and a new one added: it may be the pinned one, edited.
        #expect(
            performing: { try edit(body(#"[{"text":"Milk"},{"text":"Eggs"}]"#)) },
            throws: cannotMerge(at: "notes")
        )
        // The pinned one edited in place.
        #expect(try edit(body(#"[{"text":"Rent due"},{"text":"Milk"}]"#)).notes.map(\.pinned) == [true, false])
        // The pinned one edited and the other moved before it: which is which cannot be told.
        #expect(
            performing: { try edit(body(#"[{"text":"Milk"},{"text":"Rent due"}]"#)) },
            throws: cannotMerge(at: "notes")
        )
        // An element added before the pinned one, which was edited.
        #expect(
            performing: { try edit(body(#"[{"text":"Eggs"},{"text":"Rent due"},{"text":"Milk"}]"#)) },
            throws: cannotMerge(at: "notes")
        )
    }

    @Test("A null element or an element without its id is a new one, taken as sent")
    func elementsWithoutIdentitySent() throws {
        let merged = try edit(tasks(#"[{"id":9,"title":"Email"},{"id":7,"title":"Call"}]"#))
        #expect(merged.tasks == [BoardAPI.stored.tasks[1], BoardAPI.stored.tasks[0]])
        // `Task` has no optional id: a task without one is not a version 1 board.
        #expect(throws: APIVersionError.self) { try edit(tasks(#"[{"title":"Email"}]"#)) }
        #expect(throws: APIVersionError.self) { try edit(tasks("[null]")) }
    }

    @Test("Random edits of the tasks: every task keeps the assignee stored under its id, or none")
    func randomEdits() throws {
        var generator = SplitMix(seed: 42)
        let versions = try BoardAPI.versions()
        for round in 0..<300 {
            let count = Int(generator.next() % 6)
            let stored = Board(
                title: "Board",
                tasks: (0..<count).map { .init(id: $0, title: "t\($0)", assignee: "person \($0)") }
            )
            var sent = stored.tasks.map { BoardV1.Task(id: $0.id, title: $0.title) }
            for _ in 0..<Int(generator.next() % 4) {
                switch generator.next() % 4 {
                case 0 where !sent.isEmpty:
                    sent.remove(at: Int(generator.next() % UInt64(sent.count)))
                case 1:
                    let id = 100 + round
                    if !sent.contains(where: { $0.id == id }) {
                        sent.insert(.init(id: id, title: "new"), at: Int(generator.next() % UInt64(sent.count + 1)))
                    }
                case 2 where !sent.isEmpty:
                    sent.swapAt(Int(generator.next() % UInt64(sent.count)), Int(generator.next() % UInt64(sent.count)))
                case 3 where !sent.isEmpty:
                    sent[Int(generator.next() % UInt64(sent.count))].title += " edited"
                default:
                    break
                }
            }
            let body = try JSONEncoder().encode(BoardV1(title: "Board", tasks: sent, notes: [], tags: ""))
            let merged = try versions.merge(Board.self, from: body, at: BoardAPI.first, into: stored)
            #expect(merged.tasks.map(\.id) == sent.map(\.id))
            #expect(merged.tasks.map(\.title) == sent.map(\.title))
            for task in merged.tasks {
                #expect(task.assignee == stored.tasks.first { $0.id == task.id }?.assignee, "round \(round)")
            }
        }
    }
}

/// A small seeded generator, so that a failing round can be run again.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
