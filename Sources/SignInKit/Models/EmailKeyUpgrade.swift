import AccountProtection
import Store

/// Recomputes stored e-mail keys after `EmailAddress.key` changed.
///
/// A key lives in SQL but is computed in Swift, so a migration can only list the users whose key
/// may have changed (`email_key_upgrades`, the sample app's migrations sqlite/0010 and postgresql/0004: every
/// address with a character outside printable ASCII; an ASCII address's key is its lower case,
/// before and after). `AccountStore` runs this before it looks an address up or adds one, on the
/// event's connection, so no look-up ever compares a new key with an old one; once the table is
/// empty that costs one look at an empty table.
///
/// Two accounts whose addresses now have one key (`ada@` and `ᴀda@`, registered before look-alike
/// small capitals were mapped): the account whose key did not change keeps it (its owner signs in
/// as before); otherwise the older account keeps it. The other is parked: its key becomes one no
/// address has (`parkedKey`), so nobody signs in to it by any address (its own spelling now leads
/// to the account that kept the key, whose password it needs); its sessions, its rows in the app's tables and its own stay,
/// for an operator to settle with its owner.
enum EmailKeyUpgrade {
    static func run(on connection: any SQLConnection) throws {
        // On PostgreSQL the first event to get here locks the rows; events on other nodes wait,
        // then find them gone.
        let lock = connection.dialect == .postgresql ? " FOR UPDATE OF e" : ""
        let pending = try connection.query(
            """
            SELECT e.user_id, u.email, u.email_key FROM email_key_upgrades e LEFT JOIN users u ON u.id = e.user_id
            ORDER BY e.user_id
            """ + lock
        ) { row in (id: row.int64(0), email: row.optionalString(1), key: row.optionalString(2)) }
        guard !pending.isEmpty else { return }
        let changed = pending.compactMap { user -> (id: Int64, key: String)? in
            guard let email = user.email else { return nil }
            let key = EmailAddress.key(email)
            return Array(key.utf8) == Array((user.key ?? "").utf8) ? nil : (user.id, key)
        }
        // The changed keys first out of the way, so that none collides with a key about to go;
        // then each in turn, oldest first, against the keys that stay.
        for user in changed {
            try connection.run("UPDATE users SET email_key = ?2 WHERE id = ?1", [.integer(user.id), .text(placeholderKey(user.id))])
        }
        for user in changed {
            let taken = try connection.queryFirst(
                "SELECT 1 FROM users WHERE email_key = ?1", [.text(user.key)]) { _ in true } ?? false
            try connection.run(
                "UPDATE users SET email_key = ?2 WHERE id = ?1",
                [.integer(user.id), .text(taken ? parkedKey(user.id, user.key) : user.key)])
        }
        for user in pending {
            try connection.run("DELETE FROM email_key_upgrades WHERE user_id = ?1", [.integer(user.id)])
        }
    }

    /// The key of a parked account: it starts with U+0001, which `EmailAddress.key` never
    /// returns (it drops control characters), so no address looks it up.
    static func parkedKey(_ id: Int64, _ key: String) -> String { "\u{1}parked \(id) \(key)" }

    private static func placeholderKey(_ id: Int64) -> String { "\u{1}upgrading \(id)" }
}
