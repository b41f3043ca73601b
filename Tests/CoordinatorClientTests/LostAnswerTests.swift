import CoordinatorClient
import Foundation
import TestSupport
import Testing

/// An answer lost on the way back (the event applied, the client told the connection dropped)
/// is asked for again with the same `Idempotency-Key`: the server answers with the first answer
/// and applies nothing twice.
@Suite struct LostAnswerTests {
    @Test(arguments: Backend.allCases) func aLostAnswerIsRetriedWithTheSameKeyAndAppliedOnce(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        let harness = ClientHarness(port: server.port)
        let client = harness.client
        try await client.start()
        try await Steps.register(client, email: "lost@example.com")
        try await client.send("compose")
        let before = try #require(await client.state?.version)

        harness.transport.loseNextAnswers(1)
        let state = try await client.send("submit", payload: ["text": "Only once"])
        #expect(state.version == before + 1)
        #expect(state.topScreen?.name == "timeline")
        #expect(state.topScreen?.props["posts"]?.arrayValue?.count == 1)
        // The server did answer the first attempt, with the State the retry brought back.
        let lost = try #require(harness.transport.lost.first)
        #expect(lost.status == 200)
        #expect(try JSONDecoder().decode(SessionState.self, from: lost.body) == state)
        // Two attempts of one request: same body, same key.
        let attempts = harness.transport.sent.suffix(2)
        #expect(attempts.count == 2 && attempts.first == attempts.last)
        let key = try #require(attempts.first?.header("Idempotency-Key"))
        #expect(!key.isEmpty)
        #expect(harness.sleeps.recorded == [RetryPolicy().initialBackoff])

        // The server agrees: one event, one post.
        let stored = try await client.refresh()
        #expect(stored.version == before + 1)
        #expect(stored.topScreen?.props["posts"]?.arrayValue?.count == 1)
        // Each event has its own key.
        try await client.send("refresh")
        #expect(harness.transport.sent.last?.header("Idempotency-Key") != key)
        try await server.stop()
    }

    /// The lost answer of a sign-in carried the rotated token; the retry (with the old token,
    /// which the server accepts only to replay that very request) brings it back.
    @Test(arguments: Backend.allCases) func aLostSignInAnswerStillDeliversTheRotatedToken(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        let harness = ClientHarness(port: server.port)
        let client = harness.client
        try await client.start()
        try await Steps.register(client, email: "rotate@example.com")
        try await Steps.openSettings(client)
        try await client.send("signOut")
        try await client.send("logIn")
        let old = try #require(await client.credentials.session)

        harness.transport.loseNextAnswers(1)
        let state = try await client.send(
            "submit", payload: ["email": "rotate@example.com", "password": .string(Steps.password)])
        #expect(state.topScreen?.name == "timeline")
        #expect(state.user?.displayName == "Ada")
        let new = try #require(await client.credentials.session)
        #expect(new.id == old.id && new.token != old.token)
        #expect(harness.transport.lost.count == 1)
        // Both attempts went out with the old token.
        #expect(harness.transport.sent.suffix(2).allSatisfy { $0.header("Authorization") == "Bearer \(old.token)" })
        // The new token works; the store has it.
        #expect(try await client.refresh() == state)
        #expect(await harness.store.load().session == new)
        try await server.stop()
    }

    /// Every attempt lost: the client gives up saying so, and the event was applied once.
    @Test func everyAnswerLostIsUnreachableYetAppliedOnce() async throws {
        let server = try await ServerProcess.start()
        let harness = ClientHarness(port: server.port, retry: RetryPolicy(maxAttempts: 3))
        let client = harness.client
        let start = try await client.start()
        harness.transport.loseNextAnswers(3)
        await #expect(throws: CoordinatorClientError.self) { try await client.send("logIn") }
        #expect(harness.transport.lost.count == 3)
        // Waits between attempts double from the policy's first one.
        #expect(harness.sleeps.recorded == [.milliseconds(200), .milliseconds(400)])
        #expect(await client.state == start)  // nothing adopted that was not received
        let stored = try await client.refresh()
        #expect(stored.version == start.version + 1)
        #expect(stored.topScreen?.name == "login")
        try await server.stop()
    }
}
