import ArgumentParser
import SQLiteStore

/// `migrate`: applies pending migrations and exits.
struct Migrate: AppCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var databaseOptions: DatabaseOptions
    @OptionGroup var logOptions: LogOptions

    func run(_ app: ServedApp) async throws {
        let logger = logOptions.bootstrap(label: app.name)
        let applied = try StartupError.explain {
            let migrations = try databaseOptions.allMigrations(app)
            try DataFolder.create(for: databaseOptions.database)
            let connection = try Connection(path: databaseOptions.database)
            // Held while migrating: a server running on this file would see its schema change.
            let lock = try DatabaseFile(lockingExisting: databaseOptions.database)
            defer { withExtendedLifetime(lock) {} }
            return try Migrator(migrations: migrations).migrate(connection)
        }
        logger.info(
            "migrated", metadata: ["database": "\(databaseOptions.database)", "applied": "\(applied.map { "\($0.scope)/\($0.version)" })"])
    }
}
