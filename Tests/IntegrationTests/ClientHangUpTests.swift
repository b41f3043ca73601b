import Foundation
import Store
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Clients that leave mid-request, at every point of an event, strand nothing: work a request
/// started runs to its end (commit or rollback, lock released) whether or not its client stays.
@Suite struct ClientHangUpTests {
    /// Where a client hangs up.
    enum Cut: CaseIterable {
        /// Headers and half the body sent: the request never reaches its handler.
        case beforeTheBody
        /// The whole request sent, then gone at once: the handler has not started or is running.
        case rightAfterTheRequest
        /// Gone a moment later: while the flow runs or its commit is in flight.
        case duringTheEvent
        /// Gone once the answer's first bytes arrived: while the answer is written.
        case whileTheAnswerIsWritten
    }

    static let sessions = 8
    static let cutsPerSession = 40

    @Test(arguments: Backend.allCases) func clientsHangingUpAtAnyPointStrandNoSession(backend: Backend) async throws {
        // Every client here is 127.0.0.1: room for the connections being cut at once.
        let server = try await ServerProcess.start(
            backend: backend, arguments: ["--per-address-connection-limit", "1024", "--log-level", "info"])
        var clients: [SessionClient] = []
        for _ in 0..<Self.sessions { clients.append(try await SessionClient.create(port: server.port)) }

        try await withDeadline("the cuts", seconds: 120) { [clients] in try await Self.cutAll(clients, round: 0) }
        // A second round as large: what the server holds must not grow with the cuts (the first
        // round warmed its caches up; a connection's memory pool left behind per cut would be
        // ~10 MiB here, a task per cut more).
        let residentAfterOne = try Self.residentKiB(server.pid)
        try await withDeadline("the second round of cuts", seconds: 120) { [clients] in
            try await Self.cutAll(clients, round: 1)
        }

        // Every handler ends, those whose client left among them (a client's leaving is noticed
        // when its handler next wakes, so the two are read from one scrape, which is itself the
        // one handler running).
        try await waitUntil("every handler to end") {
            let scrape = try await TestHTTP.request(port: server.port, "GET", "/metrics").text
            return ServerProcess.metric("coordinatord_handlers_in_flight", in: scrape) == 1
                && ServerProcess.metric("coordinatord_handlers_client_gone", in: scrape) == 0
        }
        #expect(try await server.metric("coordinatord_handlers_client_left_total") ?? 0 > 0)

        let stored = try StoredData.open(server.databasePath)
        func storedVersion(_ id: String) throws -> Int? {
            try stored.queryFirst("SELECT version FROM sessions WHERE id = ?1", [.text(id)]) { $0.int(0) }
        }
        for var client in clients {
            // Every session answers, shows what its store holds, and takes its next event.
            let shown = try await withDeadline("session \(client.id) to answer after the cuts", seconds: 30) {
                [client] in try await client.get("")
            }
            #expect(shown.status == 200)
            client = SessionClient(port: client.port, id: client.id, token: client.token, stateText: shown.text)
            #expect(try storedVersion(client.id) == client.version, "\(client.id): memory and store agree")
            let before = client.version
            let next = client.topScreen.name == "firstRun" ? "logIn" : "back"
            let answer = try await withDeadline("session \(client.id)'s next event", seconds: 30) { [client] in
                var client = client
                let response = try await client.send(next)
                return (response.status, client.version)
            }
            #expect(answer.0 == 200, "\(client.id): \(next) after the cuts")
            #expect(answer.1 == before + 1)
            #expect(try storedVersion(client.id) == before + 1)
        }

        // No connection is left behind: the server holds none open (its client gone or not).
        try await waitUntil("the cut connections to close") { Self.openConnections(onPort: server.port) == 0 }
        let grown = try Self.residentKiB(server.pid) - residentAfterOne
        #expect(grown < 8 * 1024, "the server's memory grew by \(grown) KiB over the second round of cuts")
        // And it drains on SIGTERM: nothing is still running.
        #expect(try await server.stop() == 0)
        #expect(server.log.contains("drained=true"), "\(server.log.suffix(2000))")
    }

