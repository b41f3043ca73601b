/// Applies migrations in order, each exactly once in its own transaction, and records them in
/// `schema_migrations`. Refuses a database that records a migration this build does not know
/// (it was migrated by a newer build) rather than run against a schema it cannot understand.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Applies what is missing and returns the migrations applied now.
    @discardableResult
    public func migrate(_ connection: Connection) throws -> [Migration] {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            )
            """)
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
                guard recorded[migration.version] == nil else { return false }
                try connection.execute(migration.sql)
                let broken = try connection.query("PRAGMA foreign_key_check") { $0.string(0) }
                guard broken.isEmpty else {
                    throw MigrationError(
                        description: "migration \(migration.version)_\(migration.name) breaks foreign keys of \(broken)")
                }
                try connection.run(
                    "INSERT INTO schema_migrations (version, name) VALUES (?1, ?2)",
                    [.int(migration.version), .text(migration.name)])
                return true
            }
            if didApply { applied.append(migration) }
        }
        try refuseUnknown(recorded(connection))
        return applied
    }

    /// The versions and names the database records as applied.
    public func recorded(_ connection: Connection) throws -> [Int: String] {
        let rows = try connection.query("SELECT version, name FROM schema_migrations") { ($0.int(0), $0.string(1)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    private func refuseUnknown(_ recorded: [Int: String]) throws {
        let known = Dictionary(migrations.map { ($0.version, $0.name) }, uniquingKeysWith: { first, _ in first })
        for (version, name) in recorded.sorted(by: { $0.key < $1.key }) where known[version] != name {
            throw MigrationError(
                description:
                    "the database has migration \(version)_\(name), which this build does not know; "
                    + "it was written by a newer coordinatord")
        }
    }
}
