import HTTPServer
import Prometheus
import SQLiteStore
import Sessions

/// `GET /healthz` and `GET /metrics`.
struct OperationsRoutes {
    let database: Database
    let sessions: SessionService
    let registry: PrometheusCollectorRegistry

    func register(in router: inout Router) {
        router.get("/healthz") { [database] _ in
            guard await database.isHealthy() else {
                throw Problem(status: 503, detail: "The database does not answer.")
            }
            return .json(["status": "ok"])
        }
        router.get("/metrics") { [registry, database, sessions] _ in
            let writer = database.writer.statistics
            let store = """
                # TYPE coordinatord_sessions_resident gauge
                coordinatord_sessions_resident \(sessions.residentCount)
                # TYPE coordinatord_commits_total counter
                coordinatord_commits_total \(writer.batches)
                # TYPE coordinatord_committed_writes_total counter
                coordinatord_committed_writes_total \(writer.writes)

                """
            return .text(registry.emitToString() + store, contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}
