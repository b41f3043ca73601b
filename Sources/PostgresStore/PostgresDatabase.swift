import Foundation
import Store

/// The shared store: one PostgreSQL database that several nodes use at once.
///
/// Each write is one transaction on a pooled connection (PostgreSQL's own group commit shares
/// the WAL flush between concurrent commits); it is answered once `COMMIT` returns. A write
/// that hit a serialization failure or a deadlock runs again (its work must be repeatable: it
/// is, for the session service, which applies events to a copy). Reads run outside any
/// transaction and see what is committed.
package final class PostgresDatabase: Store {
    private let pool: PostgresPool
    package let location: String

    /// Connects to `url`, applies `migrations` once even when several nodes start together, and
    /// keeps up to `poolSize` connections.
    package init(url: String, migrations: [Migration], poolSize: Int = 8) throws {
        let connection = try PostgresConnection(url: url)
        try PostgresMigrator(migrations: migrations).migrate(connection)
        location = connection.location
        pool = PostgresPool(url: url, size: poolSize)
    }

    package var dialect: SQLDialect { .postgresql }
    package var isShared: Bool { true }

    package func write<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await pool.withConnection { connection in try connection.transaction { try work(connection) } }
            } catch let error as PostgresError where error.isRetryable && attempt < 4 {
                continue
            } catch is TransactionNotBegun where attempt < 2 {
                // The connection broke before the transaction did anything (the server restarted,
                // say): once more, on a fresh connection.
                continue
            }
        }
    }

    /// A read that failed because its connection broke runs once more on a fresh connection (a
    /// read changes nothing, so repeating it is safe).
    package func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        do {
            return try await pool.withConnection { try work($0) }
        } catch let error as PostgresError where error.isStorageFailure {
            return try await pool.withConnection { try work($0) }
        }
    }

    package func healthProblem() async -> String? {
        do {
            let one = try await read { try $0.queryFirst("SELECT 1") { $0.int(0) } }
            return one == 1 ? nil : "the database answered SELECT 1 with \(one.map(String.init) ?? "nothing")"
        } catch {
            return "the database does not answer: \(error)"
        }
    }

    package func metrics() -> [StoreMetric] {
        let statistics = pool.statistics
        return [
            StoreMetric(
                name: "coordinatord_database_connections", type: "gauge", help: "PostgreSQL connections open.",
                value: Double(statistics.open)),
            StoreMetric(
                name: "coordinatord_database_connections_in_use", type: "gauge", help: "PostgreSQL connections in use.",
                value: Double(statistics.inUse)),
            StoreMetric(
                name: "coordinatord_database_waiters", type: "gauge",
                help: "Callers waiting for a PostgreSQL connection.", value: Double(statistics.waiting)),
        ]
    }

    package func close() async {
        pool.close()
    }
}
