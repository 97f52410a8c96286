import Foundation
import NotesModel
import VersionedCodable

/// Makes the planted documents.
struct PlantWriter {
    static let words = [
        "deploy", "drain", "fleet", "schema", "reader", "writer", "rollback", "canary", "ledger",
        "version", "upgrade", "replica", "quorum", "latency", "budget", "incident",
    ]

    let current = JSONEncoder()
    /// As the old build wrote: version 2 notes with version 1 attachments.
    let old: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.userInfo[.versionsToWrite] = VersionsToWrite().writing(Attachment.self, asVersion: 1)
        return encoder
    }()

    /// A document, the version its row records, and its kind: readable, unreadable or newer.
    func document(id: String, using random: inout SplitMix64) throws -> (String, Int, String) {
        let roll = Int.random(in: 0..<1_000, using: &random)
        if roll < 5 {
            return (damaged(id: id, variant: roll), 0, "unreadable")
        }
        if roll < 10 {
            let body = """
                {"version":4,"title":"Note \(id) from the next release","body":"","tags":[],"attachments":[],\
                "pinned":false,"checklist":[],"reactions":["+1"]}
                """
            return (body, 4, "newer")
        }
        let note = self.note(id: id, using: &random)
        let data: Data
        let version: Int
        switch roll % 3 {
        case 0:
            (data, version) = (try old.encode(versioned: note, asVersion: 1), 1)
        case 1:
            (data, version) = (try old.encode(versioned: note, asVersion: 2), 2)
        default:
            (data, version) = (try current.encode(versioned: note), 3)
        }
        return (String(decoding: data, as: UTF8.self), version, "readable")
    }

    private func damaged(id: String, variant: Int) -> String {
        switch variant {
        case 0: return "{\"version\": 2, \"title\": \"Note \(id)\", \"body\": \"cut off"
        case 1: return "{\"version\": \"three\", \"title\": \"Note \(id)\"}"
        case 2: return "{\"version\": 0, \"title\": \"Note \(id) from before the first release\"}"
        case 3: return "{\"version\": 2, \"title\": 7, \"body\": \"\", \"tags\": [], \"attachments\": []}"
        default: return "not a note \(id)"
        }
    }

    private func note(id: String, using random: inout SplitMix64) -> Note {
        func sentence(_ words: ClosedRange<Int>) -> String {
            (0..<Int.random(in: words, using: &random))
                .map { _ in Self.words.randomElement(using: &random)! }
                .joined(separator: " ")
        }
        return Note(
            title: "Note \(id)",
            body: (0..<Int.random(in: 1...3, using: &random)).map { _ in sentence(3...12) }.joined(separator: "\n\n"),
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.words.randomElement(using: &random)! },
            attachments: (0..<Int.random(in: 0...2, using: &random)).map { index in
                Versioned(Attachment(fileName: "\(id)-\(index).txt", href: "/files/\(id)/\(index)"))
            },
            pinned: Bool.random(using: &random),
            checklist: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                ChecklistItem(text: sentence(2...5), done: Bool.random(using: &random))
            }
        )
    }
}
