import Foundation
import Logging
import NotesStore
import PostgresNIO
import VersionedCodable
import VersionedCodableStore

/// The notes table in PostgreSQL: one JSON document per note, with the version it was written
/// as and a revision that every write increases.
///
/// The revision makes every write that depends on what it read a compare-and-set: an instance
/// that read revision 7 writes only if the row is still at revision 7. An upgrade on read so
/// never overwrites a client's write that another instance made in the meantime, and a client's
/// edit keeps the fields the client does not know from the row as it is, not as it was.
package struct NoteStore: Sendable {
    /// A stored document.
    package struct Row: Sendable {
        package var body: String
        package var version: Int
        package var revision: Int

        /// The row as `UpgradeOnRead` takes a document the service already read.
        func document(id: String) -> StoredDocument<String, Int> {
            StoredDocument(key: id, data: Data(body.utf8), revision: revision)
        }
    }

    let client: PostgresClient
    let logger: Logger

    /// The same table as the store library's adapter, whose compare and swap an upgrade on read
    /// writes back through; it raises the revision by one, as every write here does.
    var documents: PostgresNoteStore { PostgresNoteStore(client: client, logger: logger) }

    /// Creates the tables if missing, under an advisory lock so that instances starting at
    /// once do not race, and records `newestVersion` as the version the whole fleet reads if
    /// no deploy has set it yet. The notes table and the checkpoints that the write-backs of an
    /// upgrade on read commit are the adapter's.
    func prepare(newestVersion: Int) async throws {
        try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(160016)", logger: logger)
            do {
                try await PostgresNoteStore.createTables(on: connection, logger: logger)
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS notes_plain (id text PRIMARY KEY, body text NOT NULL)",
                    logger: logger
                )
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS fleet_settings (name text PRIMARY KEY, value integer NOT NULL)",
                    logger: logger
                )
                try await connection.query(
                    """
                    INSERT INTO fleet_settings (name, value) VALUES ('readable_version', \(newestVersion))
                    ON CONFLICT (name) DO NOTHING
                    """,
                    logger: logger
                )
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(160016)", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(160016)", logger: logger)
        }
    }

    /// The newest version that every running build reads, as the deploy last set it.
    func readableVersion() async throws -> Int? {
        let rows = try await client.query(
            "SELECT value FROM fleet_settings WHERE name = 'readable_version'",
            logger: logger
        )
        for try await value in rows.decode(Int.self) {
            return value
        }
        return nil
    }

    func read(id: String) async throws -> Row? {
        let rows = try await client.query(
            "SELECT body, version, revision FROM notes WHERE id = \(id)",
            logger: logger
        )
        for try await (body, version, revision) in rows.decode((String, Int, Int).self) {
            return Row(body: body, version: version, revision: revision)
        }
        return nil
    }

    /// Writes a document, whatever the row holds: a restore.
    func write(id: String, body: String, version: Int) async throws {
        try await client.query(
            """
            INSERT INTO notes (id, body, version, revision) VALUES (\(id), \(body), \(version), 1)
            ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, version = EXCLUDED.version,
                revision = notes.revision + 1
            """,
            logger: logger
        )
    }

    /// Writes a document if the row is still at `revision`, or, for `nil`, if there is no row
    /// yet; returns the row's new revision, or `nil` when it did not write. A client's edit is
    /// made over the row it read, so that the fields the client does not know are kept from that
    /// row and from no older one.
    func write(id: String, body: String, version: Int, ifRevision revision: Int?) async throws -> Int? {
        guard let revision else {
            let rows = try await client.query(
                """
                INSERT INTO notes (id, body, version, revision) VALUES (\(id), \(body), \(version), 1)
                ON CONFLICT (id) DO NOTHING RETURNING revision
                """,
                logger: logger
            )
            for try await written in rows.decode(Int.self) {
                return written
            }
            return nil
        }
        return try await writeBack(id: id, body: body, version: version, ifRevision: revision)
    }

    /// Writes a document if the row is still at `revision`; returns the row's new revision, or
    /// `nil` when it did not write.
    func writeBack(id: String, body: String, version: Int, ifRevision revision: Int) async throws -> Int? {
        let rows = try await client.query(
            """
            UPDATE notes SET body = \(body), version = \(version), revision = revision + 1
            WHERE id = \(id) AND revision = \(revision) RETURNING revision
            """,
            logger: logger
        )
        for try await written in rows.decode(Int.self) {
            return written
        }
        return nil
    }

    /// Up to `limit` notes whose ids sort after `after`, in id order.
    func list(after: String, limit: Int) async throws -> [(id: String, row: Row)] {
        let rows = try await client.query(
            "SELECT id, body, version, revision FROM notes WHERE id > \(after) ORDER BY id LIMIT \(limit)",
            logger: logger
        )
        var notes: [(id: String, row: Row)] = []
        for try await (id, body, version, revision) in rows.decode((String, String, Int, Int).self) {
            notes.append((id, Row(body: body, version: version, revision: revision)))
        }
        return notes
    }

    /// How many notes are stored as each version, and how many attachments, which carry their
    /// own versions inside the notes.
    func storedVersionCounts() async throws -> (notes: [Int: Int], attachments: [Int: Int]) {
        var notes: [Int: Int] = [:]
        let noteRows = try await client.query(
            "SELECT version, count(*)::bigint FROM notes GROUP BY version",
            logger: logger
        )
        for try await (version, count) in noteRows.decode((Int, Int).self) {
            notes[version] = count
        }
        var attachments: [Int: Int] = [:]
        let attachmentRows = try await client.query(
            """
            SELECT (part ->> 'version')::int, count(*)::bigint
            FROM notes, jsonb_array_elements(body::jsonb -> 'attachments') AS part GROUP BY 1
            """,
            logger: logger
        )
        for try await (version, count) in attachmentRows.decode((Int, Int).self) {
            attachments[version] = count
        }
        return (notes, attachments)
    }

    func readPlain(id: String) async throws -> String? {
        let rows = try await client.query("SELECT body FROM notes_plain WHERE id = \(id)", logger: logger)
        for try await body in rows.decode(String.self) {
            return body
        }
        return nil
    }

    func writePlain(id: String, body: String) async throws {
        try await client.query(
            """
            INSERT INTO notes_plain (id, body) VALUES (\(id), \(body))
            ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body
            """,
            logger: logger
        )
    }

    /// Copies every note into the plain table, so that the plain handler serves the same
    /// documents.
    func copyToPlain() async throws {
        try await client.query(
            """
            INSERT INTO notes_plain (id, body) SELECT id, body FROM notes
            ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body
            """,
            logger: logger
        )
    }
}

