import ArgumentParser
import Foundation
import HTTPServer
import Logging
import Metrics
import Prometheus
import Secrets
import Sessions
import Store

/// `serve`: migrates the database, serves HTTP until SIGTERM or SIGINT.
struct Serve: AppCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the HTTP API (the default).")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one.") var port: UInt16 = 8080
    @Option(help: "Largest accepted request body, in bytes.") var maxBodyBytes = 64 * 1024
    @Option(help: "Most connections open at once.") var connectionLimit = 1024
    @Option(help: "Most connections open at once from one client address.") var perAddressConnectionLimit = 64
    @Option(help: "Seconds an idle connection stays open.") var idleTimeout = 30
    @Option(help: "Seconds a new connection has to send complete request headers.") var headerTimeout = 10
    @Option(help: "Seconds a request has to send its whole body once its headers are in.") var requestTimeout = 30
    @Option(help: "Query arguments a request may carry.") var maxQueryArguments = 64
    @Option(help: "Memory per connection in bytes; bounds the size of request headers.") var connectionMemoryBytes = 32 * 1024
    @Option(help: "Address of a reverse proxy whose X-Forwarded-For names the client (repeatable).")
    var trustedProxy: [String] = []
    @Option(help: "HTTP worker threads.") var threads = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Seconds to let requests in flight finish on shutdown.") var shutdownGrace = 10
    @Option(help: "Sessions kept in memory at most (least recently used leave first).") var maxResidentSessions = 100_000
    @Option(help: "Seconds without a request before a session expires.") var sessionIdleTimeout: Int64 = 7 * 24 * 3600
    @Option(help: "Seconds without a request before a session that has had no event expires.")
    var unusedSessionTimeout: Int64 = 600
    @Option(help: "Sessions one client may create per minute (twice that at once); 0 for no limit.")
    var sessionsPerMinute = 60
    @Option(help: "Seconds between sweeps of expired sessions.") var sweepInterval = 60
    @Option(help: "Rows the sweep deletes per transaction.") var sweepBatchSize = 500
    @Option(help: "Seconds between looks for effects due (retries, and those of a node that stopped).")
    var effectInterval = 5
    @Option(help: "Seconds a node holds an effect it runs before another node may take it over.")
    var effectLease: Int64 = 60
    @Option(help: "Bytes a session's stored state may take.") var maxSnapshotBytes = 128 * 1024
    @Option(help: "Answers kept per session for Idempotency-Key replays.") var maxIdempotencyKeys = 64
    @Option(help: "Argon2id memory per password hash in MiB (at least OWASP's 19).") var passwordMemoryMib = 19
    @Option(help: "Argon2id passes per password hash (at least OWASP's 2).") var passwordIterations = 2
    @Option(help: "Password hashes computed at once.") var hashConcurrency = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
    @Option(help: "Password hashes that may wait; past that, 503 with Retry-After.") var maxQueuedHashes = 32
    @Option(help: "Password hashes one client may have waiting or running; past that, 429.") var hashesPerClient = 4
    @Option(help: "Largest SQLite database size in pages (a storage quota); unlimited when omitted.") var maxDatabasePages: Int?
    @Option(
        help: """
            SQLite: while writes arrive faster than a commit takes, a commit waits up to half of one \
            (at most 250 µs) for more (on or off): fewer syncs per write under a steady write load, \
            a little more latency for each commit's first write.
            """)
    var gatherCommits: OnOff = .off
    @Option(help: "Live streams open at once on one session; past that, 429.") var maxStreamsPerSession = 16
    @Option(help: "Live streams open at once from one client address; past that, 429.") var maxStreamsPerClient = 16
    // A stream costs ~1.4 KiB and a descriptor: 16,384 of them take ~23 MiB, and 1,024 addresses
    // at their own cap to fill; the start-up lowers it to what the descriptor limit allows.
    @Option(
        help: "Live streams open at once on this node; past that, 503. Each holds a file descriptor (lowered to what the process's limit allows).")
    var maxStreams = 16_384
    @Option(help: "Seconds between heartbeat comments on an idle live stream.") var streamHeartbeat = 15
    @Option(
        help: "An OTLP/HTTP collector's base URL (http://collector:4318): one trace per request is sent to its /v1/traces. Unset: no tracing.")
    var otlpEndpoint: String?
    @Option(help: "How spans are sent to the OTLP endpoint, http/protobuf or http/json.") var otlpProtocol = "http/protobuf"
    #if DEBUG
        /// Routes that drive the clock, the sweep and effects (`TestHookRoutes`): debug builds
        /// only, so a release binary (what ships) has neither the flag nor the routes.
        @Flag(help: .hidden) var testHooks = false
    #else
        var testHooks: Bool { false }
    #endif
    @OptionGroup var databaseOptions: DatabaseOptions
    @OptionGroup var journalOptions: JournalOptions
    @OptionGroup var logOptions: LogOptions

    func validate() throws {
        guard passwordMemoryMib >= 19, passwordIterations >= 2 else {
            throw ValidationError("Argon2id may not be weaker than OWASP's minimum: 19 MiB and 2 passes.")
        }
        guard maxStreamsPerSession >= 0, maxStreamsPerClient >= 0, maxStreams >= 0, streamHeartbeat >= 1 else {
            throw ValidationError("--max-streams… take at least 0 and --stream-heartbeat at least 1.")
        }
        guard sweepBatchSize >= 1, hashesPerClient >= 1, sessionsPerMinute >= 0, unusedSessionTimeout >= 1 else {
            throw ValidationError(
                "--sweep-batch-size, --hashes-per-client and --unused-session-timeout take at least 1; --sessions-per-minute at least 0.")
        }
        guard effectInterval >= 1, effectLease >= 1 else {
            throw ValidationError("--effect-interval and --effect-lease take at least 1.")
        }
        guard ["http/protobuf", "http/json"].contains(otlpProtocol) else {
            throw ValidationError("--otlp-protocol takes http/protobuf or http/json, not \"\(otlpProtocol)\".")
        }
        if let otlpEndpoint, !(otlpEndpoint.hasPrefix("http://") || otlpEndpoint.hasPrefix("https://")) {
            throw ValidationError("--otlp-endpoint takes an http or https URL, not \"\(otlpEndpoint)\".")
        }
        if let name = trustedProxy.first(where: { !TrustedProxies.isAddress($0) }) {
            throw ValidationError("--trusted-proxy takes a numeric IP address, not \"\(name)\".")
        }
    }

    func run(_ app: ServedApp) async throws {
        try await run(app, settings: app.parseSettings([]))
    }

    /// Serves `app` with its `settings` (parsed from its part of the command line and environment).
    func run(_ app: ServedApp, settings: any ParsableArguments & Sendable) async throws {
        // An app with mistakes in its declarations is refused before anything opens (see NavigationApp+Checks).
        do { try app.navigation.validate() } catch { throw StartupError(description: error.description) }
        let logger = logOptions.bootstrap(label: app.name)
        Allocator.report(to: logger)
        let registry = PrometheusCollectorRegistry()
        var metricsFactory = PrometheusMetricsFactory(registry: registry)
        metricsFactory.defaultDurationHistogramBuckets = DurationBuckets.standard
        MetricsSystem.bootstrap(metricsFactory)

        let traces = try startTracing(app, logger: logger)
        let signals = SignalWaiter([SIGTERM, SIGINT])
        let server = try await RunningServer(app, configuration: self, settings: settings, registry: registry, logger: logger)
        // Tests and scripts read this line to learn the port picked for --port 0.
        FileHandle.standardOutput.write(Data("\(app.name) listening on http://\(host):\(server.port)\n".utf8))

        let signal = await signals.wait()
        logger.info("signal", metadata: ["signal": "\(signal)"])
        let drained = await server.stop(gracePeriod: .seconds(shutdownGrace))
        await traces?.stop()
        logger.info("stopped", metadata: ["drained": "\(drained)"])
    }
}

