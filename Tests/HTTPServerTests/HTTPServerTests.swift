import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// The server in-process on a free port, driven by a raw-socket client.
@Suite struct HTTPServerTests {
    static func echoRouter(delay: Duration = .zero) -> Router {
        var router = Router()
        router.post("/echo/{name}") { request in
            if delay > .zero { try await Task.sleep(for: delay) }
            return HTTPResponse(
                status: 200, headers: HTTPHeaders([("X-Name", request.pathParameters["name"] ?? "")]), body: request.body)
        }
        router.get("/items/{id}") { request in .json(["id": request.pathParameters["id"] ?? ""]) }
        return router
    }

    static func start(_ router: Router = echoRouter(), maxBodyBytes: Int = 1024) throws -> HTTPServer {
        try start(router, ServerConfiguration(port: 0, maxBodyBytes: maxBodyBytes))
    }

    /// Where these servers' handlers run, and the tests that drive them: every test target runs in
    /// this process, on one cooperative pool (two threads on two cores), and what other tests do
    /// there (thousands of snapshots, SQLite writes) must not hold up an answer a test waits for.
    static let executor = ThreadExecutor(name: "test-servers")

    static func start(_ router: Router, _ configuration: ServerConfiguration) throws -> HTTPServer {
        var configuration = configuration
        configuration.handlerExecutor = executor
        return try HTTPServer(configuration: configuration, responder: router)
    }

    /// Runs `body` with a server on a free port, on the servers' executor, and stops the server
    /// however `body` ends.
    static func withServer(
        _ router: Router = echoRouter(), maxBodyBytes: Int = 1024, _ body: (HTTPServer) async throws -> Void
    ) async throws {
        try await withServer(router, ServerConfiguration(port: 0, maxBodyBytes: maxBodyBytes), body)
    }

    static func withServer(
        _ router: Router, _ configuration: ServerConfiguration, _ body: (HTTPServer) async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(executor) {
            let server = try start(router, configuration)
            do {
                try await body(server)
            } catch {
                await server.shutdown()
                throw error
            }
            await server.shutdown()
        }
    }

