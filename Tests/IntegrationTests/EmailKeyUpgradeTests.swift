import Foundation
import Store
import TestSupport
import Testing

/// Issue 19, item 9, on the real binary and both stores: keys stored by an earlier build are
/// recomputed by the first look-up after the upgrade (migration sqlite/0010, postgresql/0004),
/// and an account whose address now looks like another's is parked, not merged.
@Suite struct EmailKeyUpgradeTests {
    @Test(arguments: Backend.allCases) func keysStoredByAnEarlierBuildAreRecomputed(backend: Backend) async throws {
        let server = try await ServerProcess.start(backend: backend)
        var ids: [String: Int] = [:]
        for email in ["ada@example.com", "smallcap@example.com", "coptic@example.com", "abc@example.com", "bob@example.com"] {
            var client = try await SessionClient.create(port: server.port)
            try await Journey.register(&client, email: email, displayName: "User")
            ids[email] = (client.state["user"] as? [String: Any])?["id"] as? Int
        }
        try await server.stop()

        // What an earlier build stored for look-alike addresses (its key left them apart), and
        // the schema as it was before the upgrade.
        let database = try StoredData.open(server.databasePath)
        for (old, email) in [
            ("smallcap@example.com", "\u{1D00}da@example.com"), ("coptic@example.com", "\u{2C81}bc@example.com"),
            ("bob@example.com", "\u{0299}ob@example.com"),
        ] {
            try database.run("UPDATE users SET email = ?1, email_key = ?1 WHERE email = ?2", [.text(email), .text(old)])
        }
        try database.run("DELETE FROM schema_migrations WHERE scope = 'sample' AND name = 'email_key_upgrades'")
        try database.run("DROP TABLE email_key_upgrades")

        // Six sign-ins at once from one address: more hashes than one client may run by default.
        let upgraded = try await ServerProcess.start(
            databasePath: server.databasePath, arguments: ["--hashes-per-client", "16"])
        let port = upgraded.port
        // Sign-ins at once, by every spelling: each lands on the account that keeps the key.
        let expected: [(String, Int?)] = [
            ("ada@example.com", ids["ada@example.com"]), ("\u{1D00}da@example.com", ids["ada@example.com"]),
            ("abc@example.com", ids["abc@example.com"]), ("\u{2C81}bc@example.com", ids["abc@example.com"]),
            ("bob@example.com", ids["bob@example.com"]), ("\u{0299}ob@example.com", ids["bob@example.com"]),
        ]
        let results = try await withThrowingTaskGroup(of: (String, Int, Int?).self) { group in
            for (email, _) in expected {
                group.addTask {
                    var client = try await SessionClient.create(port: port)
                    let answer = try await Journey.signIn(&client, email: email)
                    return (email, answer.status, (client.state["user"] as? [String: Any])?["id"] as? Int)
                }
            }
            return try await group.reduce(into: [String: (Int, Int?)]()) { $0[$1.0] = ($1.1, $1.2) }
        }
        for (email, id) in expected {
            #expect(results[email]?.0 == 200, "\(email)")
            #expect(results[email]?.1 == id, "\(email)")
        }

        let keys = try database.query("SELECT email, email_key FROM users ORDER BY id") { ($0.string(0), $0.string(1)) }
        let parked = keys.filter { $0.1.hasPrefix("\u{1}parked ") }.map(\.0)
        #expect(parked == ["\u{1D00}da@example.com", "\u{2C81}bc@example.com"])
        #expect(keys.first { $0.0 == "\u{0299}ob@example.com" }?.1 == "bob@example.com")
        #expect(try database.queryFirst("SELECT count(*) FROM email_key_upgrades") { $0.int(0) } == 0)

        var newcomer = try await SessionClient.create(port: port)
        try Journey.expect200(try await newcomer.send("signUp"))
        try Journey.expect200(try await newcomer.send("next", ["email": "\u{1D00}da@example.com"]))
        #expect(newcomer.topScreen.props["error"] as? String == "This e-mail is already registered.")
    }
}
