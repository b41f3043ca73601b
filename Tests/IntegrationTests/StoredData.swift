import PostgresStore
import SQLiteStore
import Store

/// Opens a test server's database directly (read what it stored, or change it behind its back):
/// an SQLite path or a PostgreSQL URL, as `ServerProcess.databasePath` holds it.
enum StoredData {
    static func open(_ database: String) throws -> any SQLConnection {
        database.hasPrefix("postgresql://") ? try PostgresConnection(url: database) : try SQLiteConnection(path: database)
    }
}
