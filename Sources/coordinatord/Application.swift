import Foundation
import HTTPServer
import Logging
import Prometheus
import SQLiteStore
import SampleApp
import Secrets
import Sessions

/// The service wired together: the database, the sample app's sessions, and every route.
struct Application {
    let database: Database
    let sessions: SessionService
    let router: Router

    init(_ options: Serve, registry: PrometheusCollectorRegistry, logger: Logger) throws {
        let folder = try AssetLocator.locate("migrations", explicit: options.databaseOptions.migrations)
        try DataFolder.create(for: options.databaseOptions.database)
        database = try Database(
            path: options.databaseOptions.database, migrations: Migration.load(directory: folder),
            maxPageCount: options.maxDatabasePages)

        let hasher = PasswordHasher(
            operations: options.passwordIterations, memoryBytes: options.passwordMemoryMib * 1024 * 1024)
        let hashPool = PasswordHashPool(hasher: hasher, concurrency: options.hashConcurrency)
        let app = try SampleAppServices(hasher: hashPool.hasher)
        sessions = SessionService(
            app: SampleApp.navigation, database: database, passwords: hashPool,
            configuration: SessionConfiguration(
                idleTimeoutSeconds: options.sessionIdleTimeout, maxResidentSessions: options.maxResidentSessions,
                instance: options.instance),
            logger: logger,
            environment: { connection, passwords, request in
                app.environment(
                    connection: connection, passwords: passwords, clientAddress: request.clientAddress, now: request.now)
            })

        var router = Router()
        OperationsRoutes(database: database, sessions: sessions, registry: registry).register(in: &router)
        SessionRoutes(service: sessions).register(in: &router)
        try Self.serveFile("api/openapi.yaml", at: "/openapi.yaml", type: "application/yaml", in: &router)
        try Self.serveFile("web/index.html", at: "/", type: "text/html; charset=utf-8", in: &router)
        try Self.serveFile("web/app.js", at: "/app.js", type: "text/javascript; charset=utf-8", in: &router)
        try Self.serveFile("web/style.css", at: "/style.css", type: "text/css; charset=utf-8", in: &router)
        self.router = router
    }

    /// Serves a file that ships with the binary, read once at start.
    private static func serveFile(_ name: String, at path: String, type: String, in router: inout Router) throws {
        let body = try Array(Data(contentsOf: URL(fileURLWithPath: AssetLocator.locate(name))))
        let headers = HTTPHeaders([("Content-Type", type), ("Cache-Control", "no-cache")])
        router.get(path) { _ in HTTPResponse(status: 200, headers: headers, body: body) }
    }
}
