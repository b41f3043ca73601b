import Store

/// Recomputes stored e-mail keys after `EmailAddress.key` changed.
///
/// A key lives in SQL but is computed in Swift, so a migration can only list the users whose key
/// may have changed (`email_key_upgrades`, migration sqlite/0010 and postgresql/0004: every
/// address with a character outside printable ASCII; an ASCII address's key is its lower case,
/// before and after). `UserStore` runs this before it looks an address up or adds one, on the
/// event's connection, so no look-up ever compares a new key with an old one; once the table is
/// empty that costs one look at an empty table.
///
/// Two accounts whose addresses now have one key (`ada@` and `ᴀda@`, registered before look-alike
/// small capitals were mapped): the account whose key did not change keeps it (its owner signs in
/// as before); otherwise the older account keeps it. The other is parked: its key becomes one no
/// address has (`parkedKey`), so nobody signs in to it by any address and its address blocks
/// no one; its sessions, posts and row stay, for an operator to settle with its owner.
enum EmailKeyUpgrade {
    static func run(on connection: any SQLConnection) throws {
        // On PostgreSQL the first event to get here locks the rows; events on other nodes wait,
        // then find them gone.
        let lock = connection.dialect == .postgresql ? " FOR UPDATE" : ""
        let pending = try connection.query("SELECT user_id FROM email_key_upgrades ORDER BY user_id" + lock) { $0.int64(0) }
        guard !pending.isEmpty else { return }
        // First out of the way, so that no account still holding its old key can collide with a
        // new one; then each in turn, oldest first, against the keys already final.
        for id in pending {
            try connection.run(
                "UPDATE users SET email_key = ?2 WHERE id = ?1", [.integer(id), .text(placeholderKey(id))])
        }
        for id in pending {
            if let email = try connection.queryFirst("SELECT email FROM users WHERE id = ?1", [.integer(id)], { $0.string(0) }) {
                let key = EmailAddress.key(email)
                let taken = try connection.queryFirst(
                    "SELECT 1 FROM users WHERE email_key = ?1 AND id <> ?2", [.text(key), .integer(id)]) { _ in true } ?? false
                try connection.run(
                    "UPDATE users SET email_key = ?2 WHERE id = ?1", [.integer(id), .text(taken ? parkedKey(id, key) : key)])
            }
            try connection.run("DELETE FROM email_key_upgrades WHERE user_id = ?1", [.integer(id)])
        }
    }

    /// The key of a parked account: it starts with U+0001, which `EmailAddress.key` never
    /// returns (it drops control characters), so no address looks it up.
    static func parkedKey(_ id: Int64, _ key: String) -> String { "\u{1}parked \(id) \(key)" }

    private static func placeholderKey(_ id: Int64) -> String { "\u{1}upgrading \(id)" }
}
