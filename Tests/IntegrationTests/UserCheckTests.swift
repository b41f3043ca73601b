import Foundation
import TestSupport
import Testing

/// The sample app declares its users' table (`UserTable("users")`): a signed-in session's user is
/// checked with each event's write, not by a read before it. A user gone from the table by any way
/// but this session's own flows (by hand here; another node, an admin tool) signs the session out
/// at its next event, on both stores, whichever way that event's flow runs: one that reads nothing,
/// one that reads, and one that the flow refuses.
@Suite struct UserCheckTests {
    @Test(arguments: Backend.allCases) func aUserDeletedOutsideTheAppIsSignedOutAtTheNextEvent(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        // Each on a session of its own: `compose` reads nothing, `selectTab` to the profile reads
        // its posts, and `nonsense` is no event of the timeline (a `422` for a user who exists).
        let nextEvents: [(name: String, payload: [String: String]?)] = [
            ("compose", nil), ("selectTab", ["tab": "profile"]), ("nonsense", nil),
        ]
        for (index, next) in nextEvents.enumerated() {
            var client = try await SessionClient.create(port: server.port)
            try await Journey.register(&client, email: "gone\(index)@example.com", displayName: "Gone")
            let id = try #require((client.state["user"] as? [String: Any])?["id"] as? Int)
            // What a user who exists gets: the event applies (or, for `nonsense`, is refused).
            var twin = try await AccountSecurityTests.signedIn(server.port, email: "gone\(index)@example.com")
            let applied = try await twin.send(next.name, next.payload)
            #expect(applied.status == (next.name == "nonsense" ? 422 : 200), "\(next.name)")

            try StoredData.open(server.databasePath).run("DELETE FROM users WHERE id = ?1", [.int(id)])
            let token = client.token
            try Journey.expect200(try await client.send(next.name, next.payload))
            #expect(client.topScreen.name == "firstRun", "\(next.name)")
            #expect(client.state["user"] is NSNull, "\(next.name)")
            #expect(client.token != token, "\(next.name)")
            // The gone user's session acts as nobody from then on.
            try Journey.expect200(try await client.send("logIn"))
        }
    }

    /// A signed-in event whose flow reads nothing runs without a connection: the user check costs
    /// it no read (with a `userExists` closure it ran on a reader, or on PostgreSQL's writer).
    @Test func aSignedInEventThatReadsNothingRunsWithoutAConnection() async throws {
        let server = try await ServerProcess.start(backend: .sqlite, arguments: ["--test-hooks"])
        var client = try await SessionClient.create(port: server.port)
        try await Journey.register(&client, email: "reader@example.com", displayName: "Reader")
        let before = try await Self.flowsWithoutConnection(server)
        try Journey.expect200(try await client.send("compose"))
        #expect(try await Self.flowsWithoutConnection(server) == before + 1)
        #expect(client.topScreen.name == "compose")
    }

    static func flowsWithoutConnection(_ server: ServerProcess) async throws -> Int {
        let text = try await TestHTTP.request(port: server.port, "GET", "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(#"coordinatord_event_flows_total{connection="none"} "#) }
        return Int(Double(line?.split(separator: " ").last ?? "") ?? 0)
    }
}
