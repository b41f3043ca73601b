import Foundation
import SQLiteStore
import Store
import TestSupport
import Testing

/// Nothing a client sends grows the server without bound: a session's state, the password
/// queue, the answers kept for replay.
@Suite struct BoundsTests {
    /// Loading page after page is refused with `422` once the session's state would pass its
    /// byte limit; the session is unchanged and goes on.
    @Test func aSessionStopsGrowingAtItsStateLimit() async throws {
        let server = try await ServerProcess.start(arguments: ["--max-snapshot-bytes", "12000"])
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "big@example.com", displayName: "Big")
        for index in 0..<45 {
            try Journey.expect200(try await client.send("compose"))
            try Journey.expect200(try await client.send("submit", ["text": "post \(index) " + String(repeating: "w", count: 250)]))
        }
        var refused: TestResponse?
        for _ in 0..<3 where refused == nil {
            let answer = try await client.send("loadMore")
            if answer.status != 200 { refused = answer }
        }
        let refusal = try #require(refused)
        ProblemAssertions.expect(refusal, 422, "session-limit")
        #expect((refusal.json["errors"] as? [[String: Any]])?.first?["field"] as? String == "event")
        let stored = try await client.get("")
        #expect(stored.headers["etag"] == "\"\(client.version)\"")
        #expect(try await client.send("refresh").status == 200)
    }

    /// A full password queue answers `503` with `Retry-After` at once; the session is unchanged.
    @Test func aFullPasswordQueueIs503WithRetryAfter() async throws {
        let server = try await ServerProcess.start(arguments: ["--test-hooks", "--max-queued-hashes", "1", "--hash-concurrency", "1"])
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: "q@example.com", displayName: "Q")
        try await server.pausePasswordPool(true)

        var first = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await first.send("logIn"))
        let waiting = Task { [first] in
            var client = first
            return try await client.send("submit", ["email": "q@example.com", "password": Journey.password])
        }
        try await waitUntil("the sign-in queued for the paused pool") {
            try await server.metric("coordinatord_password_queue_depth") == 1
        }

        var second = try await SessionClient.create(port: server.port)
        try Journey.expect200(try await second.send("logIn"))
        let refused = try await second.send("submit", ["email": "q@example.com", "password": Journey.password])
        ProblemAssertions.expect(refused, 503, "password-queue-full")
        #expect(refused.headers["retry-after"] == "1")
        #expect(try await second.refresh().status == 200)
        #expect(second.topScreen.name == "login")

        try await server.pausePasswordPool(false)
        #expect(try await waiting.value("the queued sign-in").status == 200)
        #expect(try await server.metric("coordinatord_password_jobs_refused_total") == 1)
    }

    /// Only the newest answers per session are kept for replay, however many keys a client sends
    /// (on PostgreSQL the event's folded write keeps them, on SQLite their own statements).
    @Test(arguments: Backend.allCases) func storedAnswersPerSessionAreCapped(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--max-idempotency-keys", "3"])
        var client = try await SessionClient.create(port: server.port)
        var lastScreen = ""
        for index in 0..<10 {
            lastScreen = client.top
            try Journey.expect200(
                try await client.send(ConcurrencyTests.nextEvent(for: client), headers: ["Idempotency-Key": "key-\(index)"]))
        }
        let keys = try StoredData.open(server.databasePath).query(
            "SELECT key FROM idempotency_keys WHERE session_id = ?1 ORDER BY key", [.text(client.id)]) { $0.string(0) }
        #expect(keys == ["key-7", "key-8", "key-9"])
        // The newest still replays.
        var retry = client
        let replay = try await retry.send("back", screen: lastScreen, headers: ["Idempotency-Key": "key-9"])
        #expect(replay.status == 200)
        #expect(replay.headers["etag"] == "\"11\"")
    }
}
