import Store

/// Applies migrations in the order given (coordinatord's own first, then the app's), each
/// exactly once in its own transaction, and records them by scope and version in
/// `schema_migrations`. Refuses a database that records a migration this build does not know
/// (a newer build, or another app, wrote it) rather than run against a schema it cannot understand.
public struct Migrator: Sendable {
    /// A recorded migration: its scope and version.
    public typealias Key = Migration.Key

    /// Every migration this build knows, in the order they apply.
    public let migrations: [Migration]

    /// A migrator for `migrations` (coordinatord's own first, then the app's).
    public init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Applies what is missing and returns the migrations applied now.
    @discardableResult
    public func migrate(_ connection: SQLiteConnection) throws -> [Migration] {
        try connection.transaction { try prepareBookkeeping(connection) }
        // SQLite's procedure for rebuilding a table: foreign keys off while migrating (a DROP
        // would otherwise cascade), every reference checked before each migration commits.
        try connection.execute("PRAGMA foreign_keys=OFF")
        defer { try? connection.execute("PRAGMA foreign_keys=ON") }
        var applied: [Migration] = []
        for migration in migrations {
            // Each check-and-apply runs in one write transaction, so two processes racing
            // to migrate the same file apply each migration once.
            let didApply = try connection.transaction {
                let recorded = try self.recorded(connection)
                try self.refuseUnknown(recorded)
                guard recorded[Key(scope: migration.scope, version: migration.version)] == nil else { return false }
                try connection.execute(migration.sql)
                let broken = try connection.query("PRAGMA foreign_key_check") { $0.string(0) }
                guard broken.isEmpty else {
                    throw MigrationError(
                        description: "migration \(migration.scope)/\(migration.version)_\(migration.name) "
                            + "breaks foreign keys of \(broken)")
                }
                try connection.run(
                    "INSERT INTO schema_migrations (scope, version, name) VALUES (?1, ?2, ?3)",
                    [.text(migration.scope), .int(migration.version), .text(migration.name)])
                return true
            }
            if didApply { applied.append(migration) }
        }
        try refuseUnknown(recorded(connection))
        return applied
    }

    /// The scopes, versions and names the database records as applied.
    public func recorded(_ connection: SQLiteConnection) throws -> [Key: String] {
        let rows = try connection.query("SELECT scope, version, name FROM schema_migrations") {
            (Key(scope: $0.string(0), version: $0.int(1)), $0.string(2))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Creates `schema_migrations`, or upgrades the one earlier builds kept (versions only, one
    /// numbering for everything): each recorded migration is given the scope of the known
    /// migration with its version and name (an app's migrations kept both when they moved out of
    /// the core folder), and the core scope otherwise.
    private func prepareBookkeeping(_ connection: SQLiteConnection) throws {
        let columns = try connection.query("SELECT name FROM pragma_table_info('schema_migrations')") { $0.string(0) }
        if !columns.isEmpty && columns.contains("scope") { return }
        try connection.execute(
            """
            CREATE TABLE schema_migrations_scoped (
                scope TEXT NOT NULL,
                version INTEGER NOT NULL,
                name TEXT NOT NULL,
                applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
                PRIMARY KEY (scope, version)
            )
            """)
        if !columns.isEmpty {
            let legacy = try connection.query("SELECT version, name, applied_at FROM schema_migrations") {
                ($0.int(0), $0.string(1), $0.string(2))
            }
            for (version, name, appliedAt) in legacy {
                let scope = migrations.first { $0.version == version && $0.name == name }?.scope ?? Migration.coreScope
                try connection.run(
                    "INSERT INTO schema_migrations_scoped (scope, version, name, applied_at) VALUES (?1, ?2, ?3, ?4)",
                    [.text(scope), .int(version), .text(name), .text(appliedAt)])
            }
            try connection.execute("DROP TABLE schema_migrations")
        }
        try connection.execute("ALTER TABLE schema_migrations_scoped RENAME TO schema_migrations")
    }

    private func refuseUnknown(_ recorded: [Key: String]) throws {
        try Migration.refuseUnknown(recorded, known: migrations)
    }
}
