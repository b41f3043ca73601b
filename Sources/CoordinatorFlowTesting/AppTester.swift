// The server library, beyond the table in docs/architecture.md for this module: the app's migrations, settings and
// environment are declared in its `ServedApp`, and are built here as `serve` builds them.
import CoordinatorApp
import Navigation
import SQLiteStore
import Secrets
import Sessions
import Store

/// One session of an app under test, run as the server runs it, on an in-memory database.
///
/// ```swift
/// var app = try await AppTester(Greeter.served, platform: .web)
/// try await app.send(HelloScreen.self, .greet(.init(name: "Ada")))
/// #expect(try app.props(of: GreetingScreen.self).times == 1)
/// ```
///
/// The database holds coordinatord's tables and the app's, migrated as `serve` migrates them;
/// the environment is the one the app's `ServedApp` builds at start (with its settings); and each
/// event runs through the session service's own flow runner (`FlowRunner`): the same environment,
/// the same rounds of password work (on a hash pool) and `context.prepared` work between runs, the
/// same snapshot limit, and a refused event's lasting writes committed as the server commits them.
/// Time is a `ManualClock`. Each event commits in a transaction of its own; a refused one leaves
/// the session and the database as they were (but for its lasting writes), as the server does.
///
/// Beyond the server, each event checks that the session's snapshot restores the very same tree
/// (a session restored after a restart or an eviction would otherwise start over).
///
/// Several sessions share one database and one clock: `newSession()`, or another `AppTester`
/// given the `database` and `clock` of the first (another build of the app, say with other settings).
/// What the tester does not run: HTTP (tokens, `If-Match`, `Idempotency-Key`; see `LiveServer`),
/// the stored session rows (so `context.sessions(ofUser:)` lists none).
public struct AppTester {
    /// The app's screens and coordinators.
    public let navigation: NavigationApp
    /// The in-memory database, with coordinatord's tables and the app's: for assertions on models.
    public let database: SQLiteConnection
    /// The time flows see; it stands still until the test moves it.
    public let clock: ManualClock
    /// The session's id, as `state` shows it.
    public let sessionID: String
    /// The address the client sends from (per-client throttles key on it).
    public var clientAddress = "192.0.2.1"
    /// The `Device-Token` the client sends with each event (a credential a flow gave it).
    public var deviceToken: String?
    /// Exhaustive mode, as TCA's `TestStore`: each event's changes to the State must all be
    /// asserted (`expect(_:_:)`, `expectRemoved(_:)`, or `skipChanges()`) before the next
    /// event or `finish()`, which otherwise throw `UnassertedChanges` naming them.
    public var exhaustive = false
    /// The last event's changes no assertion looked at yet (in exhaustive mode).
    var unasserted: [String: StateChange] = [:]
    /// The `Accept-Language` the client sends with each event (`"de-CH, de;q=0.9"`): flows see
    /// the app's language it picks as `Context.language`. The app's own language when nil.
    public var acceptLanguage: String?
    /// The device token the last answer that carried one gave (`Context.giveDeviceToken`).
    public internal(set) var givenDeviceToken: String?
    /// The session's tree.
    public internal(set) var tree: NavigationTree
    /// The session's version: 1 at start, one more for each applied event.
    public internal(set) var version = 1
    /// How often the last event's flow ran: 1 when its coordinator declared the slow work it
    /// needed (`Coordinator.prepare(for:_:)`), more when the flow found it out by running.
    public internal(set) var flowRunsOfLastEvent = 0
    /// The effects this session's events asked for that have not finished yet, oldest first
    /// (`runEffects()` runs them).
    public internal(set) var pendingEffects: [PendingEffect] = []
    /// The handlers `runEffects()` runs: the app's, with the test's fakes (`fakeEffect`).
    var effectHandlers: EffectHandlers
    let shared: SharedSessions

    /// The Argon2id parameters of tests: the cheapest libsodium allows, so that a password step
    /// costs microseconds. Hashes made with them verify only with them.
    public static let passwordHasher = PasswordHasher(operations: 1, memoryBytes: 8 * 1024)

    /// Starts a session of `app` for `platform`, with `link` opened when given, as `POST /v1/sessions`
    /// would (a link that cannot be opened throws its `LinkRejection`).
    /// - Parameters:
    ///   - app: what the app's executable serves.
    ///   - platform: the client's platform, as a `POST /v1/sessions` body says it.
    ///   - link: a link of the app to start the session at; none for its first screen.
    ///   - settings: the app's own options as on `serve`'s command line (its defaults when empty).
    ///   - database: a database to share (another tester's `database`, or one the test prepared);
    ///     it is migrated like a new one. A new in-memory database when nil.
    ///   - clock: the time flows see; share one between the testers of one database.
    ///   - environment: the process environment the app's start-up sees (`AppStartup.environment`).
    /// Throws the app's definition mistakes (`AppDefinitionError`), as `serve` refuses to start with them.
    public init(
        _ app: ServedApp, platform: Platform = .phone, link: String? = nil, settings: [String] = [],
        database: SQLiteConnection? = nil, clock: ManualClock = ManualClock(), environment: [String: String] = [:]
    ) async throws {
        try app.navigation.validate()
        let database = try database ?? SQLiteConnection(path: ":memory:")
        try Migrator(migrations: Self.migrations(of: app)).migrate(database)
        let made = try app.makeEnvironment(passwordHasher: Self.passwordHasher, settings: settings, environment: environment)
        let flows = FlowRunner(
            app: app.navigation, passwords: PasswordHashPool(hasher: Self.passwordHasher),
            passwordJobsPerClient: SessionConfiguration().passwordJobsPerClient,
            maxSnapshotBytes: SessionConfiguration().maxSnapshotBytes, tables: SQLiteSessionPersistence(),
            environment: made.environment)
        try await self.init(
            shared: SharedSessions(flows: flows, database: database, clock: clock, effects: made.effects), platform: platform,
            link: link)
    }

    /// Another session of the same app, on the same database and clock, from a client of its own,
    /// with `link` opened when given.
    public func newSession(platform: Platform = .phone, link: String? = nil) async throws -> AppTester {
        try await AppTester(shared: shared, platform: platform, link: link)
    }

    private init(shared: SharedSessions, platform: Platform, link: String? = nil) async throws {
        self.shared = shared
        effectHandlers = shared.effects
        navigation = shared.flows.app
        database = shared.database
        clock = shared.clock
        sessionID = shared.newSessionID()
        let (flows, database, id) = (shared.flows, shared.database, sessionID)
        let info = RequestInfo(clientAddress: clientAddress, now: clock.now)
        tree = try await flows.withPreparations(client: clientAddress) { prepared in
            try database.transaction {
                try flows.start(platform: platform, link: link, on: database, prepared, info, session: id).tree
            }
        }
        shared.signedIn(tree.user?.id, session: sessionID)
    }

    /// coordinatord's migrations and then `app`'s, for SQLite: what `serve` applies to a new database.
    public static func migrations(of app: ServedApp) throws -> [Migration] {
        try app.allMigrations(.sqlite)
    }
}
