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
    /// Version 3, new in the next build: a note can be pinned and carry a checklist. It only adds
    /// fields, with their own names, and changes none that version 2 has, so it declares itself
    /// compatible: builds whose newest version is 2 read version 3 notes and edit them, keeping
    /// the two fields without reading them. That is what lets the next build store version 3
    /// while old instances still run.
    ///
    /// Its attachments are the same versioned parts as version 2's; the version each part is
    /// written as is a decision of its own (see ``NotesAPI/storage(whileOldestBuildKnows:)``).
    package struct NoteV3: VersionedCodable, Equatable, Sendable {
        package static let version: Int? = 3
        package static let compatibility = ForwardCompatibility.compatible
        package typealias PreviousVersion = NoteV2

        package var title: String
        package var body: String
        package var tags: [String]
        package var attachments: [Versioned<Attachment>]
        package var pinned: Bool
        package var checklist: [ChecklistItem]

        package init(
            title: String,
            body: String,
            tags: [String],
            attachments: [Versioned<Attachment>],
            pinned: Bool,
            checklist: [ChecklistItem]
        ) {
            self.title = title
            self.body = body
            self.tags = tags
            self.attachments = attachments
            self.pinned = pinned
            self.checklist = checklist
        }

        package init(from old: NoteV2) throws {
            self.init(
                title: old.title,
                body: old.body,
                tags: old.tags,
                attachments: old.attachments,
                pinned: false,
                checklist: []
            )
        }

        /// A client of version 2 sees the note without the fields version 3 added, and its edits
        /// keep them: the service merges them through this step and back up. A build of version
        /// 2 does not come through here: it reads the version 3 document itself, and keeps them.
        package func downgraded() throws -> NoteV2 {
            NoteV2(title: title, body: body, tags: tags, attachments: attachments)
        }
    }

    /// One line of a note's checklist, new in version 3. A plain value inside a field of the
    /// note: an old build keeps the field whole, as it came.
    package struct ChecklistItem: Codable, Equatable, Sendable {
        package var text: String
        package var done: Bool

        package init(text: String, done: Bool) {
            self.text = text
            self.done = done
        }
    }

    /// The note as this build writes it.
    package typealias Note = NoteV3
#else
    /// The note as this build writes it.
    package typealias Note = NoteV2
#endif