    @Test func picksAFreePortAndRoutesWithParameters() async throws {
        try await Self.withServer() { server in
            #expect(server.port != 0)
            let response = try await TestHTTP.request(port: server.port, "GET", "/items/42")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.json["id"] as? String == "42")
        }
    }

    /// The method, the version and each header field reach the handler as sent, whether they are
    /// texts most requests repeat (made once) or not: a common name in other letters, a value that
    /// only begins like a common one, an empty value.
    @Test func theRequestLineAndFieldsArriveAsSent() async throws {
        struct Read: Encodable {
            let line: String
            let fields: [String]
        }
        var router = Router()
        router.post("/fields") { request in
            .json(Read(line: "\(request.method) \(request.version)", fields: request.headers.fields.map { "\($0.name)=\($0.value)" }))
        }
        try await Self.withServer(router) { server in
            let sent = [
                ("Content-Type", "application/json"), ("content-type", "application/jsonx"), ("Accept", "*/*"),
                ("ACCEPT", "*/*;q=0.5"), ("If-Match", ""), ("X-Other", "close"), ("Idempotency-Key", "keep-alive"),
            ]
            let response = try await TestHTTP.offPool {
                let connection = try HTTPConnection(port: server.port)
                var head = "POST /fields HTTP/1.0\r\nHost: localhost\r\nContent-Length: 0\r\n"
                for (name, value) in sent { head += "\(name): \(value)\r\n" }
                try connection.write(Array((head + "\r\n").utf8))
                return try connection.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.json["line"] as? String == "POST HTTP/1.0")
            let expected = ["Host=localhost", "Content-Length=0"] + sent.map { "\($0.0)=\($0.1)" }
            #expect(response.json["fields"] as? [String] == expected)
        }
    }

    @Test func unknownPathIs404ProblemJSON() async throws {
        try await Self.withServer() { server in
            let response = try await TestHTTP.request(port: server.port, "GET", "/nowhere")
            #expect(response.status == 404)
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(response.json["status"] as? Int == 404)
            #expect(response.json["title"] as? String == "Not Found")
            #expect(response.json["type"] as? String == "urn:coordinatord:problem:no-such-route")
        }
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        try await Self.withServer() { server in
            let response = try await TestHTTP.request(port: server.port, "DELETE", "/items/1")
            #expect(response.status == 405)
            #expect(response.headers["allow"] == "GET, HEAD")
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(response.json["status"] as? Int == 405)
        }
    }

    @Test func concurrentRequestsAllGetTheirOwnAnswer() async throws {
        try await Self.withServer(Self.echoRouter(delay: .milliseconds(20))) { server in
            let port = server.port
            let answers = try await withThrowingTaskGroup(of: (Int, TestResponse).self) { group in
                for index in 0..<64 {
                    group.addTask {
                        (index, try await TestHTTP.request(port: port, "POST", "/echo/n\(index)", body: "body-\(index)"))
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(answers.count == 64)
            for (index, response) in answers {
                #expect(response.status == 200)
                #expect(response.headers["x-name"] == "n\(index)")
                #expect(response.text == "body-\(index)")
            }
        }
    }

    @Test func keepAliveConnectionServesSeveralRequests() async throws {
        try await Self.withServer() { server in
            let port = server.port
            let texts = try await TestHTTP.offPool {
                let connection = try HTTPConnection(port: port)
                return try (0..<5).map { try connection.request("POST", "/echo/k", body: Array("r\($0)".utf8)).text }
            }
            #expect(texts == ["r0", "r1", "r2", "r3", "r4"])
        }
    }

    @Test func bodyWithContentLengthOverTheLimitIs413Unread() async throws {
        try await Self.withServer(maxBodyBytes: 1024) { server in
            let port = server.port
            let (response, closed) = try await TestHTTP.offPool {
                let connection = try HTTPConnection(port: port)
                // Only the headers: the server must answer without waiting for 10 MB.
                try connection.write("POST /echo/big HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
                let response = try connection.readResponse()
                return (response, connection.isClosedByPeer())
            }
            #expect(response.status == 413)
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(response.json["status"] as? Int == 413)
            #expect(closed)
        }
    }

    /// A chunked body is refused at its headers, before any chunk is read, and the connection
    /// closed: whatever chunk sizes follow (2^64 − 1 with no data used to hold the connection
    /// until the request timeout, 30 s here) and however long the stream.
    @Test func chunkedBodiesAre411AtOnce() async throws {
        try await Self.withServer(maxBodyBytes: 1024) { server in
            let port = server.port
            let head = "POST /echo/big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            let bodies = [
                "FFFFFFFFFFFFFFFF\r\n", "", "5\r\nhello\r\n0\r\n\r\n",
                String(repeating: "3e8\r\n" + String(repeating: "x", count: 1000) + "\r\n", count: 64),
            ]
            for body in bodies {
                let (response, closed) = try await TestHTTP.offPool {
                    let connection = try HTTPConnection(port: port, receiveTimeoutSeconds: 10)
                    try connection.write(head)
                    // The answer may come (and the connection close) while the body is still being written.
                    _ = try? connection.write(body)
                    return (try connection.readResponse(), connection.isClosedByPeer())
                }
                #expect(response.status == 411, "body of \(body.utf8.count) bytes")
                #expect(response.headers["content-type"] == "application/problem+json")
                #expect(response.json["title"] as? String == "Length Required")
                #expect(closed)
            }
        }
    }

    @Test func handlerErrorsBecomeProblems() async throws {
        var router = Router()
        let kind = ProblemType("teapot-refused", status: 422, title: "Teapot refused")
        router.get("/teapot") { _ in throw Problem(kind, detail: "no", extensions: ["errors": ["a"]]) }
        router.get("/boom") { _ in throw CancellationError() }
        try await Self.withServer(router) { server in
            let problem = try await TestHTTP.request(port: server.port, "GET", "/teapot")
            #expect(problem.status == 422)
            #expect(problem.json["errors"] as? [String] == ["a"])
            #expect(problem.json["detail"] as? String == "no")
            #expect(problem.json["type"] as? String == "urn:coordinatord:problem:teapot-refused")
            #expect(problem.json["title"] as? String == "Teapot refused")
            let failure = try await TestHTTP.request(port: server.port, "GET", "/boom")
            #expect(failure.status == 500)
            #expect(failure.headers["content-type"] == "application/problem+json")
            #expect(failure.json["type"] as? String == "urn:coordinatord:problem:internal-error")
        }
    }

    /// Handlers run on the configuration's executor: with every thread of Swift's pool computing
    /// (as when other tests of the process check thousands of snapshots), the server still answers
    /// at once. On the pool, the answer waited for the computations to end.
    @Test func answersWhileEveryThreadOfThePoolComputes() async throws {
        try await Self.withServer() { server in
            let port = server.port
            let pool = PoolHog(tasks: 2 * ProcessInfo.processInfo.activeProcessorCount)
            defer { pool.stop() }
            let response = try await TestHTTP.offPool { try HTTPConnection(port: port).request("GET", "/items/7") }
            pool.stop()
            #expect(response.status == 200)
            #expect(response.json["id"] as? String == "7")
        }
    }

    @Test func listeningOnAPortInUseFails() async throws {
        try await Self.withServer() { server in
            #expect(throws: HTTPServerError.self) {
                try HTTPServer(configuration: ServerConfiguration(port: server.port), responder: Router())
            }
        }
    }
}

/// Tasks queued on Swift's cooperative pool ahead of whatever is queued after them (a handler's
/// task on the pool): each computes from when it starts until `stop()`, or at the latest twice
/// the default deadline. More tasks than the pool has threads, so that once they run, nothing
/// queued after them does until they stop; none computes before its turn, so none holds a
/// thread while waiting for the others to start.
private final class PoolHog: Sendable {
    private let stopped = Atomic<Bool>(false)

    init(tasks: Int) {
        let deadline = ContinuousClock.now + .seconds(2 * defaultDeadlineSeconds)
        for _ in 0..<tasks {
            // Detached: on the pool whatever the caller prefers, and at the priority a handler's
            // task gets (a task of a higher one was seen to get a thread of its own).
            Task.detached { [self] in
                while !stopped.load(ordering: .acquiring) && ContinuousClock.now < deadline {}
            }
        }
    }

    func stop() { stopped.store(true, ordering: .releasing) }
}
