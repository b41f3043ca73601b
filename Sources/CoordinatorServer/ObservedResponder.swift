import HTTPServer
import Logging
import Metrics
import Synchronization

/// Wraps the router with a request id and one log line and metrics per request: method, path,
/// status, duration, client address (as the trusted-proxy rule decides it). Never logs a body,
/// a query or a header, so no token or password reaches the log; the path is escaped, so a
/// client cannot forge a log line with `%0a`.
struct ObservedResponder: HTTPResponder {
    let router: Router
    let logger: Logger
    let requestIDs = RequestIDs()
    let metrics = RequestMetrics()

    private static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    nonisolated(nonsending) func respond(to request: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        let requestID = requestIDs.next()
        let resolution = router.resolve(method: request.method, path: request.path)
        var request = request
        request.requestID = requestID  // handlers that log can name the request
        let route = resolution.route?.pattern ?? "unmatched"
        var response = await traced(request, route: route) { await resolution.respond(to: request) }
        response.headers.set("X-Request-Id", requestID)
        response.headers.set("X-Content-Type-Options", "nosniff")
        let elapsed = start.duration(to: .now)
        // Labels stay few: unknown paths and methods collapse into one value each.
        let method = Self.knownMethods.contains(request.method) ? request.method : "other"
        metrics.record(method: method, route: route, status: response.status, duration: elapsed)
        logger.info(
            "request",
            metadata: [
                "request_id": "\(requestID)", "method": "\(method)", "path": "\(LogText.escaped(request.path))",
                "status": "\(response.status)", "client": "\(LogText.escaped(request.clientAddress))",
                "duration_ms": "\(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)",
            ])
        return response
    }
}

/// The request counter and timer of each method, route and status, made once: asking the metrics
/// factory for them (a lock and a hash of the labels each) cost a few per cent of an event's CPU.
/// Methods, routes and statuses are few, so the table stays small.
final class RequestMetrics: Sendable {
    private struct Key: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private let known = Mutex<[Key: (requests: Counter, duration: Metrics.Timer)]>([:])

    func record(method: String, route: String, status: Int, duration: Duration) {
        let key = Key(method: method, route: route, status: status)
        let metrics = known.withLock { known in
            if let metrics = known[key] { return metrics }
            let made = (
                requests: Counter(
                    label: "http_requests_total",
                    dimensions: [("method", method), ("route", route), ("status", String(status))]),
                duration: Metrics.Timer(
                    label: "http_request_duration_seconds", dimensions: [("method", method), ("route", route)])
            )
            known[key] = made
            return made
        }
        metrics.requests.increment()
        metrics.duration.record(duration: duration)
    }
}

/// Request ids unique within the process: a random prefix per process and a counter.
final class RequestIDs: Sendable {
    private let prefix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    private let counter = Atomic<UInt64>(0)

    func next() -> String {
        prefix + "-" + String(counter.add(1, ordering: .relaxed).newValue, radix: 16)
    }
}

/// Text a client controls, made safe to log: control and non-ASCII characters become `\u{…}`.
enum LogText {
    static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\\" {
                output.unicodeScalars.append(scalar)
            } else {
                output += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return output
    }
}
