import Foundation
import HTTPServer
import Prometheus
import Store
import Secrets
import Sessions

/// `GET /healthz` and `GET /metrics`.
struct OperationsRoutes {
    let store: any Store
    let sessions: SessionService
    let passwords: PasswordHashPool
    let registry: PrometheusCollectorRegistry
    let live: LiveMetrics
    let handlers: HandlerCounters

    func register(in router: inout Router) {
        router.get("/healthz") { [store] _ in
            if let problem = await store.healthProblem() {
                throw Problem(.storageUnavailable, detail: "Unhealthy: \(problem).")
            }
            return .json(["status": "ok"])
        }
        router.get("/metrics") { [self] _ in
            .text(
                MetricsText.withHelp(registry.emitToString()) + serviceMetrics(),
                contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// What is read off the service's parts at scrape time, rather than counted as it happens.
    private func serviceMetrics() -> String {
        let pool = passwords.statistics
        return [
            MetricsText.family(
                "coordinatord_build_info", "gauge", "The running build.",
                #"coordinatord_build_info{version="\#(CoordinatorServer.version)"} 1"#),
            MetricsText.sample("coordinatord_sessions_resident", "gauge", "Sessions held in memory.", sessions.residentCount),
            MetricsText.sample(
                "coordinatord_session_evictions_total", "counter", "Sessions evicted from memory (not from the store).",
                sessions.evictionCount),
            MetricsText.sample(
                "coordinatord_password_queue_depth", "gauge", "Password hashes waiting for a hashing thread.", pool.waiting),
            MetricsText.sample(
                "coordinatord_password_jobs_started_total", "counter", "Password hashes started.", pool.started),
            MetricsText.sample(
                "coordinatord_password_jobs_refused_total", "counter", "Password hashes refused: the queue was full.",
                pool.refused),
            MetricsText.family(
                "coordinatord_password_queue_wait_seconds_total", "counter",
                "Seconds password hashes waited for a thread, summed.",
                "coordinatord_password_queue_wait_seconds_total \(pool.waitSeconds)"),
            MetricsText.sample(
                "coordinatord_handlers_in_flight", "gauge", "Request handlers running now (their client there or not).",
                handlers.running),
            MetricsText.sample(
                "coordinatord_handlers_client_gone", "gauge",
                "Request handlers running now whose client left; each runs to its end all the same.",
                handlers.runningWithoutClient),
            MetricsText.sample(
                "coordinatord_handlers_client_left_total", "counter",
                "Request handlers whose client closed its connection before their whole answer was sent.", handlers.clientsLeft),
            live.text(open: sessions.liveStreams),
        ].joined()
            + store.metrics().map { MetricsText.family($0.name, $0.type, $0.help, "\($0.name) \($0.value)") }.joined()
    }
}

/// Prometheus text exposition, with a `# HELP` line for every metric the service exports.
enum MetricsText {
    /// Help for the metrics counted through swift-metrics (which registers them without help).
    static let help: [String: String] = [
        "http_requests_total": "HTTP requests answered, by method, route and status.",
        "http_request_duration_seconds": "Time to answer HTTP requests, by method and route.",
        "coordinatord_events_total": "Events applied, or replayed for a repeated Idempotency-Key.",
        "coordinatord_event_flows_total":
            "Events applied, by where their flow ran: none (it used no connection), read_only (it only read, off the write path) or writer (in the write).",
        "coordinatord_events_refused_total": "Events refused, by reason.",
        "coordinatord_flow_runs_total":
            "Runs of apps' flows: an event runs its flow again after preparing work it asked for (a password hash), or to read or write.",
        "coordinatord_journal_bytes_written_total":
            "Bytes events' journal entries stored (texts and snapshots), committed with their events.",
        "coordinatord_store_errors_total": "Storage calls that failed, by operation.",
        "coordinatord_commit_seconds":
            "Time of the SQLite writer's group commits, from BEGIN to COMMIT's return; the tail is mostly the disk's sync.",
        "coordinatord_sign_in_failures_total": "Sign-ins refused for a wrong e-mail or password.",
        "coordinatord_sweep_batches_total": "Transactions the sweep deleted expired rows in (each at most --sweep-batch-size rows).",
        "coordinatord_sweep_deleted_rows_total": "Expired sessions and old stored answers the sweep deleted.",
    ]

    /// `text` with `# HELP` before each `# TYPE` line whose metric has help.
    static func withHelp(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let parts = line.split(separator: " ")
            guard parts.count >= 3, parts[0] == "#", parts[1] == "TYPE", let help = help[String(parts[2])] else {
                return String(line)
            }
            return "# HELP \(parts[2]) \(help)\n\(line)"
        }.joined(separator: "\n")
    }

    static func family(_ name: String, _ type: String, _ help: String, _ samples: String) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(samples)\n"
    }

    static func sample(_ name: String, _ type: String, _ help: String, _ value: Int) -> String {
        family(name, type, help, "\(name) \(value)")
    }
}
