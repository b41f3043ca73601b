import Logging

/// What exports the server's spans when `serve --otlp-endpoint` asks for it: the app's binary
/// links an exporter (the `CoordinatorOTel` product's `OTLPTracing`, over swift-otel) and hands it
/// to its `ServedApp` (`exportingTraces`). Apps that never trace do not build one.
public protocol TraceExporting: Sendable {
    /// Bootstraps the process's tracer to send spans to `endpoint` (an OTLP/HTTP base URL,
    /// `/v1/traces` appended) as `serviceName`, in `format` (`http/protobuf` or `http/json`);
    /// what goes wrong with the export is logged to `logger`.
    func start(endpoint: String, serviceName: String, format: String, logger: Logger) throws -> any TraceExport
}

/// A running exporter: `run` until the server stops, then `shutdown`, which sends what is queued.
public protocol TraceExport: Sendable {
    func run() async throws
    func shutdown() async
}
