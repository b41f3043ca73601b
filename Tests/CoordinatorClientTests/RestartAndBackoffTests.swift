import CoordinatorClient
import Foundation
import Synchronization
import TestSupport
import Testing

/// The server goes away mid-journey and comes back on the same database and port; the client
/// rides it out by itself, and a `429` waits out its `Retry-After` (on the server's test clock,
/// so no test waits for real time).
@Suite struct RestartAndBackoffTests {
    /// The server a sleep started, once.
    final class Restarter: Sendable {
        let databasePath: String
        let port: UInt16
        private let started = Mutex<ServerProcess?>(nil)

        init(databasePath: String, port: UInt16) { (self.databasePath, self.port) = (databasePath, port) }

        var server: ServerProcess? { started.withLock { $0 } }

        /// A server on the database and port.
        func launch() async throws -> ServerProcess {
            try await ServerProcess.start(
                commandLine: ["serve", "--port", "\(port)", "--database", databasePath, "--log-level", "warning"],
                databasePath: databasePath)
        }

        func restartOnce() async throws {
            guard server == nil else { return }
            let server = try await launch()
            started.withLock { $0 = server }
        }
    }

    @Test(arguments: Backend.allCases) func aServerRestartMidJourneyIsRiddenOut(backend: Backend) async throws {
        let databasePath = try await backend.newDatabase()
        // The second server listens on the first one's port: one the kernel gives no one else meanwhile.
        let port = try FreePort.outsideTheEphemeralRange()
        let restarter = Restarter(databasePath: databasePath, port: port)
        let first = try await restarter.launch()
        // The client's first wait is when the server is down: the test brings it back then.
        let harness = ClientHarness(port: first.port) { _ in try await restarter.restartOnce() }
        let client = harness.client
        try await client.start()
        try await Steps.register(client, email: "restart@example.com")
        try await client.send("compose")
        let before = try #require(await client.state)
        let token = await client.credentials.session?.token

        try await first.stop()
        let state = try await client.send("submit", payload: ["text": "Across a restart"])
        let second = try #require(restarter.server)
        #expect(second.port == first.port)
        #expect(harness.sleeps.recorded.count == 1)
        #expect(state.version == before.version + 1)
        #expect(state.topScreen?.name == "timeline")
        #expect(state.user?.displayName == "Ada")
        #expect(state.topScreen?.props["posts"]?.arrayValue?.count == 1)
        #expect(await client.credentials.session?.token == token)

        // The journey goes on, and a relaunch resumes it from the store on the new process.
        try await client.perform(.selectTab("profile"))
        let relaunched = try await ClientHarness(port: second.port, store: harness.store).client.start()
        #expect(relaunched == (await client.state))
        #expect(relaunched.topScreen?.name == "profile")
        try await second.stop()
    }

    /// Sessions created past `--sessions-per-minute` get `429` with `Retry-After: 20`: the client
    /// waits that long (the wait moves the server's clock) and tries again; a wait longer than
    /// it may take by itself is handed to the app instead.
    @Test func a429WaitsOutItsRetryAfter() async throws {
        let server = try await ServerProcess.start(arguments: ["--test-hooks", "--sessions-per-minute", "3"])
        for _ in 0..<6 {
            let created = try await TestHTTP.request(
                port: server.port, "POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: "{}")
            #expect(created.status == 201)
        }
        let harness = ClientHarness(port: server.port) { wait in
            try await server.advanceClock(seconds: Int(wait.components.seconds))
        }
        let state = try await harness.client.start()
        #expect(state.topScreen?.name == "firstRun")
        #expect(harness.sleeps.recorded == [.seconds(20)])
        #expect(harness.transport.sent.map(\.method) == ["POST", "POST"])

        let impatient = ClientHarness(port: server.port, retry: RetryPolicy(maxRetryAfter: .seconds(10)))
        let error = await #expect(throws: CoordinatorProblem.self) { try await impatient.client.start() }
        #expect(error?.kind == .tooManySessions && error?.status == 429)
        #expect(error?.retryAfter == .seconds(20))
        #expect(impatient.sleeps.recorded.isEmpty)
        try await server.stop()
    }

    /// A full password queue answers `503` with `Retry-After: 1`: the client waits (the wait
    /// lets the queued sign-in finish) and signs in on the next attempt.
    @Test func a503WaitsOutItsRetryAfter() async throws {
        let server = try await ServerProcess.start(
            arguments: ["--test-hooks", "--max-queued-hashes", "1", "--hash-concurrency", "1"])
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: "q@example.com", displayName: "Q")
        try await server.pausePasswordPool(true)
        var queued = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await queued.send("logIn"))
        let waiting = Task { [queued] in
            var client = queued
            return try await client.send("submit", ["email": "q@example.com", "password": Journey.password])
        }
        try await waitUntil("the sign-in queued for the paused pool") {
            try await server.metric("coordinatord_password_queue_depth") == 1
        }

        let harness = ClientHarness(port: server.port) { _ in
            try await server.pausePasswordPool(false)
            #expect(try await waiting.value("the queued sign-in").status == 200)
        }
        try await harness.client.start()
        try await harness.client.send("logIn")
        let state = try await harness.client.send(
            "submit", payload: ["email": "q@example.com", "password": .string(Steps.password)])
        #expect(state.topScreen?.name == "timeline")
        #expect(state.user?.displayName == "Q")
        #expect(harness.sleeps.recorded == [.seconds(1)])
        #expect(try await server.metric("coordinatord_password_jobs_refused_total") == 1)
        try await server.stop()
    }
}
