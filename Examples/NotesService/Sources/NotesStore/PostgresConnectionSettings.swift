import Logging
import PostgresNIO

/// Where the notes database is, read from the same environment variables as the service's.
package struct PostgresConnectionSettings: Sendable {
    package var host: String
    package var port: Int
    package var username: String
    package var database: String

    package init(environment: [String: String]) {
        host = environment["NOTES_DB_HOST"] ?? "127.0.0.1"
        port = environment["NOTES_DB_PORT"].flatMap(Int.init) ?? 5432
        username = environment["NOTES_DB_USER"] ?? "notes"
        database = environment["NOTES_DB_NAME"] ?? "postgres"
    }

    /// Runs `body` with a connected client, and shuts the client down after it.
    @discardableResult
    package func withClient<Result: Sendable>(
        logger: Logger,
        _ body: @Sendable (PostgresClient) async throws -> Result
    ) async throws -> Result {
        let client = PostgresClient(
            configuration: .init(
                host: host,
                port: port,
                username: username,
                password: nil,
                database: database,
                tls: .disable
            ),
            // The pool warns when a query asks for a connection before `run()` has started in the
            // task beside it, a race of no consequence here.
            backgroundLogger: Logger(label: logger.label, factory: { _ in SwiftLogNoOpLogHandler() })
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
}
