import Foundation
import Logging
import PostgresStore
import SQLiteStore
import SessionStorage
import Store

/// What `--database` names: a PostgreSQL URL (`postgresql://` or `postgres://`) or an SQLite path.
struct DatabaseLocation {
    let value: String

    init(_ value: String) {
        self.value = value
    }

    var dialect: SQLDialect {
        value.hasPrefix("postgresql://") || value.hasPrefix("postgres://") ? .postgresql : .sqlite
    }

    /// The session tables as this database's backend keeps them.
    var sessionTables: any SessionPersistence {
        switch dialect {
        case .postgresql: PostgresSessionPersistence()
        case .sqlite: SQLiteSessionPersistence()
        }
    }

    /// How long start-up waits for a PostgreSQL server that cannot be reached yet (one started at
    /// the same time, say, or a moment too busy to answer), logging each failed attempt.
    static let postgresWaitSeconds = 30.0

    /// Logs one failed attempt to reach PostgreSQL at start-up.
    private static func logWaiting(_ logger: Logger) -> (PostgresError) -> Void {
        { failure in
            logger.warning(
                "waiting for PostgreSQL",
                metadata: ["error": "\(failure.message)", "retrying_for_seconds": "\(Int(postgresWaitSeconds))"])
        }
    }

    /// Opens the store with `migrations` applied (an SQLite file and its folder are created if missing).
    /// `maxPageCount` and `gathersCommits` are SQLite's (`SQLiteDatabase`).
    func open(migrations: [Migration], maxPageCount: Int?, gathersCommits: Bool = false, poolSize: Int, logger: Logger)
        throws -> any SessionStore
    {
        switch dialect {
        case .postgresql:
            return try PostgresDatabase(
                url: value, migrations: migrations, poolSize: poolSize, waitSeconds: Self.postgresWaitSeconds,
                waiting: Self.logWaiting(logger))
        case .sqlite:
            try DataFolder.create(for: value)
            return try SQLiteDatabase(
                path: value, migrations: migrations, maxPageCount: maxPageCount, gathersCommits: gathersCommits)
        }
    }

    /// Applies `migrations` and returns those applied now.
    func migrate(_ migrations: [Migration], logger: Logger) throws -> [Migration] {
        switch dialect {
        case .postgresql:
            return try PostgresMigrator(migrations: migrations).migrate(
                PostgresConnection.connect(
                    url: value, waitSeconds: Self.postgresWaitSeconds, waiting: Self.logWaiting(logger)))
        case .sqlite:
            try DataFolder.create(for: value)
            let connection = try SQLiteConnection(path: value)
            // Held while migrating: a server running on this file would see its schema change.
            let lock = try DatabaseFile(lockingExisting: value)
            defer { withExtendedLifetime(lock) {} }
            return try Migrator(migrations: migrations).migrate(connection)
        }
    }

    /// A connection to this coordinatord database that cannot write: an SQLite file opened
    /// read-only, or a PostgreSQL session whose transactions are all read-only. Its errors say
    /// what is wrong with the database, never to make it writable: the commands that use it only read.
    func openReadOnly() throws -> any SQLConnection {
        let connection: any SQLConnection
        do {
            switch dialect {
            case .sqlite:
                guard FileManager.default.fileExists(atPath: value) else {
                    throw StartupError(description: "no database at \(value)")
                }
                connection = try SQLiteConnection(path: value, readOnly: true)
            case .postgresql:
                let postgres = try PostgresConnection(url: value)
                try postgres.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
                connection = postgres
            }
        } catch let error as any DatabaseError {
            throw StartupError(description: "cannot read the database \(value): \(error.message)")
        }
        do {
            try sessionTables.probe(on: connection)
        } catch {
            throw StartupError(description: "\(value) is not a coordinatord database (it has no sessions or journal)")
        }
        return connection
    }
}
