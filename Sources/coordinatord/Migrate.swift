import ArgumentParser
import SQLiteStore

/// `coordinatord migrate`: applies pending migrations and exits.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var databaseOptions: DatabaseOptions
    @OptionGroup var logOptions: LogOptions

    func run() async throws {
        let logger = logOptions.bootstrap()
        let applied = try StartupError.explain {
            let folder = try AssetLocator.locate("migrations", explicit: databaseOptions.migrations)
            try DataFolder.create(for: databaseOptions.database)
            let connection = try Connection(path: databaseOptions.database)
            // Held while migrating: a server running on this file would see its schema change.
            let lock = try DatabaseFile(lockingExisting: databaseOptions.database)
            defer { withExtendedLifetime(lock) {} }
            return try Migrator(migrations: Migration.load(directory: folder)).migrate(connection)
        }
        logger.info(
            "migrated", metadata: ["database": "\(databaseOptions.database)", "applied": "\(applied.map(\.version))"])
    }
}
