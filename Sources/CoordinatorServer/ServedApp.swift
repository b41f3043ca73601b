import Navigation
import Store
import Secrets
import Sessions

/// An app as coordinatord serves it: its screens and coordinators, the migrations of its own
/// tables, and the environment its coordinators reach their models through.
public struct ServedApp: Sendable {
    /// Builds, once at start, what makes each event's environment.
    public typealias EnvironmentSetup = @Sendable (AppStartup) throws -> EnvironmentFactory

    /// The app's name: the scope its migrations are recorded under, and its logs' label.
    public let name: String
    /// The screens and coordinators it runs.
    public let navigation: NavigationApp
    /// The app's migrations for a dialect (their scope is `name`), applied after coordinatord's own.
    public let migrations: @Sendable (SQLDialect) throws -> [Migration]
    /// Builds, at start, what makes each event's environment.
    public let environment: EnvironmentSetup

    /// - Parameters:
    ///   - name: the app's name; its migrations are recorded under it (letters, digits, `-`).
    ///   - navigation: the app's screens and coordinators.
    ///   - migrations: loads the app's migrations for the database's dialect (see
    ///     `Migration.load(from:folder:scope:dialect:)`); an app that ships no migrations for a
    ///     dialect throws, and the server refuses to start on that database.
    ///   - environment: called once at start; returns what builds each event's environment,
    ///     with the app's models bound to the connection the event commits on.
    public init(
        name: String, navigation: NavigationApp, migrations: @escaping @Sendable (SQLDialect) throws -> [Migration],
        environment: @escaping EnvironmentSetup
    ) {
        self.name = name
        self.navigation = navigation
        self.migrations = migrations
        self.environment = environment
    }
}

/// What the server hands an app when it starts.
public struct AppStartup: Sendable {
    /// The Argon2id parameters the server was configured with (for a dummy hash, say).
    public let passwordHasher: PasswordHasher
    /// The process environment, for the app's own settings.
    public let environment: [String: String]
}