/// Notes as this build reads and stores them, for `UpgradeOnRead`: read through `Versioned`, so
/// that a note of a newer version that builds like this one may read is read as this build's
/// newest version, its other fields kept in the wrapper (the reader never writes it back: its
/// version is not in this build's chain), and written with the encoder of the versions the
/// fleet stores.
struct StoredNoteCoder: DocumentCoder {
    /// Writes notes at the versions the fleet stores (``NotesAPI/Storage/encoder``).
    let encoder: JSONEncoder

    /// Documents are read with no settings that change.
    private static let decoder = JSONDecoder()

    /// Reads a stored document as every path of the service reads one.
    static func read<Value: VersionedCodable>(_ type: Value.Type, from data: Data) throws -> Versioned<Value> {
        try decoder.decode(Versioned<Value>.self, from: data)
    }

    func storedVersion<Value: VersionedCodable>(of type: Value.Type, from data: Data) throws -> Int? {
        try Self.decoder.storedVersion(of: type, from: data)
    }

    func decode<Value: VersionedCodable>(_ type: Value.Type, from data: Data) throws -> Versioned<Value> {
        try Self.read(type, from: data)
    }

    func encode<Value: VersionedCodable>(_ value: Value, asVersion version: Int?) throws -> Data {
        try encoder.encode(versioned: value, asVersion: version)
    }
}
