import HTTPServer
import Prometheus
import SQLiteStore

/// `GET /healthz` and `GET /metrics`.
struct OperationsRoutes {
    let database: Database
    let registry: PrometheusCollectorRegistry

    func register(in router: inout Router) {
        router.get("/healthz") { [database] _ in
            guard await database.isHealthy() else {
                throw Problem(status: 503, detail: "The database does not answer.")
            }
            return .json(["status": "ok"])
        }
        router.get("/metrics") { [registry] _ in
            .text(registry.emitToString(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}
