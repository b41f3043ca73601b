import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Requests a proxy could frame differently, slow clients, draining, and handler bugs.
@Suite struct HTTPHardeningTests {
    /// Sends `raw` on a new connection; the answer, and whether the server closed the connection.
    /// Reads fail after 10 s, far below the 30 s a hanging request used to take.
    static func exchange(_ port: UInt16, _ raw: String) async throws -> (response: TestResponse, closed: Bool) {
        try await TestHTTP.offPool {
            let connection = try HTTPConnection(port: port, receiveTimeoutSeconds: 10)
            try connection.write(raw)
            let response = try connection.readResponse()
            return (response, connection.isClosedByPeer())
        }
    }

    @Test func twoContentLengthsAre400AndCloseTheConnection() async throws {
        try await HTTPServerTests.withServer { server in
            let (response, closed) = try await Self.exchange(
                server.port, "POST /echo/a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\n{}")
            #expect(response.status == 400)
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(closed)
        }
    }

    @Test func contentLengthWithTransferEncodingIs400() async throws {
        try await HTTPServerTests.withServer { server in
            let (response, closed) = try await Self.exchange(
                server.port,
                "POST /echo/a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
            #expect(response.status == 400)
            #expect(closed)
        }
    }

    @Test func unknownTransferEncodingIs501AtOnce() async throws {
        try await HTTPServerTests.withServer { server in
            let (response, closed) = try await Self.exchange(
                server.port, "POST /echo/a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n{}")
            #expect(response.status == 501)
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(closed)
        }
    }

    @Test func http11WithoutHostIs400AndHTTP10NeedsNone() async throws {
        try await HTTPServerTests.withServer { server in
            let (missing, _) = try await Self.exchange(server.port, "GET /items/1 HTTP/1.1\r\n\r\n")
            #expect(missing.status == 400)
            let (twice, _) = try await Self.exchange(server.port, "GET /items/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
            #expect(twice.status == 400)
            let (old, closed) = try await Self.exchange(server.port, "GET /items/1 HTTP/1.0\r\n\r\n")
            #expect(old.status == 200)
            #expect(closed)
        }
    }

    @Test func tooManyQueryArgumentsAre400AtOnce() async throws {
        try await HTTPServerTests.withServer { server in
            let query = (0..<600).map { "a\($0)=1" }.joined(separator: "&")
            let (response, closed) = try await Self.exchange(server.port, "GET /items/1?\(query) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 400)
            #expect(response.json["detail"] as? String == "The query has more than 64 arguments.")
            #expect(closed)
            #expect(try await TestHTTP.request(port: server.port, "GET", "/items/1?a=1&b=2").status == 200)
        }
    }

    /// Trickles `lines` one at a time with a pause; the number sent before the server closed
    /// the connection, or nil if it never did.
    static func trickle(_ port: UInt16, head: String, lines: [String]) async throws -> Int? {
        try await TestHTTP.offPool {
            let connection = try HTTPConnection(port: port)
            try connection.write(head)
            for (index, line) in lines.enumerated() {
                if connection.isClosedByPeer(timeoutSeconds: 0) { return index }
                guard (try? connection.write(line)) != nil else { return index }
                usleep(250_000)
            }
            return connection.isClosedByPeer(timeoutSeconds: 2) ? lines.count : nil
        }
    }

    /// A client sending a header line now and then (each byte restarts libmicrohttpd's idle
    /// timer) is cut off at the header deadline: with 1 s, long before 60 lines (15 s) are sent.
    @Test func aClientTricklingHeadersIsCutOff() async throws {
        let configuration = ServerConfiguration(port: 0, headerTimeoutSeconds: 1)
        try await HTTPServerTests.withServer(HTTPServerTests.echoRouter(), configuration) { server in
            let sent = try await Self.trickle(
                server.port, head: "GET /items/1 HTTP/1.1\r\n", lines: (0..<60).map { "X-Slow-\($0): y\r\n" })
            #expect(sent != nil && sent! < 60)
        }
    }

    @Test func aClientTricklingItsBodyIsCutOff() async throws {
        let configuration = ServerConfiguration(port: 0, maxBodyBytes: 4096, requestTimeoutSeconds: 1)
        try await HTTPServerTests.withServer(HTTPServerTests.echoRouter(), configuration) { server in
            let sent = try await Self.trickle(
                server.port, head: "POST /echo/a HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n",
                lines: Array(repeating: "x", count: 60))
            #expect(sent != nil && sent! < 60)
        }
    }

    /// Once draining, a keep-alive connection's next request gets `503` with `Connection: close`,
    /// and the request in flight is answered, also closing its connection.
    @Test func drainingClosesKeepAliveConnectionsAndAnswersWhatIsInFlight() async throws {
        final class Release: Sendable { let released = Atomic<Bool>(false) }
        let release = Release()
        var router = HTTPServerTests.echoRouter()
        router.get("/slow") { _ in
            try await waitUntil("the test to release /slow") { release.released.load(ordering: .acquiring) }
            return .text("done")
        }
        let server = try HTTPServerTests.start(router)
        let port = server.port
        let keepAlive = try HTTPConnection(port: port)  // the default deadline: no bet on the machine's speed
        let first = try await TestHTTP.offPool { try keepAlive.request("GET", "/items/1") }
        #expect(first.status == 200)
        #expect(first.headers["connection"] == nil)

        let slow = Task { try await TestHTTP.offPool { try HTTPConnection(port: port).request("GET", "/slow") } }
        try await waitUntil("the slow request in flight") { server.requestsInFlight > 0 }
        let stopping = Task { await server.shutdown(gracePeriod: .seconds(30)) }
        // Draining has begun once the listener is gone.
        try await waitUntil("the listener to close") { (try? HTTPConnection(port: port)) == nil }

        let refused = try await TestHTTP.offPool { try keepAlive.request("GET", "/items/2") }
        #expect(refused.status == 503)
        #expect(refused.headers["connection"]?.lowercased() == "close")
        #expect(try await TestHTTP.offPool { keepAlive.isClosedByPeer() })

        release.released.store(true, ordering: .releasing)
        let answered = try await slow.value("the request in flight")
        #expect(answered.status == 200)
        #expect(answered.text == "done")
        #expect(answered.headers["connection"]?.lowercased() == "close")
        #expect(try await stopping.value("the graceful stop"))
    }

    @Test func unexpectedErrorsAre500AndReportedWithTheirRequest() async throws {
        final class Reports: Sendable { let paths = Mutex<[String]>([]) }
        let reports = Reports()
        var router = Router { error, request in
            reports.paths.withLock { $0.append("\(request.path): \(error)") }
        }
        router.get("/boom") { _ in throw CancellationError() }
        router.get("/teapot") { _ in throw Problem(status: 418) }
        try await HTTPServerTests.withServer(router) { server in
            let boom = try await TestHTTP.request(port: server.port, "GET", "/boom")
            let teapot = try await TestHTTP.request(port: server.port, "GET", "/teapot")
            #expect(boom.status == 500)
            #expect(teapot.status == 418)
        }
        // Only the unexpected error is reported; a Problem is an answer, not a failure.
        #expect(reports.paths.withLock { $0 } == ["/boom: CancellationError()"])
    }

    @Test func forwardedForCountsOnlyFromATrustedProxy() {
        let proxies = TrustedProxies(["10.0.0.2", "10.0.0.3"])
        #expect(proxies.clientAddress(peer: "203.0.113.5", forwardedFor: ["198.51.100.1"]) == "203.0.113.5")
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["198.51.100.1"]) == "198.51.100.1")
        // A client's own X-Forwarded-For is to the left of what the proxies appended.
        #expect(
            proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["1.2.3.4, 198.51.100.1", "10.0.0.3"]) == "198.51.100.1")
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["evil\nline"]) == "10.0.0.2")
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: []) == "10.0.0.2")
        #expect(TrustedProxies().clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.1"]) == "127.0.0.1")
    }
}
