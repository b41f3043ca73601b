import Store

/// A node's lease on a session it streams live, on a shared store (`live_watches`).
///
/// A commit tells the other nodes about a new version (`LiveNotice.send`) only while some node
/// holds a lease on the session: a notice costs PostgreSQL a database-wide lock through the
/// commit's WAL flush and every listening node a wake-up, and most sessions have no stream open
/// anywhere. A node takes the lease before its first stream of a session reads the session, and
/// the notice is checked after the commit, so either the check sees the lease or that read sees
/// the commit: no version is missed. Leases are renewed with every heartbeat and sweep while the
/// session's streams stay open, and deleted by the sweep once long ended.
///
/// A lease runs on the clock of the node that took it and is checked on the clock of the node that
/// commits: their clocks may differ by up to `renewWithin` less a heartbeat.
enum LiveLease {
    /// How long a lease lasts, in seconds.
    static let seconds: Int64 = 600
    /// A lease is renewed once less than this is left.
    static let renewWithin: Int64 = 300
    /// Sessions per renewing statement.
    static let batchSize = 500

    /// Takes, or extends, the leases of those of `sessionIDs` still stored, until `until` (a later
    /// end stays).
    static func take(_ connection: any SQLConnection, sessionIDs: [String], until: Int64) throws {
        // Session ids are the server's base64url: no comma, so the list travels as one parameter.
        let ids = sessionIDs.filter { !$0.contains(",") }
        guard !ids.isEmpty else { return }
        _ = try connection.run(takeStored, [.text(ids.joined(separator: ",")), .integer(until)])
    }

    /// Takes, or extends, the lease of session `sessionID` for a stream that opens with the token
    /// of `tokenHash`; false, and nothing written, for another token or no such session (the
    /// stream is then refused): a request that does not authenticate leaves nothing behind.
    static func take(_ connection: any SQLConnection, sessionID: String, tokenHash: [UInt8], until: Int64) throws -> Bool {
        try connection.run(takeWithToken, [.text(sessionID), .integer(until), .blob(tokenHash)]) > 0
    }

    private static func take(from rows: String) -> String {
        """
        INSERT INTO live_watches (session_id, watched_until)
        SELECT id, ?2::bigint FROM \(rows)
        ON CONFLICT (session_id) DO UPDATE SET watched_until = GREATEST(live_watches.watched_until, excluded.watched_until)
        """
    }
    private static let takeStored = take(from: "sessions WHERE id = ANY(string_to_array(?1::text, ','))")
    private static let takeWithToken = take(from: "sessions WHERE id = ?1 AND token_hash = ?3")

    /// Deletes at most `limit` leases that ended before `before`; returns how many.
    static func deleteEnded(_ connection: any SQLConnection, before: Int64, limit: Int) throws -> Int {
        try connection.run(
            """
            DELETE FROM live_watches WHERE session_id IN
                (SELECT session_id FROM live_watches WHERE watched_until < ?1 LIMIT ?2)
            """, [.integer(before), .int(limit)])
    }

    /// A notice of session ?3's commit on channel ?1 with payload ?2, sent only when a lease on
    /// it lasts at ?4 (now).
    static let noticeIfLeased =
        "SELECT pg_notify(?1, ?2) FROM live_watches WHERE session_id = ?3 AND watched_until >= ?4"
}
