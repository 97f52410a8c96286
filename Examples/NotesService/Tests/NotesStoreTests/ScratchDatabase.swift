import Foundation
import Logging
import NotesStore
import PostgresNIO

/// A database of its own for each test, on the PostgreSQL that `upgrade-fault-test.sh` starts;
/// the tests run only when `NOTES_TEST_DB_PORT` says where it is.
enum ScratchDatabase {
    static let port = ProcessInfo.processInfo.environment["NOTES_TEST_DB_PORT"].flatMap(Int.init)
    static let isAvailable = port != nil
    static let logger = Logger(label: "notes-store-tests")

    static func settings(database: String) -> PostgresConnectionSettings {
        var settings = PostgresConnectionSettings(environment: [:])
        settings.port = port ?? 5432
        settings.database = database
        return settings
    }

    /// Creates a database, runs `body` with a client of it, and drops it.
    static func with<Result: Sendable>(
        _ body: @Sendable (PostgresClient) async throws -> Result
    ) async throws -> Result {
        try await withNamed { client, _ in try await body(client) }
    }

    /// Creates a database, runs `body` with a client of it and its name, and drops it.
    static func withNamed<Result: Sendable>(
        _ body: @Sendable (PostgresClient, String) async throws -> Result
    ) async throws -> Result {
        let name = "store_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        let admin = settings(database: "postgres")
        try await admin.withClient(logger: logger) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        do {
            let result = try await settings(database: name).withClient(logger: logger) { client in
                try await body(client, name)
            }
            try await drop(name)
            return result
        } catch {
            try? await drop(name)
            throw error
        }
    }

    private static func drop(_ name: String) async throws {
        try await settings(database: "postgres").withClient(logger: logger) { client in
            try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: logger)
        }
    }
}
