import Foundation
import VersionedCodable

/// A note as the first API stored it: its text in one string and its tags in one
/// comma-separated string.
package struct NoteV1: VersionedCodable, Equatable, Sendable {
    package static let version: Int? = 1
    package typealias PreviousVersion = NothingEarlier

    package var title: String
    package var text: String
    package var tags: String

    package init(title: String, text: String, tags: String) {
        self.title = title
        self.text = text
        self.tags = tags
    }
}

/// Version 2, the newest version of the old build: a list of tags, and attachments, each a
/// versioned part of its own.
///
/// Its attachments are of the current `Attachment` type: a part migrates by the version stored
/// with it, so the same source reads version 1 attachments in both builds, and the next build
/// writes them as version 1 for the old one with a `VersionsToWrite` list.
package struct NoteV2: VersionedCodable, Equatable, Sendable {
    package static let version: Int? = 2
    package typealias PreviousVersion = NoteV1

    package var title: String
    package var body: String
    package var tags: [String]
    package var attachments: [Versioned<Attachment>]

    package init(title: String, body: String, tags: [String], attachments: [Versioned<Attachment>]) {
        self.title = title
        self.body = body
        self.tags = tags
        self.attachments = attachments
    }

    package init(from old: NoteV1) throws {
        title = old.title
        body = old.text
        tags = old.tags.split(separator: ",").map(String.init)
        attachments = []
    }

    /// Version 1 has no attachments: a client of the first API sees the note without them.
    package func downgraded() throws -> NoteV1 {
        NoteV1(title: title, text: body, tags: tags.joined(separator: ","))
    }
}

#if NOTES_NEXT
    /// Version 3, new in the next build: the body as a list of paragraphs, so that clients can
    /// edit one paragraph at a time. Writing it as version 2 joins them again and loses nothing.
    package struct NoteV3: VersionedCodable, Equatable, Sendable {
        package static let version: Int? = 3
        package typealias PreviousVersion = NoteV2

        package var title: String
        package var paragraphs: [String]
        package var tags: [String]
        package var attachments: [Versioned<Attachment>]

        package init(title: String, paragraphs: [String], tags: [String], attachments: [Versioned<Attachment>]) {
            self.title = title
            self.paragraphs = paragraphs
            self.tags = tags
            self.attachments = attachments
        }

        package init(from old: NoteV2) throws {
            title = old.title
            paragraphs = old.body.isEmpty ? [] : old.body.components(separatedBy: NoteV3.paragraphBreak)
            tags = old.tags
            attachments = old.attachments
        }

        /// Refuses a paragraph that version 2 would read back as another split: an empty one, or
        /// one that holds a paragraph break.
        package func downgraded() throws -> NoteV2 {
            if let index = paragraphs.firstIndex(where: { $0.isEmpty || $0.contains(NoteV3.paragraphBreak) }) {
                throw VersionedEncodingError.notRepresentable(
                    in: NoteV2.self,
                    .init(
                        codingPath: [],
                        debugDescription: "Paragraph \(index) is empty or holds a paragraph break, which version 2 "
                            + "cannot keep apart."
                    )
                )
            }
            return NoteV2(
                title: title,
                body: paragraphs.joined(separator: NoteV3.paragraphBreak),
                tags: tags,
                attachments: attachments
            )
        }

        /// What separates paragraphs in version 2's body.
        package static let paragraphBreak = "\n\n"
    }

    /// The note as this build writes it.
    package typealias Note = NoteV3
#else
    /// The note as this build writes it.
    package typealias Note = NoteV2
#endif
