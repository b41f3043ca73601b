import Foundation
import TestSupport
import Testing

/// A live stream's connection leaves libmicrohttpd once its head is sent: the stream writes to
/// the socket itself and one poller thread watches every stream's socket.
@Suite struct LiveStreamSocketTests {
    /// Streams take no place among the server's connections (which bound requests): with room for
    /// eight connections, twelve streams are open and requests are still answered.
    @Test func streamsHoldNoConnectionSlot() async throws {
        let server = try await ServerProcess.start(backend: .sqlite, arguments: ["--connection-limit", "8"])
        let client = try await SessionClient.create(port: server.port)
        var streams: [EventStreamClient] = []
        for _ in 0..<12 {
            let stream = try await LiveStreamTests.open(client)
            #expect(stream.status == 200)
            LiveStreamTests.expectState(try await LiveStreamTests.next(stream), equals: client, "its first frame")
            streams.append(stream)
        }
        #expect(streams[0].headers["content-type"] == "text/event-stream")
        #expect(streams[0].headers["transfer-encoding"] == "chunked")
        #expect(streams[0].headers["connection"] == "close", "the stream holds its connection to the end")
        #expect(try await TestHTTP.request(port: server.port, "GET", "/healthz").status == 200)
        #expect(try await server.metric("coordinatord_streams_open") == 12)
        // Every stream still gets each commit.
        var phone = client
        try Journey.expect200(try await phone.send(ConcurrencyTests.nextEvent(for: phone)))
        for stream in streams {
            LiveStreamTests.expectState(try await LiveStreamTests.next(stream), equals: phone, "the next commit")
        }
    }

    /// A stream whose reader left is forgotten at once, not at its next heartbeat (here an hour away).
    @Test func aClosedStreamIsForgottenAtOnce() async throws {
        let server = try await ServerProcess.start(backend: .sqlite, arguments: ["--stream-heartbeat", "3600"])
        let client = try await SessionClient.create(port: server.port)
        let stream = try await LiveStreamTests.open(client)
        _ = try await LiveStreamTests.next(stream)
        #expect(try await server.metric("coordinatord_streams_open") == 1)
        stream.disconnect()
        try await waitUntil("the closed stream is forgotten without a heartbeat") {
            try await server.metric("coordinatord_streams_open") == 0
        }
    }

    /// SSE is one-way: a client that sends on its own stream's connection has its stream closed
    /// at once (the poller reads one byte to learn it, not all the client sends), while another
    /// session's stream goes on getting its frames.
    @Test func aClientSendingOnItsStreamHasItClosed() async throws {
        let server = try await ServerProcess.start(backend: .sqlite, arguments: ["--stream-heartbeat", "3600"])
        let noisy = try await SessionClient.create(port: server.port)
        var quiet = try await SessionClient.create(port: server.port)
        let noisyStream = try await LiveStreamTests.open(noisy)
        let quietStream = try await LiveStreamTests.open(quiet)
        _ = try await LiveStreamTests.next(noisyStream)
        _ = try await LiveStreamTests.next(quietStream)
        #expect(try await server.metric("coordinatord_streams_open") == 2)

        let closed = try await TestHTTP.offPool {
            let deadline = Deadline(seconds: defaultDeadlineSeconds)
            let junk = [UInt8](repeating: 0x61, count: 4096)
            // Keeps sending until the server closes the stream (a send fails) or time is up.
            while noisyStream.write(junk) {
                if deadline.hasPassed { return false }
            }
            return true
        }
        #expect(closed, "the server kept reading what the client sent")
        try await waitUntil("the noisy stream to be forgotten") {
            try await server.metric("coordinatord_streams_open") == 1
        }
        try Journey.expect200(try await quiet.send(ConcurrencyTests.nextEvent(for: quiet)))
        LiveStreamTests.expectState(try await LiveStreamTests.next(quietStream), equals: quiet, "the next commit")
    }

    /// A stream needs HTTP/1.1 (its body is chunked and has no end); `HEAD` on a stream answers
    /// its head alone and opens nothing.
    @Test func aStreamOverHTTP10IsRefusedAndHEADOpensNone() async throws {
        let server = try await ServerProcess.start(backend: .sqlite)
        let client = try await SessionClient.create(port: server.port)
        let path = "/v1/sessions/\(client.id)/stream"
        let old = try await TestHTTP.offPool {
            let connection = try HTTPConnection(port: server.port)
            try connection.write("GET \(path) HTTP/1.0\r\nHost: localhost\r\nAuthorization: Bearer \(client.token)\r\n\r\n")
            return try connection.readResponse()
        }
        ProblemAssertions.expect(old, 400, "malformed-request")
        #expect(old.text.contains("HTTP/1.1"))
        let head = try await TestHTTP.offPool {
            try HTTPConnection(port: server.port).request("HEAD", path, headers: ["Authorization": "Bearer \(client.token)"])
        }
        #expect(head.status == 200)
        #expect(head.headers["content-type"] == "text/event-stream")
        #expect(head.body.isEmpty)
        let stranger = try await TestHTTP.offPool {
            try HTTPConnection(port: server.port).request("HEAD", path, headers: ["Authorization": "Bearer nope"])
        }
        #expect(stranger.status == 401)
        #expect(try await server.metric("coordinatord_streams_opened_total") == 0)
        #expect(try await server.metric("coordinatord_streams_open") == 0)
    }

    /// A node's stream capacity is no small-group resource: 25 clients each at their own cap hold
    /// 400 streams and the node still has room; the 17th stream of one client is refused for
    /// that client alone.
    @Test func clientsAtTheirCapDoNotFillTheNode() async throws {
        let server = try await ServerProcess.start(backend: .sqlite, arguments: ["--trusted-proxy", "127.0.0.1"])
        var streams: [EventStreamClient] = []
        var firstSession: SessionClient?
        for client in 0..<25 {
            let forwarded = ["X-Forwarded-For": "192.0.2.\(client + 1)"]
            let session = try await SessionClient.create(port: server.port, headers: forwarded)
            if client == 0 { firstSession = session }
            for _ in 0..<16 {
                let stream = try await TestHTTP.offPool {
                    try EventStreamClient(port: server.port, sessionID: session.id, token: session.token, extraHeaders: forwarded)
                }
                #expect(stream.status == 200)
                streams.append(stream)
            }
        }
        #expect(try await server.metric("coordinatord_streams_open") == 400)
        let session = try #require(firstSession)
        let over = try await TestHTTP.offPool {
            try EventStreamClient(port: server.port, sessionID: session.id, token: session.token, extraHeaders: ["X-Forwarded-For": "192.0.2.1"])
        }
        #expect(over.status == 429)
        let newcomer = try await SessionClient.create(port: server.port, headers: ["X-Forwarded-For": "192.0.2.99"])
        let more = try await TestHTTP.offPool {
            try EventStreamClient(port: server.port, sessionID: newcomer.id, token: newcomer.token, extraHeaders: ["X-Forwarded-For": "192.0.2.99"])
        }
        #expect(more.status == 200)
        streams.append(more)
    }
}
