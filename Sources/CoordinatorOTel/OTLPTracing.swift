import CoordinatorServer
import Logging
import OTel
import ServiceLifecycle

/// Sends the server's spans to an OpenTelemetry collector over OTLP/HTTP (swift-otel): hand it to
/// your `ServedApp` (`.exportingTraces(OTLPTracing())`) and serve with `--otlp-endpoint`. Only
/// traces: the server's metrics stay on `/metrics` and its logs on standard error.
public struct OTLPTracing: TraceExporting {
    public init() {}

    public func start(endpoint: String, serviceName: String, format: String, logger: Logger) throws -> any TraceExport {
        var configuration = OTel.Configuration.default
        configuration.serviceName = serviceName
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        // The exporter's own troubles go to the server's log, in its format.
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        var base = endpoint
        while base.hasSuffix("/") { base.removeLast() }
        configuration.traces.otlpExporter.endpoint = base + "/v1/traces"
        configuration.traces.otlpExporter.protocol = format == "http/json" ? .httpJSON : .httpProtobuf
        // A request's spans leave within half a second; a stop sends what is left.
        configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(500)
        let service = try OTel.bootstrap(configuration: configuration)
        return ServiceExport(group: ServiceGroup(services: [service], logger: logger))
    }
}

/// swift-otel's service in a group of its own, whose graceful shutdown flushes the queue.
final class ServiceExport: TraceExport {
    let group: ServiceGroup

    init(group: ServiceGroup) { self.group = group }

    func run() async throws { try await group.run() }

    func shutdown() async { await group.triggerGracefulShutdown() }
}
