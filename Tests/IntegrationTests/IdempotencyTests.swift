import Foundation
import TestSupport
import Testing

@Suite struct IdempotencyTests {
    @Test(arguments: Backend.allCases) func aRetryReplaysTheFirstAnswerAndAppliesNothingTwice(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var client = try await SessionClient.create(port: server.port)
        let first = try await client.send("logIn", headers: ["Idempotency-Key": "k-1"])
        #expect(first.status == 200)
        var retry = client
        let second = try await retry.send("logIn", screen: "s1", headers: ["Idempotency-Key": "k-1"])
        #expect(second.status == 200)
        #expect(second.text == first.text)
        #expect(second.headers["etag"] == "\"2\"")
        _ = try await client.refresh()
        #expect(client.version == 2)

        let different = try await retry.send("signUp", screen: "s1", headers: ["Idempotency-Key": "k-1"])
        #expect(different.status == 422)
        #expect(different.headers["content-type"] == "application/problem+json")
    }

    @Test(arguments: Backend.allCases) func aRotatedTokenIsReplayedToTheOldTokenOnlyForThatRequest(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var owner = try await SessionClient.create(port: server.port)
        try await Journey.register(&owner, email: "rotate@example.com", displayName: "Ro")

        var client = try await SessionClient.create(port: server.port)
        let oldToken = client.token
        try Journey.expect200(try await client.send("logIn"))
        let signedIn = try await client.send(
            "submit", ["email": "rotate@example.com", "password": Journey.password], headers: ["Idempotency-Key": "sign-in"])
        #expect(signedIn.status == 200)
        let newToken = try #require(signedIn.json["token"] as? String)
        #expect(newToken != oldToken)

        // The old token is dead...
        var stale = client
        stale.token = oldToken
        #expect(try await stale.get("").status == 401)
        // ...except to replay that same request by its key.
        let replay = try await stale.send(
            "submit", ["email": "rotate@example.com", "password": Journey.password], screen: "s2",
            headers: ["Idempotency-Key": "sign-in"])
        #expect(replay.status == 200)
        #expect(replay.text == signedIn.text)
        stale.token = oldToken  // the replayed answer handed the client the new token again
        #expect(try await stale.send("back", screen: "s2", headers: ["Idempotency-Key": "other"]).status == 401)
        #expect(try await client.get("").status == 200)
    }

    /// The first sign-in is held in the (paused) password pool, so the retry surely comes while
    /// it runs: no timing assumption.
    @Test(arguments: Backend.allCases) func aRetryWhileTheFirstStillRunsIs409(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend, arguments: ["--test-hooks"])
        let port = server.port
        var owner = try await SessionClient.create(port: port)
        try await Journey.register(&owner, email: "busy@example.com", displayName: "Busy")
        var client = try await SessionClient.create(port: port)
        try Journey.expect200(try await client.send("logIn"))

        try await server.pausePasswordPool(true)
        let body: [String: Any] = ["email": "busy@example.com", "password": Journey.password]
        let first = Task { [client] in
            var client = client
            return try await client.send(
                "submit", ["email": "busy@example.com", "password": Journey.password], headers: ["Idempotency-Key": "slow"])
        }
        try await waitUntil("the sign-in queued for the paused pool") {
            try await server.metric("coordinatord_password_queue_depth") == 1
        }
        var retry = client
        let second = try await retry.send("submit", body, headers: ["Idempotency-Key": "slow"])
        ProblemAssertions.expect(second, 409, "idempotency-key-in-flight")
        try await server.pausePasswordPool(false)
        let firstAnswer = try await first.value("the first sign-in")
        #expect(firstAnswer.status == 200)
        // Once the first is done, the retry replays it.
        let third = try await retry.send("submit", body, screen: "s2", headers: ["Idempotency-Key": "slow"])
        #expect(third.status == 200)
        #expect(third.text == firstAnswer.text)
    }
}
