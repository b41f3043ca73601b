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
            #expect(response.json["type"] as? String == "urn:coordinatord:problem:unsupported-transfer-coding")
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
        // Waited for on threads of their own: a `Task.sleep` (what `waitUntil` polls with) wakes up
        // through Swift's pool even on the servers' executor, and the pool may be busy for long.
        let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        var router = HTTPServerTests.echoRouter()
        router.get("/slow") { _ in
            entered.signal()
            try await TestHTTP.offPool { try wait(for: release, "the test to release /slow") }
            return .text("done")
        }
        // The second stop (when the body ends) does nothing; the first is what the test checks.
        try await HTTPServerTests.withServer(router) { server in
            let port = server.port
            let keepAlive = try HTTPConnection(port: port)  // the default deadline: no bet on the machine's speed
            let first = try await TestHTTP.offPool { try keepAlive.request("GET", "/items/1") }
            #expect(first.status == 200)
            #expect(first.headers["connection"] == nil)

            // Unstructured tasks do not inherit the executor a task prefers: they are given it.
            let servers = HTTPServerTests.executor
            let slow = Task(executorPreference: servers) {
                try await TestHTTP.offPool { try HTTPConnection(port: port).request("GET", "/slow") }
            }
            try await TestHTTP.offPool { try wait(for: entered, "the slow request in flight") }
            let stopping = Task(executorPreference: servers) { await server.shutdown(gracePeriod: .seconds(30)) }
            // Draining has begun once the listener is gone.
            try await TestHTTP.offPool {
                let deadline = ContinuousClock.now + .seconds(defaultDeadlineSeconds)
                while (try? HTTPConnection(port: port)) != nil {
                    guard ContinuousClock.now < deadline else {
                        throw DeadlineExceeded("the listener to close", seconds: defaultDeadlineSeconds)
                    }
                    usleep(1000)
                }
            }

            let refused = try await TestHTTP.offPool { try keepAlive.request("GET", "/items/2") }
            #expect(refused.status == 503)
            #expect(refused.headers["connection"]?.lowercased() == "close")
            #expect(try await TestHTTP.offPool { keepAlive.isClosedByPeer() })

            release.signal()
            let answered = try await slow.value("the request in flight")
            #expect(answered.status == 200)
            #expect(answered.text == "done")
            #expect(answered.headers["connection"]?.lowercased() == "close")
            #expect(try await stopping.value("the graceful stop"))
        }
    }

    @Test func unexpectedErrorsAre500AndReportedWithTheirRequest() async throws {
        final class Reports: Sendable { let paths = Mutex<[String]>([]) }
        let reports = Reports()
        var router = Router { error, request in
            reports.paths.withLock { $0.append("\(request.path): \(error)") }
        }
        router.get("/boom") { _ in throw CancellationError() }
        router.get("/teapot") { _ in throw Problem(ProblemType("teapot", status: 418, title: "I'm a teapot")) }
        router.get("/bug") { _ in throw Problem(.internalError, detail: "a bug the handler knew of") }
        try await HTTPServerTests.withServer(router) { server in
            let boom = try await TestHTTP.request(port: server.port, "GET", "/boom")
            let teapot = try await TestHTTP.request(port: server.port, "GET", "/teapot")
            let bug = try await TestHTTP.request(port: server.port, "GET", "/bug")
            #expect(boom.status == 500)
            #expect(teapot.status == 418)
            #expect(bug.status == 500)
        }
        // Only failures are reported: the unexpected error and the 500 problem. Another problem is
        // an answer, not a failure.
        let reported = reports.paths.withLock { $0 }
        #expect(reported.count == 2)
        #expect(reported.contains("/boom: CancellationError()"))
        #expect(reported.contains { $0.hasPrefix("/bug: ") })
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

    /// Behind a trusted proxy the client is the entry that proxy appended (the right-most one),
    /// whatever the client itself wrote to its left; entries are parsed as addresses, not
    /// matched by their characters.
    @Test func forwardedForJunkLeftOfTheProxysEntryChangesNothing() {
        let proxies = TrustedProxies(["10.0.0.2", "10.0.0.3"])
        func client(_ headers: String...) -> String { proxies.clientAddress(peer: "10.0.0.2", forwardedFor: headers) }
        #expect(client("unknown, 198.51.100.7") == "198.51.100.7")
        #expect(client("_hidden, 198.51.100.7") == "198.51.100.7")
        #expect(client("unknown", "198.51.100.7") == "198.51.100.7")
        #expect(client("evil\nline, 1.2.3.4, 198.51.100.7, 10.0.0.3") == "198.51.100.7")
        // Proxies that add the port, IPv6 in brackets, and one canonical spelling per address.
        #expect(client("198.51.100.7:5678") == "198.51.100.7")
        #expect(client("[2001:DB8:0::7]:443") == "2001:db8::7")
        #expect(client("[2001:db8::7]") == "2001:db8::7")
        #expect(client("::ffff:198.51.100.7") == "198.51.100.7")
        // Characters of an address that are not one.
        #expect(client("1.2.3.999") == "10.0.0.2")
        #expect(client("::::") == "10.0.0.2")
        #expect(client("fe80::1%eth0") == "10.0.0.2")
        // A trusted proxy that wrote `unknown`: the client is not known, and what lies to the
        // left (the client's own words) is not believed; the nearest proxy stands for it.
        #expect(client("1.2.3.4, unknown") == "10.0.0.2")
        #expect(client("1.2.3.4, unknown, 10.0.0.3") == "10.0.0.3")
        // A proxy seen through a dual-stack socket is still that proxy.
        #expect(proxies.clientAddress(peer: "::ffff:10.0.0.2", forwardedFor: ["198.51.100.7"]) == "198.51.100.7")
        #expect(TrustedProxies(["proxy.example", "::FFFF:10.0.0.9"]).addresses == ["10.0.0.9"])
        #expect(!TrustedProxies.isAddress("proxy.example") && TrustedProxies.isAddress("2001:db8::1"))
    }

    /// The same over a real connection: the handler sees the client the proxy named.
    @Test func aClientsJunkForwardedForDoesNotMakeItTheProxy() async throws {
        var router = Router()
        router.get("/client") { request in .text(request.clientAddress) }
        let configuration = ServerConfiguration(port: 0, trustedProxies: TrustedProxies(["127.0.0.1"]))
        try await HTTPServerTests.withServer(router, configuration) { server in
            for junk in ["unknown", "_hidden"] {
                let response = try await TestHTTP.request(
                    port: server.port, "GET", "/client", headers: ["X-Forwarded-For": "\(junk), 198.51.100.7"])
                #expect(response.text == "198.51.100.7", "\(junk)")
            }
        }
    }

    /// Slow clients holding more than the room kept free (here 24 against a limit of 16, each
    /// with half its headers, or half its body, sent and the timeouts far away) do not keep a new
    /// client out: near the limit, the connection that has waited longest for its client is cut,
    /// so the oldest slow client goes, the newest stays, and the new client is answered at once.
    @Test(arguments: [
        "GET /items/1 HTTP/1.1\r\nHost: x\r\n", "POST /echo/a HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":",
    ])
    func slowClientsNearTheConnectionLimitAreCutOldestFirst(halfARequest: String) async throws {
        let configuration = ServerConfiguration(
            port: 0, connectionLimit: 16, headerTimeoutSeconds: 60, requestTimeoutSeconds: 60)
        try await HTTPServerTests.withServer(HTTPServerTests.echoRouter(), configuration) { server in
            let port = server.port
            let (answer, oldestCut, newestOpen) = try await TestHTTP.offPool {
                let slow = try (0..<24).map { _ in
                    let connection = try HTTPConnection(port: port)
                    try connection.write(halfARequest)
                    return connection
                }
                // Without room kept free this waits in the listen queue until the read fails (10 s).
                let answer = try HTTPConnection(port: port, receiveTimeoutSeconds: 10).request("GET", "/items/2")
                return (answer, slow[0].isClosedByPeer(timeoutSeconds: 5), !slow[23].isClosedByPeer(timeoutSeconds: 1))
            }
            #expect(answer.status == 200)
            #expect(oldestCut)
            #expect(newestOpen)
        }
    }

    /// A TLS ClientHello sent to the plain port (the client then waits for the server's hello)
    /// is closed at once, not held until the header timeout (60 s here); so are other binary
    /// first bytes. The server goes on answering.
    @Test func aTLSClientHelloOnThePlainPortIsClosedAtOnce() async throws {
        let configuration = ServerConfiguration(port: 0, headerTimeoutSeconds: 60)
        try await HTTPServerTests.withServer(HTTPServerTests.echoRouter(), configuration) { server in
            let port = server.port
            // The start of a TLS 1.2/1.3 ClientHello: handshake record, version, length, then the hello.
            let hello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0xF4, 0x01, 0x00, 0x00, 0xF0, 0x03, 0x03]
                + [UInt8](repeating: 0xAB, count: 32) + [0x00, 0x00, 0x02, 0x13, 0x01, 0x01, 0x00]
            for first in [hello, [0x80, 0x2E, 0x01, 0x03, 0x01], [0x00, 0x47, 0x45, 0x54]] {
                let closed = try await TestHTTP.offPool {
                    let connection = try HTTPConnection(port: port)
                    try connection.write(first)
                    return connection.isClosedByPeer(timeoutSeconds: 10)
                }
                #expect(closed, "first byte \(first[0])")
            }
            #expect(try await TestHTTP.request(port: port, "GET", "/items/1").status == 200)
        }
    }

    /// A `Content-Length` that is not one decimal number is refused by libmicrohttpd itself,
    /// before any callback (README, "Abuse it withstands": 0.9.75's answer repeats its head inside
    /// its body, which no callback can prevent). What the server promises holds: the answer comes at
    /// once, closes the connection, and the handler never sees the request.
    @Test func aContentLengthTheLibraryCannotParseIsRefusedAtOnceUnhandled() async throws {
        final class Calls: Sendable { let count = Atomic<Int>(0) }
        let calls = Calls()
        var router = Router()
        router.post("/echo/{name}") { request in
            calls.count.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200, body: request.body)
        }
        let configuration = ServerConfiguration(port: 0, headerTimeoutSeconds: 60, requestTimeoutSeconds: 60)
        try await HTTPServerTests.withServer(router, configuration) { server in
            for (length, status) in [("2, 2", 400), ("-1", 400), ("0x2", 400), ("18446744073709551616", 413)] {
                let (response, closed) = try await Self.exchange(
                    server.port, "POST /echo/a HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n{}")
                #expect(response.status == status, "Content-Length: \(length)")
                #expect(response.headers["connection"]?.lowercased() == "close")
                #expect(closed)
            }
            #expect(try await TestHTTP.request(port: server.port, "POST", "/echo/a", body: "{}").status == 200)
        }
        #expect(calls.count.load(ordering: .relaxed) == 1)
    }

    /// `Transfer-Encoding : chunked` (a space before the colon) is no header to libmicrohttpd,
    /// which took the request as bodiless and read the "body" as the next request, while a proxy
    /// may frame a body by it: a smuggled request. RFC 9112 §5.1 says 400, and the connection closes.
    @Test func aSpaceBeforeAHeaderColonIs400() async throws {
        try await HTTPServerTests.withServer { server in
            for raw in [
                "POST /echo/a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
                "GET /items/1 HTTP/1.1\r\nHost: x\r\nContent-Length\t: 0\r\n\r\n",
            ] {
                let (response, closed) = try await Self.exchange(server.port, raw)
                #expect(response.status == 400)
                #expect(response.headers["content-type"] == "application/problem+json")
                #expect(closed)
            }
        }
    }
}