extension Serve {
    /// Where request handlers run. On SQLite, on the worker that read the request (nil): an
    /// event waits once, for the group commit, and the writer only queues its last step there.
    /// On PostgreSQL an event waits for several round trips, each ended on its connection's own
    /// thread; resuming the worker after each cost more than it saved (measured beside the pool:
    /// 6 % fewer events/s, 10 % more CPU per event), so handlers stay on Swift's pool there.
    static func handlerExecutor(for dialect: SQLDialect) -> (any TaskExecutor)? {
        dialect == .postgresql ? globalConcurrentExecutor : nil
    }
}

extension Serve {
    /// With `--otlp-endpoint`: the app's exporter bootstrapped and running, spans on. An app
    /// whose binary links no exporter is refused at start, in one line.
    func startTracing(_ app: ServedApp, logger: Logger) throws -> RunningTraces? {
        guard let otlpEndpoint else { return nil }
        guard let exporter = app.traceExporter else {
            throw StartupError(
                description: "--otlp-endpoint: the \(app.name) binary exports no traces (link the CoordinatorOTel product and serve `ServedApp.exportingTraces(OTLPTracing())`)")
        }
        let export = try StartupError.explain {
            try exporter.start(endpoint: otlpEndpoint, serviceName: app.name, format: otlpProtocol, logger: logger)
        }
        Traced.enable()
        logger.info("tracing", metadata: ["endpoint": "\(otlpEndpoint)", "protocol": "\(otlpProtocol)"])
        return RunningTraces(export: export, task: Task {
            do { try await export.run() } catch { logger.error("trace export stopped", metadata: ["error": "\(error)"]) }
        })
    }
}

/// The trace exporter while the server runs.
struct RunningTraces {
    let export: any TraceExport
    let task: Task<Void, Never>

    /// Sends what is queued and ends the exporter, waiting two seconds at most: a collector that
    /// is down must not hold the stop (its spans are lost then).
    func stop() async {
        let (export, task) = (self.export, self.task)
        // Whichever ends first, the flush or the two seconds, ends the wait.
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        Task {
            await export.shutdown()
            await task.value
            end.finish()
        }
        Task {
            try? await Task.sleep(for: .seconds(2))
            end.finish()
        }
        for await _ in ended {}
    }
}
