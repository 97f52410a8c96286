import VersionedCodable
import VersionedCodableAPI

// A board whose tasks gained a field that version 1 clients cannot see (`assignee`), beside
// lists whose elements have no identity: `notes`, whose elements gained a hidden `pinned`, and
// `tags`, whose version 1 is one string the step up splits (an element that holds the separator
// does not come back as it was).

struct BoardV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var title: String
    var tasks: [Task]
    var notes: [Note]
    var tags: String

    struct Task: Codable, Equatable {
        var id: Int
        var title: String
    }

    struct Note: Codable, Equatable {
        var text: String
    }
}

struct Board: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = BoardV1

    var title: String
    var tasks: [Task]
    var notes: [Note]
    var tags: [String]

    struct Task: Codable, Equatable {
        var id: Int
        var title: String
        var assignee: String?
    }

    struct Note: Codable, Equatable {
        var text: String
        var pinned: Bool
    }

    init(title: String, tasks: [Task], notes: [Note] = [], tags: [String] = []) {
        self.title = title
        self.tasks = tasks
        self.notes = notes
        self.tags = tags
    }

    init(from old: BoardV1) throws {
        self.init(
            title: old.title,
            tasks: old.tasks.map { Task(id: $0.id, title: $0.title, assignee: nil) },
            notes: old.notes.map { Note(text: $0.text, pinned: false) },
            tags: old.tags.split(separator: ",").map(String.init)
        )
    }

    func downgraded() throws -> BoardV1 {
        BoardV1(
            title: title,
            tasks: tasks.map { BoardV1.Task(id: $0.id, title: $0.title) },
            notes: notes.map { BoardV1.Note(text: $0.text) },
            tags: tags.joined(separator: ",")
        )
    }
}

enum BoardAPI {
    static let first = APIVersion(1).showing(Board.self, asVersion: 1)
    static let second = APIVersion(2)

    static func versions(identity: ElementIdentity = .member("id")) throws -> APIVersions {
        try APIVersions([first, second], defaultVersion: 1, elementIdentity: identity)
    }

    static let stored = Board(
        title: "Week",
        tasks: [
            .init(id: 7, title: "Call", assignee: "Ana"),
            .init(id: 9, title: "Email", assignee: "Ben"),
        ],
        notes: [.init(text: "Rent", pinned: true), .init(text: "Milk", pinned: false)],
        tags: ["home", "a,b"]
    )
}
