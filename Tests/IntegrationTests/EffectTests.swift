import Foundation
import Store
import TestSupport
import Testing

/// Effects on the real binary (the sample app's welcome message, sent to a relay the test runs on
/// localhost): stored with the registration's commit, run at least once with one idempotency key
/// (again after `kill -9`, and by another node when its node died), retried with backoff, and
/// their result delivered once, as an event of the session: journaled and streamed.
@Suite struct EffectTests {
    static func start(_ database: String, relay: WebhookReceiver, node: String = "node-a") async throws -> ServerProcess {
        try await ServerProcess.start(
            databasePath: database,
            arguments: ["--test-hooks", "--welcome-webhook", relay.url("/welcome"), "--node-name", node])
    }

    /// The session's `(effect)` entries, newest first.
    static func deliveries(_ client: SessionClient) async throws -> [[String: Any]] {
        try await JournalTests.history(client).filter { $0["event"] as? String == "(effect)" }
    }

    /// The stored effects: state and runs.
    static func effects(_ database: String) async throws -> [(state: String, attempts: Int)] {
        try await TestHTTP.offPool {
            try StoredData.open(database).query("SELECT state, attempts FROM effects ORDER BY created_at", []) {
                (state: $0.string(0), attempts: $0.int(1))
            }
        }
    }

    /// Runs the server's effects now (`POST /test/effects`); returns how many runs it made.
    @discardableResult
    static func runEffects(_ server: ServerProcess) async throws -> Int {
        let response = try await TestHTTP.request(port: server.port, "POST", "/test/effects")
        guard response.status == 200 else { throw TestClientError(description: "effects: \(response.status)") }
        return response.json["runs"] as? Int ?? -1
    }

    static func register(_ port: UInt16) async throws -> SessionClient {
        var client = try await SessionClient.create(port: port)
        try await Journey.register(&client, email: "ada@example.com", displayName: "Ada")
        return client
    }

    /// Waits until the session's stored version passes `version` (its effect's result came back).
    static func waitForVersion(after version: Int, _ client: inout SessionClient) async throws {
        try await waitUntil("the effect's result to come back as version \(version + 1)") {
            _ = try await client.refresh()
            return client.version > version
        }
    }

