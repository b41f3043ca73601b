import Navigation
import Secrets
import Sessions
import Store

// What `CoordinatorTesting` takes from the server library to run an app as `serve` does: the
// migrations it applies, and the environment and effect handlers it builds at start.
extension ServedApp {
    /// coordinatord's migrations built into this binary (or those of the folder `coreOverride`,
    /// `--migrations`), then the app's, for `dialect`: what `serve` and `migrate` apply. An app
    /// migration recorded under the core's scope is refused.
    package func allMigrations(_ dialect: SQLDialect, coreOverride: String? = nil) throws -> [Migration] {
        let appMigrations = try migrations(dialect)
        // An app's migrations are of its own scope or of modules it includes (`AccountProtection`);
        // never the core's (a `Migration` made without a scope would be).
        if let foreign = appMigrations.first(where: { $0.scope == Migration.coreScope }) {
            throw MigrationError(
                description: "the app \(name) has a migration of scope \(foreign.scope) (\(foreign.version)_\(foreign.name))")
        }
        return try CoreMigrations.load(dialect, override: coreOverride) + appMigrations
    }

    /// What builds each event's environment, and the effects' handlers, made as `serve` makes them at start: the app's
    /// settings parsed from `settings` (its defaults when empty), handed with `passwordHasher`
    /// and `environment` (the variables the app sees) to the app's set-up.
    package func makeEnvironment(
        passwordHasher: PasswordHasher, settings: [String], environment: [String: String]
    ) throws -> (environment: EnvironmentFactory, effects: EffectHandlers) {
        let startup = AppStartup(passwordHasher: passwordHasher, environment: environment, settings: try parseSettings(settings))
        return (try self.environment(startup), try effectHandlers(startup))
    }
}