    /// A sign-in whose client hangs up while its password hash waits in the queue still commits
    /// when the hash is done, and its client, retrying with the same `Idempotency-Key` and its old
    /// token, gets that answer (the new token) instead of an error or a second sign-in.
    @Test(arguments: Backend.allCases) func aSignInWhoseClientLeftWhileItsHashWaitedCommitsAndReplays(
        backend: Backend
    ) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--test-hooks"])
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: "q@example.com", displayName: "Q")
        var client = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await client.send("logIn"))
        let versionBefore = client.version

        try await server.pausePasswordPool(true)
        let body = SessionClient.json([
            "screen": client.top, "event": "submit",
            "payload": ["email": "q@example.com", "password": Journey.password],
        ])
        let headers = [
            "Authorization": "Bearer \(client.token)", "Content-Type": "application/json", "Idempotency-Key": "sign-in-1",
        ]
        let connection = try HTTPConnection(port: server.port)
        var head = "POST /v1/sessions/\(client.id)/events HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try connection.write(head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
        try await waitUntil("the sign-in queued for the paused pool") {
            try await server.metric("coordinatord_password_queue_depth") == 1
        }
        connection.hangUp(reset: true)
        try await server.pausePasswordPool(false)

        // The handler runs to its end without its client: the sign-in commits.
        try await waitUntil("the abandoned sign-in to finish") {
            try await server.metric("coordinatord_handlers_in_flight") == 1
        }
        let stored = try StoredData.open(server.databasePath)
        let storedVersion = try stored.queryFirst("SELECT version FROM sessions WHERE id = ?1", [.text(client.id)]) {
            $0.int(0)
        }
        #expect(storedVersion == versionBefore + 1)
        try await waitUntil("the hang-up to be counted") {
            try await server.metric("coordinatord_handlers_client_left_total") == 1
        }

        // The client retries as it would after a lost answer: the stored answer, with the new token.
        let retry = try await TestHTTP.request(port: server.port, "POST", "/v1/sessions/\(client.id)/events", headers: headers, body: body)
        #expect(retry.status == 200)
        client.absorb(retry)
        #expect(client.version == versionBefore + 1)
        #expect(client.topScreen.name == "timeline")
        #expect(try await client.refresh().status == 200)
        #expect(client.version == versionBefore + 1)
        try await server.stop()
    }

    /// Cuts every session's events at random points, all at once (seeded: the same cuts every run).
    static func cutAll(_ clients: [SessionClient], round: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    try await TestHTTP.offPool {
                        var random = SplitMix64(state: UInt64(round * 1000 + index + 1) &* 0x9E37_79B9)
                        for _ in 0..<Self.cutsPerSession { try Self.cut(client, using: &random) }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// One event on `client`'s session, cut where `random` says. The event follows the top screen
    /// as the session shows it now (a stale one gets a `409`, which is as good a cut).
    static func cut(_ client: SessionClient, using random: inout SplitMix64) throws {
        let state = try HTTPConnection(port: client.port).request(
            "GET", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer \(client.token)"])
        guard state.status == 200 else { throw TestClientError(description: "GET: \(state.status) \(state.text)") }
        let shown = SessionClient(port: client.port, id: client.id, token: client.token, stateText: state.text)
        let event = shown.topScreen.name == "firstRun" ? "logIn" : "back"
        let body = Array(SessionClient.json(["screen": shown.top, "event": event]).utf8)
        let head = Array(
            ("POST /v1/sessions/\(client.id)/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(client.token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n").utf8)
        let connection = try HTTPConnection(port: client.port)
        switch Cut.allCases.randomElement(using: &random)! {
        case .beforeTheBody:
            try connection.write(head + body.prefix(body.count / 2))
        case .rightAfterTheRequest:
            try connection.write(head + body)
        case .duringTheEvent:
            try connection.write(head + body)
            usleep(UInt32.random(in: 0..<3_000, using: &random))
        case .whileTheAnswerIsWritten:
            try connection.write(head + body)
            _ = try connection.readSome(atMost: 16)
        }
        connection.hangUp(reset: Bool.random(using: &random))
    }

    /// The process's resident memory, in KiB (`VmRSS`).
    static func residentKiB(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// TCP connections on loopback whose local port is `port`, established or closed by their
    /// peer and not yet by the server (the listening socket and `TIME_WAIT` are not counted).
    static func openConnections(onPort port: UInt16) -> Int {
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        let local = String(format: ":%04X", port)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            // Fields: slot, local address, remote address, state (01 established, 08 close-wait).
            return fields.count > 3 && fields[1].hasSuffix(local) && (fields[3] == "01" || fields[3] == "08")
        }.count
    }
}
