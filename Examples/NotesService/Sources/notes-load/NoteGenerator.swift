import NotesModel
import VersionedCodable

/// A small seeded generator, so that a run can be repeated exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Notes with every field set, of the shapes every version can hold: tags without commas, and
/// always a checklist, so that a note a version 3 client wrote tells its version 3 fields from
/// those of a note made from an older version.
enum NoteGenerator {
    static let words = [
        "deploy", "drain", "fleet", "schema", "reader", "writer", "rollback", "canary", "ledger",
        "version", "upgrade", "replica", "quorum", "latency", "budget", "incident",
    ]

    static func note(id: String, revision: Int, using random: inout SplitMix64) -> Note {
        func sentence(_ words: ClosedRange<Int>) -> String {
            (0..<Int.random(in: words, using: &random))
                .map { _ in Self.words.randomElement(using: &random)! }
                .joined(separator: " ")
        }
        let paragraphs = (0..<Int.random(in: 1...3, using: &random)).map { _ in sentence(3...12) }
        let tags = (0..<Int.random(in: 0...3, using: &random)).map { _ in words.randomElement(using: &random)! }
        let attachments = (0..<Int.random(in: 0...2, using: &random)).map { index in
            Versioned(
                AttachmentV2(fileName: "\(id)-\(revision)-\(index).txt", href: "/files/\(id)/\(revision)/\(index)")
            )
        }
        let checklist = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            ChecklistItem(text: sentence(2...5), done: Bool.random(using: &random))
        }
        return Note(
            title: "Note \(id), revision \(revision)",
            body: paragraphs.joined(separator: "\n\n"),
            tags: tags,
            attachments: attachments,
            pinned: Bool.random(using: &random),
            checklist: checklist
        )
    }
}
