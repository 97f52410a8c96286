import Foundation
import VersionedCodable
import VersionedCodableAPI

// The API versions rows: a service that shows ``Note`` to its oldest clients as ``NoteV1``.
// Each floor is what a service without API versions does with the same body: one plain decode,
// one plain encode, or one of each for an edit.

extension Note {
    /// Version 1 shows the note without its tags, pin and colour.
    public func downgraded() throws -> NoteV1 {
        NoteV1(id: id, title: title, text: text)
    }
}

/// The fields a version 1 client sees, as a plain `Codable` struct.
public struct PlainNoteV1: Codable, Equatable, Sendable {
    /// The note's number.
    public var id: Int
    /// Its title.
    public var title: String
    /// Its text.
    public var text: String
}

enum APIDocuments {
    static let oldest = APIVersion(1).showing(Note.self, asVersion: 1)
    static let versions = try! APIVersions([oldest, APIVersion(2)], defaultVersion: 1)
    /// The sample as a version 1 client sends it: no version key.
    static let body = try! JSONEncoder().encode(
        PlainNoteV1(id: Note.sample.id, title: Note.sample.title, text: Note.sample.text)
    )
    /// The same with the title edited.
    static let editBody = try! JSONEncoder().encode(
        PlainNoteV1(id: Note.sample.id, title: "Groceries for Sunday", text: Note.sample.text)
    )
}

extension RatioCase {
    static let apiRead: RatioCase = {
        let body = APIDocuments.body
        let versions = APIDocuments.versions
        let plainDecoder = JSONDecoder()
        return RatioCase(
            name: "api-read-200b",
            title: "API versions: a body read at the oldest API version, \(body.count) B",
            oldFigure: "—",
            goal: 1.5,
            goalWithVersion: nil,
            allocationAllowance: nil,
            floor: {
                let note = try plainDecoder.decode(PlainNoteV1.self, from: body)
                try check(note.id == 7_301, "plain version 1 note")
            },
            floorWithVersion: nil,
            versioned: {
                let note = try versions.decode(Note.self, from: body, at: APIDocuments.oldest)
                try check(note.id == 7_301 && note.colour == "yellow", "note read at API version 1")
            }
        )
    }()

    static let apiWrite: RatioCase = {
        let versions = APIDocuments.versions
        let plainEncoder = JSONEncoder()
        let plain = PlainNoteV1(id: Note.sample.id, title: Note.sample.title, text: Note.sample.text)
        return RatioCase(
            name: "api-write-200b",
            title: "API versions: a response written at the oldest API version",
            oldFigure: "—",
            goal: 1.5,
            goalWithVersion: nil,
            allocationAllowance: nil,
            floor: {
                let data = try plainEncoder.encode(plain)
                try check(data.count > 100, "plain version 1 note written")
            },
            floorWithVersion: nil,
            versioned: {
                let data = try versions.encode(Note.sample, at: APIDocuments.oldest)
                try check(data.count > 100, "note written at API version 1")
            }
        )
    }()

    static let apiMerge: RatioCase = {
        let body = APIDocuments.editBody
        let versions = APIDocuments.versions
        let plainDecoder = JSONDecoder()
        let plainEncoder = JSONEncoder()
        return RatioCase(
            name: "api-merge-200b",
            title: "API versions: a one-field edit merged at the oldest API version (floor: decode + encode)",
            oldFigure: "—",
            goal: 4,
            goalWithVersion: nil,
            allocationAllowance: nil,
            floor: {
                let note = try plainDecoder.decode(PlainNote.self, from: BenchmarkDocuments.noteJSON)
                let data = try plainEncoder.encode(note)
                try check(data.count > 100, "plain note read and written")
            },
            floorWithVersion: nil,
            versioned: {
                let merged = try versions.merge(Note.self, from: body, at: APIDocuments.oldest, into: .sample)
                try check(merged.title == "Groceries for Sunday" && merged.colour == "green", "edit merged")
            }
        )
    }()
}

private func check(_ condition: Bool, _ what: String) throws {
    if !condition {
        throw WrongBenchmarkResult(description: what)
    }
}

// The merge's scaling: a board of many tasks, each with a field version 1 clients cannot see.

/// A board as version 1 clients see it: tasks without assignees.
public struct TaskBoardV1: VersionedCodable, Sendable {
    /// The version number.
    public static let version: Int? = 1
    /// The version before.
    public typealias PreviousVersion = NothingEarlier

    /// The title.
    public var title: String
    /// The tasks.
    public var tasks: [Task]

    /// A task.
    public struct Task: Codable, Sendable {
        /// The task's identity.
        public var id: Int
        /// The title.
        public var title: String
    }
}

/// A board whose tasks have assignees that version 1 clients cannot see.
public struct TaskBoard: VersionedCodable, Sendable {
    /// The version number.
    public static let version: Int? = 2
    /// The version before.
    public typealias PreviousVersion = TaskBoardV1

    /// The title.
    public var title: String
    /// The tasks.
    public var tasks: [Task]

    /// A task.
    public struct Task: Codable, Sendable {
        /// The task's identity.
        public var id: Int
        /// The title.
        public var title: String
        /// Who does it; version 1 clients cannot see it.
        public var assignee: String?
    }

    /// Makes a board.
    public init(title: String, tasks: [Task]) {
        self.title = title
        self.tasks = tasks
    }

    /// Migrates a version 1 board: no task is assigned.
    public init(from old: TaskBoardV1) {
        self.init(title: old.title, tasks: old.tasks.map { Task(id: $0.id, title: $0.title, assignee: nil) })
    }

    /// The board as version 1 shows it.
    public func downgraded() throws -> TaskBoardV1 {
        TaskBoardV1(title: title, tasks: tasks.map { .init(id: $0.id, title: $0.title) })
    }
}

/// A stored board of `count` tasks, and the body of a version 1 client that edited one task's
/// title and swapped two tasks: what the merge-scaling benchmark merges.
public enum TaskBoardMerge {
    /// The API version that shows the board as version 1.
    public static let apiVersion = APIVersion(1).showing(TaskBoard.self, asVersion: 1)
    /// The API versions: 1, showing the board as version 1, and 2.
    public static let versions = try! APIVersions([apiVersion, APIVersion(2)], defaultVersion: 1)

    /// A stored board of `count` tasks, each assigned.
    public static func stored(count: Int) -> TaskBoard {
        TaskBoard(title: "Board", tasks: (0..<count).map { .init(id: $0, title: "Task \($0)", assignee: "p\($0)") })
    }

    /// A version 1 client's body for a board of `count` tasks: one title edited, two tasks swapped.
    public static func editBody(count: Int) -> Data {
        var tasks = (0..<count).map { TaskBoardV1.Task(id: $0, title: "Task \($0)") }
        tasks[count / 2].title = "Edited"
        tasks.swapAt(1, count - 2)
        return try! JSONEncoder().encode(TaskBoardV1(title: "Board", tasks: tasks))
    }

    /// Merges the edit and checks that every task kept its own assignee.
    public static func merge(_ body: Data, into stored: TaskBoard) throws {
        let merged = try versions.merge(TaskBoard.self, from: body, at: apiVersion, into: stored)
        for task in merged.tasks where task.assignee != "p\(task.id)" {
            throw WrongBenchmarkResult(description: "task \(task.id) has another task's assignee")
        }
    }
}
