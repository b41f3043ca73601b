import AccountProtection
import Foundation
import CoordinatorTesting
import Navigation
@testable import SampleApp
@testable import SignInKit
import SQLiteStore
import Store
import Testing

/// Migration 0007 upgrades a database made by the earlier migrations in place.
@Suite struct UserMigrationTests {
    @Test func anExistingDatabaseKeepsItsUsersAndNeverReusesADeletedId() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        // The schema as it was before migration 0007 (core 1, 2, 5 and the app's 3, 4).
        let earlier = try AppTester.sampleMigrations.filter { $0.scope != AccountProtection.scope && $0.scope != SignInKit.migrationScope && $0.version <= 5 }
        try Migrator(migrations: earlier.sorted { $0.version < $1.version })
            .migrate(connection)
        for (id, email) in [(1, "ada@example.com"), (2, "Bob@Example.com"), (3, "cy@example.com")] {
            try connection.run(
                "INSERT INTO users (id, email, password_hash, display_name, created_at) VALUES (?1, ?2, 'h', 'n', 0)",
                [.int(id), .text(email)])
        }
        try connection.run("INSERT INTO posts (author_id, text, created_at) VALUES (2, 'kept', 0)")
        // User 3 was deleted, but a session still names it.
        try connection.run("DELETE FROM users WHERE id = 3")
        try connection.run(
            """
            INSERT INTO sessions (id, token_hash, version, snapshot, user_id, created_at, last_used_at, expires_at)
            VALUES ('s', x'00', 1, x'00', 3, 0, 0, 0)
            """)

        try Migrator(migrations: AppTester.sampleMigrations).migrate(connection)
        let users = try connection.query("SELECT id, email, email_key FROM users ORDER BY id") {
            "\($0.int(0)) \($0.string(1)) \($0.string(2))"
        }
        #expect(users == ["1 ada@example.com ada@example.com", "2 Bob@Example.com bob@example.com"])
        #expect(try connection.queryFirst("SELECT count(*) FROM posts") { $0.int(0) } == 1)
        try connection.run(
            "INSERT INTO users (email, email_key, password_hash, display_name, created_at) VALUES ('d', 'd', 'h', 'n', 0)")
        #expect(connection.lastInsertRowID == 4)
        // The rename trigger came back with the table.
        let before = try connection.queryFirst("SELECT version FROM model_versions WHERE name = 'posts'") { $0.int(0) }
        try connection.run("UPDATE users SET display_name = 'Bobby' WHERE id = 2")
        let after = try connection.queryFirst("SELECT version FROM model_versions WHERE name = 'posts'") { $0.int(0) }
        #expect(after == before.map { $0 + 1 })
    }
}

/// Migration sqlite/0010 and `EmailKeyUpgrade`: keys stored by the earlier key function are
/// recomputed before the next look-up; accounts that now collide are settled safely.
@Suite struct EmailKeyMigrationTests {
    @Test func storedKeysAreRecomputedAndTheLaterLookAlikeIsParked() async throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try Migrator(migrations: AppTester.sampleMigrations.filter { $0.name != "email_key_upgrades" && $0.scope != SignInKit.migrationScope }).migrate(connection)
        let hash = try AppTester.passwordHasher.hash(AppTester.password)
        // Addresses and the keys the earlier function gave them.
        let users: [(Int, String, String)] = [
            (1, "\u{2C81}bc@example.com", "\u{2C81}bc@example.com"),  // Coptic ⲁ, older than abc@: parked
            (2, "abc@example.com", "abc@example.com"),
            (3, "ada@example.com", "ada@example.com"),
            (4, "\u{1D00}da@example.com", "\u{1D00}da@example.com"),  // small capital ᴀ: parked
            (5, "zo\u{00EB}@example.com", "zo\u{00EB}@example.com"),  // ë, now zoe@: taken by 6, parked
            (6, "\u{FF5A}\u{FF4F}\u{FF45}@example.com", "zoe@example.com"),  // fullwidth, its key stays
            (7, "ada\u{2800}@example.com", "ada\u{2800}@example.com"),  // a blank: parked
            (8, "\u{0299}ob@example.com", "\u{0299}ob@example.com"),  // small capital ʙ: now bob@
        ]
        for (id, email, key) in users {
            try connection.run(
                "INSERT INTO users (id, email, email_key, password_hash, display_name, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 0)",
                [.int(id), .text(email), .text(key), .text(hash), .text("user \(id)")])
        }
        try Migrator(migrations: AppTester.sampleMigrations).migrate(connection)
        #expect(try connection.queryFirst("SELECT count(*) FROM email_key_upgrades") { $0.int(0) } == 6)

        // The first look-up of an address brings every key up to date.
        for (email, id) in [
            ("abc@example.com", 2), ("\u{2C81}bc@example.com", 2), ("\u{1D00}da@example.com", 3), ("zoe@example.com", 6),
            ("zo\u{00EB}@example.com", 6), ("bob@example.com", 8), ("\u{0299}ob@example.com", 8),
        ] {
            var app = try await AppTester(AppTester.served(), database: connection)
            try await app.send(FirstRunScreen.self, .logIn)
            try await app.send(LoginScreen.self, .submit(Credentials(email: email, password: AppTester.password)))
            #expect(app.state["user"]?["id"] == .int(id), "\(email)")
        }
        let keys = try connection.query("SELECT id, email_key FROM users ORDER BY id") { ($0.int(0), $0.string(1)) }
        #expect(keys.map(\.0) == Array(1...8))
        #expect(keys.map(\.1) == [
            EmailKeyUpgrade.parkedKey(1, "abc@example.com"), "abc@example.com", "ada@example.com",
            EmailKeyUpgrade.parkedKey(4, "ada@example.com"), EmailKeyUpgrade.parkedKey(5, "zoe@example.com"), "zoe@example.com",
            EmailKeyUpgrade.parkedKey(7, "ada@example.com"), "bob@example.com",
        ])
        #expect(try connection.queryFirst("SELECT count(*) FROM email_key_upgrades") { $0.int(0) } == 0)
        // A parked account's address blocks no one and its key matches no address.
        #expect(try AccountStore(connection: connection).find(email: EmailKeyUpgrade.parkedKey(4, "ada@example.com")) == nil)
        var newcomer = try await AppTester(AppTester.served(), database: connection)
        try await newcomer.send(FirstRunScreen.self, .signUp)
        try await newcomer.send(SignUpEmailScreen.self, .next(EmailField(email: "\u{1D00}da@example.com")))
        #expect(newcomer.top.props["error"] == "This e-mail is already registered.")
    }
}
