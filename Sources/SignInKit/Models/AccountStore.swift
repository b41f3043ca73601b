import AccountProtection
import Store

/// A stored account.
public struct AccountRecord: Sendable {
    public let id: Int64
    public let email: String
    public let passwordHash: String
    public let displayName: String
}

/// The accounts (the `users` table), on the connection the event runs on (so changes commit with the snapshot).
/// Ids are never reused (the table's `AUTOINCREMENT` or identity); e-mails are compared by `EmailAddress.key`, and stored
/// keys are brought up to date before an address is looked up or added (`EmailKeyUpgrade`).
/// Display names are read trimmed to `AccountRules.displayName`: one stored before that limit
/// must not fill the screens of everyone who sees it.
public struct AccountStore {
    let connection: any SQLConnection

    public init(connection: any SQLConnection) { self.connection = connection }

    // A valid name has at most 200 bytes, so at most 200 code points; SQL reads one more, so a
    // longer one is still seen to be cut.
    private static let select = "SELECT id, email, password_hash, substr(display_name, 1, 201) FROM users"

    public func find(email: String) throws -> AccountRecord? {
        try EmailKeyUpgrade.run(on: connection)
        return try lookUp(email: email)
    }

    /// The user with this e-mail's key as stored, without recomputing keys a past build stored
    /// (`find(email:)` does, and writes): for a read-only look-up, which may miss while keys wait
    /// for their upgrade.
    func lookUp(email: String) throws -> AccountRecord? {
        try connection.queryFirst(Self.select + " WHERE email_key = ?1", [.text(EmailAddress.key(email))], Self.record)
    }

    public func find(id: Int64) throws -> AccountRecord? {
        try connection.queryFirst(Self.select + " WHERE id = ?1", [.integer(id)], Self.record)
    }

    public func exists(email: String) throws -> Bool { try find(email: email) != nil }

    /// Creates a user; nil when the e-mail is taken (compared by `EmailAddress.key`), also when
    /// another session registers it at the same moment: the unique key decides, and the loser
    /// inserts nothing.
    public func create(email: String, passwordHash: String, displayName: String, now: Int64) throws -> AccountRecord? {
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
        return id.map { AccountRecord(id: $0, email: email, passwordHash: passwordHash, displayName: displayName) }
    }

    public func update(id: Int64, displayName: String) throws {
        try connection.run("UPDATE users SET display_name = ?2 WHERE id = ?1", [.integer(id), .text(displayName)])
    }

    public func update(id: Int64, passwordHash: String) throws {
        try connection.run("UPDATE users SET password_hash = ?2 WHERE id = ?1", [.integer(id), .text(passwordHash)])
    }

    /// Deletes the account (rows of the app's tables that reference it with `ON DELETE CASCADE` go with it).
    public func delete(id: Int64) throws {
        try connection.run("DELETE FROM users WHERE id = ?1", [.integer(id)])
    }

    private static func record(_ row: Row) -> AccountRecord {
        AccountRecord(
            id: row.int64(0), email: row.string(1), passwordHash: row.string(2),
            displayName: AccountRules.displayName.trimmed(row.string(3)))
    }
}