    @Test(arguments: Backend.allCases) func aNewUserIsWelcomedOnceAndTheResultComesBackAsAnEvent(backend: Backend) async throws {
        let relay = try WebhookReceiver()
        defer { relay.stop() }
        let database = try await backend.newDatabase()
        let server = try await Self.start(database, relay: relay)
        var client = try await Self.register(server.port)
        let registered = client.version
        let (port, id, token) = (server.port, client.id, client.token)
        let stream = try await TestHTTP.offPool { try EventStreamClient(port: port, sessionID: id, token: token, lastEventID: registered) }
        defer { stream.disconnect() }

        try await Self.waitForVersion(after: registered, &client)
        #expect(client.version == registered + 1)
        #expect(client.topScreen.name == "timeline", "the result changes no screen")
        let sent = relay.received
        try #require(sent.count == 1)
        #expect(sent[0].path == "/welcome")
        #expect(sent[0].body.contains(#""to":"ada@example.com""#))
        let key = try #require(sent[0].idempotencyKey)

        let deliveries = try await Self.deliveries(client)
        try #require(deliveries.count == 1)
        let payload = deliveries[0]["payload"] as? [String: Any] ?? [:]
        #expect(payload["effect"] as? String == "sendWelcome")
        #expect(payload["id"] as? String == key, "the handler's idempotency key is the effect's id")
        #expect(payload["outcome"] as? String == "succeeded")
        #expect((payload["result"] as? [String: Any])?["delivery"] as? String == "sent")
        #expect(deliveries[0]["version"] as? Int == registered + 1)
        #expect(try await Self.effects(database).map(\.state) == ["delivered"])
        // Streamed like any event: the stream reaches the new version.
        #expect(try await TestHTTP.offPool { try stream.states(through: registered + 1) }.last?.id == registered + 1)
        // Nothing left to run.
        #expect(try await Self.runEffects(server) == 0)
        #expect(relay.received.count == 1)
        // A deleted session takes its finished effects (the user's e-mail in the request) along.
        let deleted = try await TestHTTP.request(
            port: server.port, "DELETE", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer \(client.token)"])
        #expect(deleted.status == 204)
        #expect(try await Self.effects(database).isEmpty)
        try await server.stop()
    }

    @Test(arguments: Backend.allCases) func anEffectCutByKillNineRunsAgainWithItsKeyAndComesBackOnce(backend: Backend) async throws {
        let relay = try WebhookReceiver()
        defer { relay.stop() }
        relay.answerNext(.hold)
        let database = try await backend.newDatabase()
        var server = try await Self.start(database, relay: relay)
        var client = try await Self.register(server.port)
        let registered = client.version
        // The relay has the request, unanswered: the server dies between the commit and the result.
        try await waitUntil("the relay to receive the welcome") { relay.received.count == 1 }
        try await server.stop(signal: SIGKILL)
        relay.releaseHeld(status: 200)  // the relay sent it; its answer reaches no one
        if backend == .postgresql { try await MultiNodeTests.waitForTransactionsToEnd(database) }
        #expect(try await Self.effects(database).map(\.state) == ["pending"])

        server = try await Self.start(database, relay: relay)
        client = client.moved(to: server.port)
        if backend == .postgresql {
            // A shared store cannot tell a dead node from a slow one: the lease must end first.
            #expect(try await Self.runEffects(server) == 0)
            try await server.advanceClock(seconds: 61)
            #expect(try await Self.runEffects(server) == 1)
        }  // (SQLite: the restarted server took its dead self's leases at once.)
        try await waitUntil("the relay to receive the welcome again") { relay.received.count == 2 }
        try await Self.waitForVersion(after: registered, &client)
        let keys = relay.received.map(\.idempotencyKey)
        #expect(keys[0] != nil && keys[0] == keys[1], "both runs carry the effect's one key")
        #expect(relay.applied.count == 1, "the relay applied it once")
        #expect(try await Self.deliveries(client).count == 1, "one result, one event")
        #expect(try await Self.effects(database).map(\.state) == ["delivered"])
        #expect(try await Self.effects(database).map(\.attempts) == [2])
        try await server.stop()
    }

    @Test func anotherNodeTakesOverTheEffectOfANodeThatDied() async throws {
        let relay = try WebhookReceiver()
        defer { relay.stop() }
        relay.answerNext(.hold)
        let database = try await Backend.postgresql.newDatabase()
        let nodeA = try await Self.start(database, relay: relay, node: "node-a")
        let nodeB = try await Self.start(database, relay: relay, node: "node-b")
        var client = try await Self.register(nodeA.port)
        let registered = client.version
        try await waitUntil("node A to call the relay") { relay.received.count == 1 }
        try await nodeA.stop(signal: SIGKILL)
        relay.releaseHeld(status: 200)
        try await MultiNodeTests.waitForTransactionsToEnd(database)

        #expect(try await Self.runEffects(nodeB) == 0, "node A's lease holds until it ends")
        try await nodeB.advanceClock(seconds: 61)
        #expect(try await Self.runEffects(nodeB) == 1)
        #expect(relay.received.count == 2)
        #expect(Set(relay.received.map(\.idempotencyKey)).count == 1)
        client = client.moved(to: nodeB.port)
        try await Self.waitForVersion(after: registered, &client)
        let operatorView = try await JournalTests.history(client)
        #expect(operatorView.filter { $0["event"] as? String == "(effect)" }.count == 1)
        try await nodeB.stop()
    }

    @Test func aFailingServiceIsTriedAgainAfterItsBackoffThenGivenUp() async throws {
        let relay = try WebhookReceiver()
        defer { relay.stop() }
        relay.answerNext(.status(503), .status(400))
        let database = try await Backend.sqlite.newDatabase()
        let server = try await Self.start(database, relay: relay)
        var client = try await Self.register(server.port)
        let registered = client.version
        try await waitUntil("the first try") { relay.received.count == 1 }
        try await waitUntil("the failure to be stored") {
            try await TestHTTP.offPool {
                try StoredData.open(database).queryFirst("SELECT last_error FROM effects", []) { $0.optionalString(0) } ?? nil
            } != nil
        }
        // Not due before its backoff (2 s for the welcome), whatever asks.
        #expect(try await Self.runEffects(server) == 0)
        try await server.advanceClock(seconds: 2)
        #expect(try await Self.runEffects(server) == 1)
        #expect(relay.received.count == 2)
        try await Self.waitForVersion(after: registered, &client)
        let payload = try await Self.deliveries(client).first?["payload"] as? [String: Any] ?? [:]
        #expect(payload["outcome"] as? String == "failed")
        #expect(payload["attempts"] as? Int == 2)
        #expect((payload["reason"] as? String)?.contains("400") == true)
        #expect(try await Self.effects(database).map(\.state) == ["delivered"])
        try await server.stop()
    }
}
