import ArgumentParser

/// `migrate`: applies pending migrations and exits.
struct Migrate: AppCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var databaseOptions: DatabaseOptions
    @OptionGroup var logOptions: LogOptions

    func run(_ app: ServedApp) async throws {
        let logger = logOptions.bootstrap(label: app.name)
        let applied = try StartupError.explain {
            try DatabaseLocation(databaseOptions.database).migrate(databaseOptions.allMigrations(app), logger: logger)
        }
        logger.info(
            "migrated", metadata: ["dialect": "\(databaseOptions.dialect)", "applied": "\(applied.map { "\($0.scope)/\($0.version)" })"])
    }
}
