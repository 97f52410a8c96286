import VersionedCodable

/// A file attached to a note, as the first API named its fields. A versioned part: each
/// attachment carries its own version inside the note.
package struct AttachmentV1: VersionedCodable, Equatable, Sendable {
    package static let version: Int? = 1
    package typealias PreviousVersion = NothingEarlier

    package var name: String
    package var url: String

    package init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}

#if NOTES_NEXT
    /// Version 2 of an attachment, new in the next build: the fields follow the API's new naming,
    /// and an attachment may have a caption, which clients of API versions that show attachments
    /// as version 1 do not see. A client's edit of its note keeps each attachment's caption:
    /// the API versions match attachments by their address, wherever the client moved them.
    ///
    /// Renaming is not an additive change: a build that knows only version 1 would find neither
    /// field, so this version declares no compatibility and old builds cannot read it. The next
    /// build writes attachments as version 1 until the last old instance is gone.
    package struct AttachmentV2: VersionedCodable, Equatable, Sendable {
        package static let version: Int? = 2
        package typealias PreviousVersion = AttachmentV1

        package var fileName: String
        package var href: String
        package var caption: String?

        package init(fileName: String, href: String, caption: String? = nil) {
            self.fileName = fileName
            self.href = href
            self.caption = caption
        }

        package init(from old: AttachmentV1) throws {
            fileName = old.name
            href = old.url
            caption = nil
        }

        package func downgraded() throws -> AttachmentV1 {
            AttachmentV1(name: fileName, url: href)
        }
    }

    /// The attachment as this build writes it.
    package typealias Attachment = AttachmentV2
#else
    /// The attachment as this build writes it.
    package typealias Attachment = AttachmentV1
#endif
