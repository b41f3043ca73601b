import HTTPServer
import Logging
import Metrics

/// Wraps the router with one log line and metrics per request: method, path, status, duration.
/// Never logs a body, a query or a header, so no token or password reaches the log.
struct ObservedResponder: HTTPResponder {
    let router: Router
    let logger: Logger

    private static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        let resolution = router.resolve(method: request.method, path: request.path)
        let response = await resolution.respond(to: request)
        let elapsed = start.duration(to: .now)
        // Labels stay few: unknown paths and methods collapse into one value each.
        let route = resolution.route?.pattern ?? "unmatched"
        let method = Self.knownMethods.contains(request.method) ? request.method : "other"
        Counter(
            label: "http_requests_total",
            dimensions: [("method", method), ("route", route), ("status", String(response.status))]
        ).increment()
        Metrics.Timer(label: "http_request_duration_seconds", dimensions: [("method", method), ("route", route)])
            .record(duration: elapsed)
        logger.info(
            "request",
            metadata: [
                "method": "\(method)", "path": "\(request.path)", "status": "\(response.status)",
                "duration_ms": "\(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)",
            ])
        return response
    }
}
