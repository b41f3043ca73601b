import Foundation
import Store
import TestSupport
import Testing

/// Issue 19, item 1, on the real binary: one user's text cannot stop other users' sign-ins,
/// registrations or refreshes, however it got into the database, across a restart.
@Suite struct SharedContentTests {
    /// One character as a person counts it: 56,001 bytes.
    static let marks = "Z" + String(repeating: "\u{301}", count: 28_000)

    @Test(arguments: Backend.allCases) func anotherUsersTextNeverFillsASession(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var victim = try await SessionClient.create(port: server.port)
        try await Journey.register(&victim, email: "victim@example.com", displayName: "Victim")

        // Two accounts post one huge character each, and try it as their name: refused.
        for email in ["eve@example.com", "mallory@example.com"] {
            var attacker = try await SessionClient.create(port: server.port)
            try await Journey.register(&attacker, email: email, displayName: "Attacker")
            try Journey.expect200(try await attacker.send("compose"))
            let post = try await attacker.send("submit", ["text": Self.marks])
            #expect(post.status == 200)
            #expect(attacker.topScreen.name == "compose")
            #expect(attacker.topScreen.props["error"] as? String == "A post has 1 to 500 characters.")
        }
        let database = try StoredData.open(server.databasePath)
        #expect(try database.queryFirst("SELECT count(*) FROM posts") { $0.int(0) } == 0)

        // The same text stored anyway (before the limits, or behind the app's back): a name and
        // 30 posts of 56 KB each.
        let eve = try #require(try database.queryFirst("SELECT id FROM users WHERE email = 'eve@example.com'") { $0.int64(0) })
        try database.run("UPDATE users SET display_name = ?1 WHERE id = ?2", [.text(Self.marks), .integer(eve)])
        for index in 1...30 {
            try database.run(
                "INSERT INTO posts (author_id, text, created_at) VALUES (?1, ?2, ?3)",
                [.integer(eve), .text(index.isMultiple(of: 2) ? Self.marks : String(repeating: "w", count: 56_000)), .int(index)])
        }

        try await Self.expectOthersGoOn(port: server.port, victim: &victim, newcomer: "new@example.com")
        try await server.stop()
        let restarted = try await ServerProcess.start(databasePath: server.databasePath)
        var resumed = SessionClient(port: restarted.port, id: victim.id, token: victim.token, stateText: victim.stateText)
        try await Self.expectOthersGoOn(port: restarted.port, victim: &resumed, newcomer: "after@example.com")
    }

    /// The victim's session refreshes and loads older posts, a new device signs in, a newcomer
    /// registers; every State stays far below the state limit.
    static func expectOthersGoOn(port: UInt16, victim: inout SessionClient, newcomer: String) async throws {
        let refreshed = try await victim.send("refresh")
        #expect(refreshed.status == 200, "\(refreshed.text.prefix(300))")
        #expect(try await victim.send("loadMore").status == 200)
        #expect(victim.stateText.utf8.count < 64 * 1024)

        var device = try await SessionClient.create(port: port)
        let signIn = try await Journey.signIn(&device, email: "victim@example.com")
        #expect(signIn.status == 200, "\(signIn.text.prefix(300))")
        #expect(device.topScreen.name == "timeline")
        #expect(device.stateText.utf8.count < 32 * 1024)

        var registering = try await SessionClient.create(port: port)
        try await Journey.register(&registering, email: newcomer, displayName: "New")
        #expect(registering.topScreen.name == "timeline")
        try Journey.expect200(try await registering.send("openUser", ["userId": 2]))
        #expect(registering.topScreen.name == "user")
    }
}
