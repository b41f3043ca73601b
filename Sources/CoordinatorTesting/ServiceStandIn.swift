import HTTPServer
import Navigation
import Synchronization

/// A stand-in for a service your effects call (a payment provider, a mail relay): a real HTTP
/// server on a free port of 127.0.0.1, answering as the test says, recording every request.
/// Point the app's setting at `url` (`--payment-service`), or call it from a handler under test.
///
/// ```swift
/// let payments = try ServiceStandIn { request in
///     request.path == "/charges" ? .json(201, ["id": "ch_1"]) : .json(404, [:])
/// }
/// defer { payments.stop() }
/// ```
public final class ServiceStandIn: Sendable {
    /// A request as it arrived.
    public struct Request: Sendable {
        public let method: String
        public let path: String
        /// `Idempotency-Key`, when sent.
        public let idempotencyKey: String?
        public let body: [UInt8]
        /// The body as JSON (nil when it is not).
        public var json: JSONValue? { try? JSONValue.parse(body) }
    }

    /// An answer: a status and a JSON body.
    public struct Answer: Sendable {
        public let status: Int
        public let body: JSONValue

        /// `status` with `body`.
        public static func json(_ status: Int, _ body: JSONValue) -> Answer { Answer(status: status, body: body) }
    }

    /// The port it listens on.
    public let port: UInt16
    private let server: HTTPServer
    private let log = RequestLog()

    /// Starts a stand-in answering each request with `answer`, which may wait (to hold a request
    /// open while the test does something else).
    public init(answer: @escaping @Sendable (Request) async -> Answer) throws {
        let log = self.log
        server = try HTTPServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 1),
            responder: Responder(log: log, answer: answer))
        port = server.port
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Every request so far, in the order they arrived.
    public var requests: [Request] { log.requests.withLock { $0 } }

    /// Stops listening (requests in flight get a second to finish).
    public func stop() async {
        _ = await server.shutdown(gracePeriod: .seconds(1))
    }

    private final class RequestLog: Sendable {
        let requests = Mutex<[Request]>([])
    }

    private struct Responder: HTTPResponder {
        let log: RequestLog
        let answer: @Sendable (Request) async -> Answer

        nonisolated(nonsending) func respond(to request: HTTPRequest) async -> HTTPResponse {
            let received = Request(
                method: request.method, path: request.path, idempotencyKey: request.headers["Idempotency-Key"],
                body: request.body)
            log.requests.withLock { $0.append(received) }
            let answer = await answer(received)
            return HTTPResponse(
                status: answer.status, headers: HTTPHeaders([("Content-Type", "application/json")]),
                body: answer.body.serialized())
        }
    }
}
