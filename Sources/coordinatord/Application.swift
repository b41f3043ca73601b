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

        let hashPool = PasswordHashPool(hasher: .owaspMinimum, concurrency: options.hashConcurrency)
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
        OperationsRoutes(database: database, registry: registry).register(in: &router)
        SessionRoutes(service: sessions).register(in: &router)
        let openAPI = try Array(Data(contentsOf: URL(fileURLWithPath: AssetLocator.locate("api/openapi.yaml"))))
        router.get("/openapi.yaml") { _ in
            HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/yaml")]), body: openAPI)
        }
        self.router = router
    }
}
