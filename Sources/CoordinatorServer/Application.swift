import ArgumentParser
import Foundation
import HTTPServer
import Logging
import PostgresStore
import Prometheus
import SessionStorage
import Store
import Secrets
import Sessions

/// The service wired together: the database, the app's sessions, and every route.
struct Application {
    let store: any SessionStore
    let sessions: SessionService
    let passwords: PasswordHashPool
    let router: Router
    /// On PostgreSQL, the connection that hears other nodes' commits for the live streams here.
    let listener: PostgresListener?
    /// The HTTP server's handler counts, which `/metrics` reports.
    let handlers = HandlerCounters()

    init(
        _ app: ServedApp, _ options: Serve, settings: any ParsableArguments & Sendable, registry: PrometheusCollectorRegistry,
        logger: Logger
    ) throws {
        let databaseOptions = options.databaseOptions
        store = try DatabaseLocation(databaseOptions.database).open(
            migrations: databaseOptions.allMigrations(app), maxPageCount: options.maxDatabasePages,
            gathersCommits: options.gatherCommits == .on, poolSize: databaseOptions.databasePoolSize, logger: logger)

        let hasher = PasswordHasher(
            operations: options.passwordIterations, memoryBytes: options.passwordMemoryMib * 1024 * 1024)
        passwords = PasswordHashPool(
            hasher: hasher, concurrency: options.hashConcurrency, maxQueued: options.maxQueuedHashes)
        let startup = AppStartup(passwordHasher: passwords.hasher, environment: ProcessEnvironment.current, settings: settings)
        let makeEnvironment = try app.environment(startup)
        let effects = try app.effectHandlers(startup)
        let clock: ServiceClock = options.testHooks ? .manual() : .system
        sessions = SessionService(
            app: app.navigation, store: store, passwords: passwords,
            configuration: SessionConfiguration(
                idleTimeoutSeconds: options.sessionIdleTimeout, maxResidentSessions: options.maxResidentSessions,
                maxIdempotencyKeysPerSession: options.maxIdempotencyKeys,
                maxSnapshotBytes: options.maxSnapshotBytes, unusedTimeoutSeconds: options.unusedSessionTimeout,
                sessionsPerMinute: options.sessionsPerMinute, passwordJobsPerClient: options.hashesPerClient,
                sweepBatchSize: options.sweepBatchSize, clock: clock,
                streamLimits: LiveHub.Limits(
                    perSession: options.maxStreamsPerSession, perClient: options.maxStreamsPerClient,
                    total: Self.streamCapacity(options, logger: logger))
            ).journaling(options.journalOptions.settings).leasingEffects(for: options.effectLease),
            logger: logger, effects: effects, environment: makeEnvironment)
        let liveMetrics = LiveMetrics()
        listener = Self.listen(DatabaseLocation(databaseOptions.database), sessions, metrics: liveMetrics)

        var router = Router { error, request in
            var metadata: Logger.Metadata = [
                "request_id": "\(request.requestID)", "path": "\(LogText.escaped(request.path))",
                "error": "\(error)",
            ]
            if let failed = error as? StatementFailed {
                // The statement as written: its placeholders, never the values bound to them.
                metadata["cause"] = "\(failed.cause)"
                metadata["statement"] = "\(failed.statement ?? "")"
            }
            logger.error("request failed", metadata: metadata)
        }
        OperationsRoutes(store: store, sessions: sessions, passwords: passwords, registry: registry, live: liveMetrics,
            handlers: handlers)
            .register(in: &router)
        SessionRoutes(service: sessions).register(in: &router)
        HistoryRoutes(service: sessions, operators: OperatorAccess(
                key: try options.journalOptions.loadOperatorKey(), logger: logger, now: { clock.now() }))
            .register(in: &router)
        StreamRoutes(service: sessions, metrics: liveMetrics).register(in: &router)
        #if DEBUG
            if options.testHooks {
                TestHookRoutes(
                    sessions: sessions, passwords: passwords, clock: clock, groupCommits: store as? PostgresDatabase
                ).register(in: &router)
            }
        #endif
        // The app's own document (its screens typed), generated from its declarations at start.
        Self.serve(Array(try AppDocument.yaml(for: app).utf8), at: "/openapi.yaml", type: "application/yaml", in: &router)
        try Self.serveFile("web/index.html", at: "/", type: "text/html; charset=utf-8", in: &router)
        try Self.serveFile("web/app.js", at: "/app.js", type: "text/javascript; charset=utf-8", in: &router)
        try Self.serveFile("web/live.js", at: "/live.js", type: "text/javascript; charset=utf-8", in: &router)
        try Self.serveFile("web/style.css", at: "/style.css", type: "text/css; charset=utf-8", in: &router)
        try Self.serveFile("web/links.js", at: "/links.js", type: "text/javascript; charset=utf-8", in: &router)
        try Self.serveInspector(in: &router)
        // A shared or reloaded link is the web client's page; it opens the link (routes above win).
        for pattern in app.navigation.links.templates {
            try Self.serveFile("web/index.html", at: pattern, type: "text/html; charset=utf-8", in: &router)
        }
        self.router = router
    }

    /// What the web client may load and where it may connect: only this server.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Serves a file built into the binary.
    static func serveFile(_ name: String, at path: String, type: String, in router: inout Router) throws {
        serve(try ShippedFiles.file(name), at: path, type: type, in: &router)
    }

    /// Serves `body` as a file.
    private static func serve(_ body: [UInt8], at path: String, type: String, in router: inout Router) {
        let headers = HTTPHeaders([
            ("Content-Type", type), ("Cache-Control", "no-cache"), ("Content-Security-Policy", contentSecurityPolicy),
        ])
        router.get(path) { _ in HTTPResponse(status: 200, headers: headers, body: body) }
    }
}

extension Application {
    /// The live streams this node may hold: `--max-streams`, lowered (with a warning) to what the
    /// process's descriptor limit, raised to its hard limit first, leaves beside the connections.
    static func streamCapacity(_ options: Serve, logger: Logger) -> Int {
        let descriptors = FileDescriptors.raiseLimit()
        let capacity = FileDescriptors.streamCapacity(
            asked: options.maxStreams, connections: options.connectionLimit, descriptors: descriptors)
        if capacity < options.maxStreams {
            logger.warning(
                "live stream capacity lowered by the file descriptor limit",
                metadata: ["max_streams": "\(capacity)", "descriptor_limit": "\(descriptors)"])
        }
        return capacity
    }
}
