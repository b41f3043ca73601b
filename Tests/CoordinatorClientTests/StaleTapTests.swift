import CoordinatorClient
import Foundation
import TestSupport
import Testing

/// Two devices show one session; one moves on, and the other's tap is stale. Its client adopts
/// the State the `409` (or, with `If-Match`, the `412`) carries, and the server changes nothing.
@Suite struct StaleTapTests {
    @Test func aStaleTapAdoptsTheCurrentState() async throws {
        let server = try await ServerProcess.start()
        let phone = ClientHarness(port: server.port)
        try await phone.client.start()
        let tablet = ClientHarness(port: server.port, store: InMemoryCredentialStore(await phone.client.credentials))
        let shown = try await tablet.client.start()
        #expect(shown == (await phone.client.state))
        let tabletStates = await tablet.client.states()

        let current = try await phone.client.send("logIn")
        let error = await #expect(throws: CoordinatorProblem.self) { try await tablet.client.send("signUp") }
        let problem = try #require(error)
        #expect(problem.kind == .staleScreen && problem.status == 409)
        #expect(problem.state == current)
        #expect(await tablet.client.state == current)
        // The shell's stream moved on to it too (a shell not reading meanwhile gets the newest only).
        var rendered = tabletStates.makeAsyncIterator()
        #expect(await rendered.next() == current)
        // Nothing changed on the server.
        #expect(try await phone.client.refresh() == current)
        try await server.stop()
    }

    @Test func aTapOnAnOlderVersionWithIfMatchAdoptsThe412sState() async throws {
        let server = try await ServerProcess.start()
        let phone = ClientHarness(port: server.port)
        try await phone.client.start()
        try await phone.client.send("logIn")
        let tablet = ClientHarness(port: server.port, store: InMemoryCredentialStore(await phone.client.credentials))
        try await tablet.client.start()

        let current = try await phone.client.send("signUp")
        let error = await #expect(throws: CoordinatorProblem.self) {
            try await tablet.client.send("submit", payload: ["email": "x@example.com", "password": "wrong"], ifMatch: true)
        }
        let problem = try #require(error)
        #expect(problem.kind == .versionMismatch && problem.status == 412)
        #expect(tablet.transport.sent.last?.header("If-Match") == "\"\(current.version - 1)\"")
        #expect(await tablet.client.state == current)
        #expect(try await phone.client.refresh() == current)
        try await server.stop()
    }

    /// A late State (an older version of the same session) never rolls the screen back.
    @Test func anOlderStateIsNotAdopted() async throws {
        let server = try await ServerProcess.start()
        let client = ClientHarness(port: server.port).client
        let first = try await client.start()
        let second = try await client.send("logIn")
        #expect(await client.adopt(first) == false)
        #expect(await client.state == second)
        try await server.stop()
    }

    /// Problems arrive as typed errors: a payload of the wrong shape names its field.
    @Test func aProblemIsATypedError() async throws {
        let server = try await ServerProcess.start()
        let client = ClientHarness(port: server.port).client
        let start = try await client.start()
        let undeclared = await #expect(throws: CoordinatorProblem.self) { try await client.send("compose") }
        #expect(undeclared?.kind == .undeclaredEvent && undeclared?.status == 422)
        try await client.send("logIn")
        let invalid = await #expect(throws: CoordinatorProblem.self) {
            try await client.send("submit", payload: ["email": 5])
        }
        #expect(invalid?.kind == .invalidPayload)
        #expect(invalid?.errors.contains { $0.field == "email" } == true)
        #expect(await client.state?.version == start.version + 1)
        try await server.stop()
    }
}
