import AccountProtection
import Store

/// A stored user.
struct UserRecord: Sendable {
    let id: Int64
    let email: String
    let passwordHash: String
    let displayName: String
}

/// Users, on the connection the event runs on (so changes commit with the snapshot).
/// Ids are never reused (migration 0007); e-mails are compared by `EmailAddress.key`, and stored
/// keys are brought up to date before an address is looked up or added (`EmailKeyUpgrade`).
/// Display names are read trimmed to `Rules.displayName`: one stored before that limit must not
/// fill the screens of everyone who sees it.
struct UserStore {
    let connection: any SQLConnection

    // A valid name has at most 200 bytes, so at most 200 code points; SQL reads one more, so a
    // longer one is still seen to be cut.
    private static let select = "SELECT id, email, password_hash, substr(display_name, 1, 201) FROM users"

    func find(email: String) throws -> UserRecord? {
        try EmailKeyUpgrade.run(on: connection)
        return try connection.queryFirst(Self.select + " WHERE email_key = ?1", [.text(EmailAddress.key(email))], Self.record)
    }

    func find(id: Int64) throws -> UserRecord? {
        try connection.queryFirst(Self.select + " WHERE id = ?1", [.integer(id)], Self.record)
    }

    func exists(email: String) throws -> Bool { try find(email: email) != nil }

    /// Creates a user; nil when the e-mail is taken (compared by `EmailAddress.key`), also when
    /// another session registers it at the same moment: the unique key decides, and the loser
    /// inserts nothing.
    func create(email: String, passwordHash: String, displayName: String, now: Int64) throws -> UserRecord? {
        try EmailKeyUpgrade.run(on: connection)
        let id = try connection.queryFirst(
            """
            INSERT INTO users (email, email_key, password_hash, display_name, created_at)
            VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (email_key) DO NOTHING
            RETURNING id
            """,
            [.text(email), .text(EmailAddress.key(email)), .text(passwordHash), .text(displayName), .integer(now)]
        ) { $0.int64(0) }
        return id.map { UserRecord(id: $0, email: email, passwordHash: passwordHash, displayName: displayName) }
    }

    func update(id: Int64, displayName: String) throws {
        try connection.run("UPDATE users SET display_name = ?2 WHERE id = ?1", [.integer(id), .text(displayName)])
    }

    func update(id: Int64, passwordHash: String) throws {
        try connection.run("UPDATE users SET password_hash = ?2 WHERE id = ?1", [.integer(id), .text(passwordHash)])
    }

    /// Deletes the user; their posts go with them (ON DELETE CASCADE).
    func delete(id: Int64) throws {
        try connection.run("DELETE FROM users WHERE id = ?1", [.integer(id)])
    }

    private static func record(_ row: Row) -> UserRecord {
        UserRecord(
            id: row.int64(0), email: row.string(1), passwordHash: row.string(2),
            displayName: Rules.displayName.trimmed(row.string(3)))
    }
}
