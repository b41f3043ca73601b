import Store

/// Applies migrations in the order given (coordinatord's own first, then the app's), each
/// exactly once in its own transaction, recorded by scope and version in `schema_migrations`.
/// Nodes starting together take turns through an advisory lock. Refuses a database that records
/// a migration this build does not know.
package struct PostgresMigrator: Sendable {
    /// Every migration this build knows, in the order they apply.
    package let migrations: [Migration]

    /// The advisory lock key migrations are applied under (any constant shared by all nodes).
    static let lockKey: Int64 = 0x636f_6f72_6469_6e61  // "coordina"

    /// A migrator for `migrations`.
    package init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Applies what is missing and returns the migrations applied now.
    @discardableResult
    package func migrate(_ connection: PostgresConnection) throws -> [Migration] {
        try connection.run("SELECT pg_advisory_lock(?1)", [.integer(Self.lockKey)])
        defer { _ = try? connection.run("SELECT pg_advisory_unlock(?1)", [.integer(Self.lockKey)]) }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                scope text NOT NULL,
                version bigint NOT NULL,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (scope, version)
            )
            """)
        let recorded = try self.recorded(connection)
        try Migration.refuseUnknown(recorded, known: migrations)
        var applied: [Migration] = []
        for migration in migrations where recorded[Migration.Key(scope: migration.scope, version: migration.version)] == nil {
            do {
                try connection.transaction {
                    try connection.execute(migration.sql)
                    try connection.run(
                        "INSERT INTO schema_migrations (scope, version, name) VALUES (?1, ?2, ?3)",
                        [.text(migration.scope), .int(migration.version), .text(migration.name)])
                }
            } catch {
                throw MigrationError(
                    description: "migration \(migration.scope)/\(migration.version)_\(migration.name) failed: \(error)")
            }
            applied.append(migration)
        }
        return applied
    }

    /// The scopes, versions and names the database records as applied.
    package func recorded(_ connection: PostgresConnection) throws -> [Migration.Key: String] {
        let rows = try connection.query("SELECT scope, version, name FROM schema_migrations") {
            (Migration.Key(scope: $0.string(0), version: $0.int(1)), $0.string(2))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }
}
