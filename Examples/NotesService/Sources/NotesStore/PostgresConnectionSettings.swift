import Logging
import PostgresNIO

/// Where the notes database is, read from the same environment variables as the service's.
package struct PostgresConnectionSettings: Sendable {
    package var host: String
    package var port: Int
    package var username: String
    package var database: String
    /// Whether every transaction of the connection is read-only (`default_transaction_read_only`),
    /// so that a census or a dry run cannot write, whatever it runs.
    package var isReadOnly = false

    package init(environment: [String: String]) {
        host = environment["NOTES_DB_HOST"] ?? "127.0.0.1"
        port = environment["NOTES_DB_PORT"].flatMap(Int.init) ?? 5432
        username = environment["NOTES_DB_USER"] ?? "notes"
        database = environment["NOTES_DB_NAME"] ?? "postgres"
    }

    /// Where the settings point, as a person reads it.
    package var place: String {
        "database \(database) at \(host):\(port) as \(username)"
    }

    /// Runs `body` with a connected client, and shuts the client down after it. Cancelling the
    /// calling task cancels `body` alone; the client keeps serving it until it ends.
    @discardableResult
    package func withClient<Result: Sendable>(
        logger: Logger,
        _ body: @Sendable (PostgresClient) async throws -> Result
    ) async throws -> Result {
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: username,
            password: nil,
            database: database,
            tls: .disable
        )
        if isReadOnly {
            configuration.options.additionalStartupParameters = [("default_transaction_read_only", "on")]
        }
        let client = PostgresClient(
            configuration: configuration,
            // The pool warns when a query asks for a connection before `run()` has started in the
            // task beside it, a race of no consequence here.
            backgroundLogger: Logger(label: logger.label, factory: { _ in SwiftLogNoOpLogHandler() })
        )
        // One connection first: the pool retries a server it cannot reach for about a minute
        // before it gives up, where a person at a terminal should hear at once why.
        try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: host,
                port: port,
                username: username,
                password: nil,
                database: database,
                tls: .disable
            ),
            id: 0,
            logger: Logger(label: logger.label, factory: { _ in SwiftLogNoOpLogHandler() })
        ).close()
        // The pool runs in a task of its own, not a child of this one: cancelling the caller (Ctrl-C
        // in the tools) must reach `body`, which stops between its queries, and not the pool, which
        // would shut down under a query in flight and leave it waiting for ever. The pool stops
        // once `body` has returned or thrown.
        let pool = Task { await client.run() }
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(client))
        } catch {
            result = .failure(error)
        }
        pool.cancel()
        await pool.value
        return try result.get()
    }
}
