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

    /// The route label of a request no route matched.
    static let unmatchedRoute = "unmatched"

    private static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    nonisolated(nonsending) func respond(to request: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        let requestID = requestIDs.next()
        let resolution = router.resolve(method: request.method, path: request.path)
        var request = request
        request.requestID = requestID  // handlers that log can name the request
        let route = resolution.route?.pattern ?? Self.unmatchedRoute
        var response = await traced(request, route: route) { await resolution.respond(to: request) }
        response.headers.set("X-Request-Id", requestID)
        response.headers.set("X-Content-Type-Options", "nosniff")
        let elapsed = start.duration(to: .now)
        // Labels stay few: unknown paths and methods collapse into one value each.
        let method = Self.knownMethods.contains(request.method) ? request.method : "other"
        metrics.record(method: method, route: resolution.route, status: response.status, duration: elapsed)
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
/// Kept by the route's index, then in a short list per route scanned by status and method (small
/// strings, compared in a word or two): hashing the route's pattern and the method per request
/// cost about 1,500 instructions. Methods, routes and statuses are few, so the lists stay short.
final class RequestMetrics: Sendable {
    private struct Recorded {
        let method: String
        let status: Int
        let requests: Counter
        let duration: Metrics.Timer
    }

    /// By the route's index plus one; unmatched requests at 0.
    private let known = Mutex<[[Recorded]]>([])

    func record(method: String, route: Router.Route?, status: Int, duration: Duration) {
        let slot = route.map { $0.index + 1 } ?? 0
        let recorded = known.withLock { known in
            if slot < known.count, let found = known[slot].first(where: { $0.status == status && $0.method == method }) {
                return found
            }
            let pattern = route?.pattern ?? ObservedResponder.unmatchedRoute
            let made = Recorded(
                method: method, status: status,
                requests: Counter(
                    label: "http_requests_total",
                    dimensions: [("method", method), ("route", pattern), ("status", String(status))]),
                duration: Metrics.Timer(
                    label: "http_request_duration_seconds", dimensions: [("method", method), ("route", pattern)]))
            while known.count <= slot { known.append([]) }
            known[slot].append(made)
            return made
        }
        recorded.requests.increment()
        recorded.duration.record(duration: duration)
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
