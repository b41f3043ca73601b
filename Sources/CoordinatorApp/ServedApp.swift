import ArgumentParser
import Navigation
import Store
import Secrets
import Sessions

/// An app as coordinatord serves it: its screens and coordinators, the migrations of its own
/// tables, its own settings, and the environment its coordinators reach their models through.
public struct ServedApp: Sendable {
    /// Builds, once at start, what makes each event's environment.
    public typealias EnvironmentSetup = @Sendable (AppStartup) throws -> EnvironmentFactory

    /// The app's name: the scope its migrations are recorded under, and its logs' label.
    public let name: String
    /// The screens and coordinators it runs.
    public let navigation: NavigationApp
    /// The app's migrations for a dialect (their scope is `name`, or that of a module the app
    /// includes, such as `AccountProtection.scope`), applied after coordinatord's own.
    public private(set) var migrations: @Sendable (SQLDialect) throws -> [Migration]
    /// The app's own options: `serve` accepts each as a flag and as a `COORDINATORD_*` variable.
    public let settings: any (ParsableArguments & Sendable).Type
    /// Builds, at start, what makes each event's environment.
    public private(set) var environment: EnvironmentSetup
    /// The app's own version (`1.4.0`), which its OpenAPI document gives as `info.version`, so
    /// that generated clients name the app's release, not coordinatord's; nil: unversioned.
    public var version: String?
    /// What exports its spans when `serve --otlp-endpoint` is given (`exportingTraces`); nil: none.
    public var traceExporter: (any TraceExporting)?
    /// Builds, at start, the handlers of the effects its flows ask for (`Context.perform`).
    public var effectHandlers: @Sendable (AppStartup) throws -> EffectHandlers = { _ in EffectHandlers() }

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
        self.settings = NoSettings.self
        self.environment = environment
    }

    /// An app whose events' environment needs nothing built at start. Its models need no
    /// registration when they are `EventModel`s (`context.dependency(People.self)` builds each
    /// on the event's connection); `eventEnvironment` adds anything else from what the event
    /// brings, by name (`event.connection`, `event.passwords`, `event.request`).
    public init(
        name: String, navigation: NavigationApp, migrations: @escaping @Sendable (SQLDialect) throws -> [Migration],
        eventEnvironment: @escaping @Sendable (EventScope) -> Environment = { _ in Environment() }
    ) {
        self.init(
            name: name, navigation: navigation, migrations: migrations,
            environment: { _ in
                { connection, passwords, request in
                    eventEnvironment(EventScope(connection: connection, passwords: passwords, request: request))
                }
            })
    }

    /// An app with settings of its own: `Settings` declares them with `@Option` (or `@Flag`), as
    /// coordinatord declares its own. `serve` accepts each on its command line and as a
    /// `COORDINATORD_*` variable (`--registrations-per-minute` ← `COORDINATORD_REGISTRATIONS_PER_MINUTE`),
    /// lists them in `serve --help`, and hands the parsed values to `environment`.
    public init<Settings: ParsableArguments & Sendable>(
        name: String, navigation: NavigationApp, settings: Settings.Type,
        migrations: @escaping @Sendable (SQLDialect) throws -> [Migration],
        environment: @escaping @Sendable (AppStartup, Settings) throws -> EnvironmentFactory
    ) {
        self.name = name
        self.navigation = navigation
        self.migrations = migrations
        self.settings = settings
        self.environment = { startup in
            guard let settings = startup.settings as? Settings else {
                throw StartupError(description: "the \(name) app was started without its settings")
            }
            return try environment(startup, settings)
        }
    }

    /// This app with `version` as its own version (`ServedApp.version`).
    public func versioned(_ version: String) -> ServedApp {
        var app = self
        app.version = version
        return app
    }

    /// This app with a part built on the server library included (a kit, such as SignInKit's
    /// `signingIn()`): its `migrations` applied before the app's own (the app's tables may
    /// refer to its tables), and what `environment` builds once at start adding to every event's
    /// environment after the app's.
    public func including(
        migrations included: @escaping @Sendable (SQLDialect) throws -> [Migration],
        environment part: @escaping @Sendable (AppStartup) throws -> @Sendable (EventScope, inout Environment) -> Void
    ) -> ServedApp {
        var app = self
        let (ownMigrations, ownEnvironment) = (migrations, environment)
        app.migrations = { dialect in try included(dialect) + ownMigrations(dialect) }
        app.environment = { startup in
            let own = try ownEnvironment(startup)
            let add = try part(startup)
            return { connection, passwords, request in
                var environment = own(connection, passwords, request)
                add(EventScope(connection: connection, passwords: passwords, request: request), &environment)
                return environment
            }
        }
        return app
    }

    /// This app with `handlers` for the effects its flows ask for (`Context.perform`), built once
    /// at start with the app's settings at hand (`startup.settings(as:)`): a payment service's
    /// address, an API key.
    public func handlingEffects(_ handlers: @escaping @Sendable (AppStartup) throws -> EffectHandlers) -> ServedApp {
        var app = self
        app.effectHandlers = handlers
        return app
    }

    /// This app with `exporter` sending its spans when `serve --otlp-endpoint` asks (link the
    /// `CoordinatorOTel` product and pass `OTLPTracing()`).
    public func exportingTraces(_ exporter: any TraceExporting) -> ServedApp {
        var app = self
        app.traceExporter = exporter
        return app
    }

    /// The app's settings parsed from `arguments` (its part of the command line and environment);
    /// a wrong value is a one-line error that names the option.
    package func parseSettings(_ arguments: [String]) throws -> any ParsableArguments & Sendable {
        do {
            return try settings.parse(arguments)
        } catch {
            let message = settings.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            throw StartupError(description: message + " (`serve --help` lists the app's options)")
        }
    }
}

/// What one event brings to its environment: the connection it commits on (bind your models to
/// it, so their writes commit with the session), the password work prepared for it, the request.
public struct EventScope {
    /// The connection the event commits on.
    public let connection: any SQLConnection
    /// Password hashes and checks prepared outside the commit (`PreparedPasswords`).
    public let passwords: PreparedPasswords
    /// The client's address, the time, its `Device-Token`.
    public let request: RequestInfo
}

/// The settings of an app that declares none.
struct NoSettings: ParsableArguments, Sendable {}

/// What the server hands an app when it starts.
public struct AppStartup: Sendable {
    /// The Argon2id parameters the server was configured with (for a dummy hash, say).
    public let passwordHasher: PasswordHasher
    /// The process environment. The app's own settings come parsed in `settings`.
    public let environment: [String: String]
    /// The app's settings (of the type given to `ServedApp`), from the command line and the environment.
    public let settings: any ParsableArguments & Sendable

    package init(passwordHasher: PasswordHasher, environment: [String: String], settings: any ParsableArguments & Sendable) {
        (self.passwordHasher, self.environment, self.settings) = (passwordHasher, environment, settings)
    }

    /// The app's settings as the type given to `ServedApp`.
    public func settings<Settings>(as type: Settings.Type) throws -> Settings {
        guard let settings = settings as? Settings else {
            throw StartupError(description: "the app's settings are not a \(Settings.self)")
        }
        return settings
    }
}
