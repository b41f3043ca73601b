import CoordinatorTesting
import Foundation
import Navigation
import Testing

/// `LiveServer` starts the package's own executable (here the sample app's `coordinatord`)
/// beside the tests, on a free port with a database of its own, from whatever folder the tests
/// run in.
@Suite struct LiveServerTests {
    @Test func startsTheBuiltExecutableOnAFreePortAndStopsIt() async throws {
        let server = try await LiveServer.start(product: "coordinatord", arguments: ["--log-level", "warning"])
        #expect(server.port > 0)
        #expect(try await server.request("GET", "/healthz").status == 200)

        var session = try await server.newSession(platform: "web")
        #expect(session.topName == "firstRun")
        #expect(try await session.send("logIn").status == 200)
        #expect(session.topName == "login")
        let refused = try await session.send("submit", ["email": "ada@example.com"])
        #expect(refused.status == 422)
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(session.topName == "login")
        try await session.refresh()
        #expect(session.state["version"] == 2)

        #expect(try await server.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: server.databasePath))
    }

    @Test func aProductThatWasNotBuiltIsNamedInTheError() throws {
        let error = #expect(throws: LiveServerError.self) { try LiveServer.executable(named: "no-such-app") }
        #expect(error?.description.contains("no executable no-such-app beside the tests") == true)
    }

    @Test func aServerThatCannotStartFailsWithItsOutput() async throws {
        let error = await #expect(throws: LiveServerError.self) {
            try await LiveServer.start(product: "coordinatord", arguments: ["--no-such-flag"])
        }
        #expect(error?.description.contains("exited") == true)
        #expect(error?.description.contains("no-such-flag") == true)
    }
}

/// `LiveSession.stream()`: what another device on the session sees, State by State.
@Suite struct LiveStreamHelperTests {
    @Test func aSecondDeviceSeesEachStateAndTheEndOfItsStream() async throws {
        let server = try await LiveServer.start(product: "coordinatord", arguments: ["--log-level", "warning"])
        var phone = try await server.newSession()
        let tablet = try await phone.stream()
        #expect(try await tablet.nextState()?["version"] == 1, "the current State first")
        #expect(try await phone.send("logIn").status == 200)
        let shown = try #require(try await tablet.nextState())
        #expect(shown["version"] == 2)
        #expect(shown == phone.state, "the stream pushes the very State the answer carried")
        // The session is deleted: the stream's last frame says so.
        #expect(try await server.request("DELETE", "/v1/sessions/\(phone.id)", headers: [("Authorization", "Bearer \(phone.token)")]).status == 204)
        #expect(try await tablet.nextState() == nil)
        #expect(tablet.endedReason == "session-ended")
        #expect(try await server.stop() == 0)
    }
}
