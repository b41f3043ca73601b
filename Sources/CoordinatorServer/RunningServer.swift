import ArgumentParser
import Foundation
import HTTPServer
import Logging
import Prometheus
import Sessions

/// coordinatord serving an app in this process, as a value: `serve` starts one and stops it on
/// a signal; a test can start one on a free port, talk HTTP to it and stop it, with no process
/// to spawn. The process-wide parts (logging and metrics bootstraps, signals, tracing) stay
/// with `serve`.
package final class RunningServer: Sendable {
    /// The port it listens on (the one picked, for `--port 0`).
    package var port: Int { Int(http.port) }
    let application: Application
    let http: HTTPServer
    private let sweeper: Task<Void, Never>?
    private let heartbeat: Task<Void, Never>
    private let effects: Task<Void, Never>
    private let logger: Logger

    /// `app` served with `arguments` as `serve` takes them (`["--port", "0", "--database", path]`;
    /// the defaults for the rest), and the app's own options (`appArguments`), in this process.
    /// A wrong option throws the one-line error `serve` would print.
    package static func start(
        _ app: ServedApp, arguments: [String], appArguments: [String] = [], logger: Logger = Logger(label: "coordinatord")
    ) async throws -> RunningServer {
        do { try app.navigation.validate() } catch { throw StartupError(description: error.description) }
        let configuration: Serve
        do {
            configuration = try Serve.parse(arguments)
        } catch {
            throw StartupError(description: Serve.message(for: error))
        }
        return try await RunningServer(app, configuration: configuration, settings: app.parseSettings(appArguments), logger: logger)
    }

    /// Opens the database, starts the sweeps, heartbeats and effects, and listens, with
    /// `configuration` as `serve`'s command line gave it.
    init(
        _ app: ServedApp, configuration: Serve, settings: any ParsableArguments & Sendable,
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), logger: Logger
    ) async throws {
        let options = configuration
        application = try StartupError.explain {
            try Application(app, options, settings: settings, registry: registry, logger: logger)
        }
        // With test hooks the clock is manual and tests sweep through `POST /test/sweep`.
        let (application, store) = (self.application, self.application.store)
        let sweeper = options.testHooks ? nil : application.sessions.startSweeping(every: .seconds(options.sweepInterval))
        let heartbeat = application.sessions.startHeartbeats(every: .seconds(options.streamHeartbeat))
        // Effects run when a commit stores some; with test hooks, retries wait for `POST /test/effects`.
        await application.sessions.releaseDeadLeases()
        await application.sessions.wakeEffectsDueAtStart()
        let effects = application.sessions.startRunningEffects(every: options.testHooks ? nil : .seconds(options.effectInterval))
        (self.sweeper, self.heartbeat, self.effects) = (sweeper, heartbeat, effects)
        do {
            http = try StartupError.explain {
                try HTTPServer(
                    configuration: ServerConfiguration(
                        host: options.host, port: options.port, maxBodyBytes: options.maxBodyBytes,
                        connectionLimit: options.connectionLimit, perAddressConnectionLimit: options.perAddressConnectionLimit,
                        idleTimeoutSeconds: options.idleTimeout, headerTimeoutSeconds: options.headerTimeout,
                        requestTimeoutSeconds: options.requestTimeout, maxQueryArguments: options.maxQueryArguments,
                        connectionMemoryBytes: options.connectionMemoryBytes,
                        trustedProxies: TrustedProxies(options.trustedProxy), threads: options.threads,
                        handlerExecutor: Serve.handlerExecutor(for: store.dialect), handlerCounters: application.handlers),
                    responder: ObservedResponder(router: application.router, logger: logger))
            }
        } catch {
            // Nothing listens: what was started stops, and the database closes.
            sweeper?.cancel()
            heartbeat.cancel()
            effects.cancel()
            await Self.close(application)
            throw error
        }
        self.logger = logger
        logger.info("listening", metadata: ["address": "http://\(options.host):\(http.port)", "database": "\(store.location)"])
    }

    /// Stops taking requests, lets those in flight finish for up to `gracePeriod`, then stops
    /// the background work and closes the database. Returns whether every request finished.
    @discardableResult
    package func stop(gracePeriod: Duration = .seconds(10)) async -> Bool {
        logger.info(
            "stopping",
            metadata: [
                "in_flight": "\(http.requestsInFlight)", "handlers": "\(http.handlers.running)",
                "handlers_client_gone": "\(http.handlers.runningWithoutClient)",
            ])
        let drained = await http.shutdown(gracePeriod: gracePeriod)
        sweeper?.cancel()
        heartbeat.cancel()
        // Effects still running finish as their store lets them; any cut short runs again.
        effects.cancel()
        await Self.close(application)
        return drained
    }

    private static func close(_ application: Application) async {
        application.listener?.stop()
        await application.sessions.flushExpiries()
        application.passwords.close()
        await application.store.close()
    }
}
