import Foundation
import SQLiteStore
import Store
import Testing

/// Migration 0007 upgrades a database made by the earlier migrations in place.
@Suite struct UserMigrationTests {
    @Test func anExistingDatabaseKeepsItsUsersAndNeverReusesADeletedId() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        // The schema as it was before migration 0007 (core 1, 2, 5 and the app's 3, 4).
        try Migrator(migrations: AppHarness.migrations.filter { $0.version <= 5 }.sorted { $0.version < $1.version })
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

        try Migrator(migrations: AppHarness.migrations).migrate(connection)
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
