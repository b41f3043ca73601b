import Store
import Secrets

/// Device credentials, OWASP's device cookies: a device that signs in to an account (or
/// registers it) gets a random token to keep (the answer's `deviceToken`) and sends it back with
/// later events (`Device-Token`). When it signs in to that account again, the sign-in throttle
/// judges it on the credential's own failures instead of the account's (`FailureThrottle`), so an
/// attack that locks the account out for unknown clients leaves the owner's devices in. Not
/// something an attacker can reach: it is given only to a client that proved the password, and a
/// credential of another account, a made-up one or a dead one counts as none.
///
/// Only the token's SHA-256 is stored (`device_credentials`), bound to the user. A credential
/// unused for `lifetimeSeconds` is dead (and swept); a user keeps their `perUser` most recently
/// used ones; a password change keeps only the changing device's (`revoke(ofUser:keeping:)`).
/// The table does not know the app's users: when the app deletes a user, it deletes the user's
/// credentials too (`revoke(ofUser:keeping: nil)`), unless its own schema cascades (the sample app's does).
public final class DeviceCredentials: Sendable {
    /// A credential presented by a client and found live for the account it tries.
    public struct Known: Sendable, Equatable {
        let tokenHash: [UInt8]
        /// What `FailureThrottle.check(account:client:device:now:on:)` counts its failures under.
        public var id: String { StoredKey.hex(tokenHash) }
    }

    /// Seconds a credential lives without being used.
    public let lifetimeSeconds: Int64
    /// Credentials one user keeps (the most recently used).
    public let perUser: Int
    private let sweeps = SweepSchedule()

    /// Credentials that die after `lifetimeSeconds` unused, `perUser` at most per user (each at least 1).
    public init(lifetimeSeconds: Int64 = 90 * 24 * 3600, perUser: Int = 20) {
        self.lifetimeSeconds = max(1, lifetimeSeconds)
        self.perUser = max(1, perUser)
    }

    /// The credential `token` when it is a live one of user `id`, else nil.
    public func credential(_ token: String?, ofUser id: Int64, now: Int64, on connection: any SQLConnection) throws -> Known? {
        // Tokens are 43 characters; anything far longer is not one and is not even hashed.
        guard let token, !token.isEmpty, token.utf8.count <= 256 else { return nil }
        let hash = Tokens.sha256(token)
        let live = try connection.queryFirst(
            "SELECT 1 FROM device_credentials WHERE token_hash = ?1 AND user_id = ?2 AND used_at > ?3",
            [.blob(hash), .integer(id), .integer(now - lifetimeSeconds)]) { _ in true }
        return live == true ? Known(tokenHash: hash) : nil
    }

    /// A new credential for user `id`; returns the token to give the device
    /// (`Context.giveDeviceToken`). The user's least recently used ones past `perUser` go.
    public func issue(toUser id: Int64, now: Int64, on connection: any SQLConnection) throws -> String {
        try sweep(now: now, on: connection)
        let token = Tokens.random()
        let hash = Tokens.sha256(token)
        try connection.run(
            "INSERT INTO device_credentials (token_hash, user_id, created_at, used_at) VALUES (?1, ?2, ?3, ?3)",
            [.blob(hash), .integer(id), .integer(now)])
        try connection.run(
            """
            DELETE FROM device_credentials WHERE user_id = ?1 AND token_hash <> ?2 AND token_hash NOT IN (
                SELECT token_hash FROM device_credentials WHERE user_id = ?1 AND token_hash <> ?2
                ORDER BY used_at DESC, created_at DESC LIMIT ?3)
            """, [.integer(id), .blob(hash), .int(perUser - 1)])
        return token
    }

    /// `known` signed in again now: its lifetime starts afresh.
    public func used(_ known: Known, now: Int64, on connection: any SQLConnection) throws {
        try connection.run(
            "UPDATE device_credentials SET used_at = ?2 WHERE token_hash = ?1", [.blob(known.tokenHash), .integer(now)])
    }

    /// Deletes every credential of user `id` but `kept` (after a password change: a device that
    /// proved the old password proves nothing now); with `kept` nil, all of them (the user is deleted).
    public func revoke(ofUser id: Int64, keeping kept: Known?, on connection: any SQLConnection) throws {
        try connection.run(
            "DELETE FROM device_credentials WHERE user_id = ?1 AND token_hash <> ?2",
            [.integer(id), .blob(kept?.tokenHash ?? [])])
    }

    /// Deletes dead credentials, at most once a minute.
    private func sweep(now: Int64, on connection: any SQLConnection) throws {
        guard sweeps.isDue(now: now) else { return }
        try connection.run("DELETE FROM device_credentials WHERE used_at <= ?1", [.integer(now - lifetimeSeconds)])
    }
}
