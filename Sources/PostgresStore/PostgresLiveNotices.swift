import SessionStorage
import Store

/// Leases on streamed sessions (`live_watches`) and `NOTIFY`s sent after a commit.
///
/// A notice is sent after the commit, with it, not in it: a `NOTIFY` in a transaction holds a
/// lock of the whole database through its commit's WAL flush, so notifying events would commit
/// one at a time (the bench measures it). A commit is told only while some node leases its
/// session: a notice costs every listening node a wake-up, and most sessions have no stream open
/// anywhere.
struct PostgresLiveNotices: LiveNoticePersistence {
    var channel: String { "coordinatord_live" }

    func notice(_ payload: String, ifLeased session: String?, now: Int64, on connection: any SQLConnection) throws {
        guard let session else { return try connection.runAfterCommit(Self.always, [.text(channel), .text(payload)]) }
        try connection.runAfterCommit(Self.ifLeased, [.text(channel), .text(payload), .text(session), .integer(now)])
    }

    private static let always = "SELECT pg_notify(?1, ?2)"
    private static let ifLeased = "SELECT pg_notify(?1, ?2) FROM live_watches WHERE session_id = ?3 AND watched_until >= ?4"
    private static let ifLeasedAndStored =
        ifLeased + " AND EXISTS (SELECT 1 FROM sessions WHERE id = ?3 AND write_token = ?5)"

    /// A notice `notice` queued, made to go only once the write that stored `token` in the row of
    /// the session it is leased on committed (for a group commit, which runs it after `COMMIT`
    /// whatever became of that write). Nil for any other statement, or a notice not leased on a session.
    static func onlyIfStored(_ statement: (sql: String, values: [SQLValue]), token: Int64) -> (sql: String, values: [SQLValue])? {
        guard statement.sql == ifLeased else { return nil }
        return (ifLeasedAndStored, statement.values + [.integer(token)])
    }

    func takeLeases(sessionIDs: [String], until: Int64, on connection: any SQLConnection) throws {
        // Session ids are the server's base64url: no comma, so the list travels as one parameter.
        let ids = sessionIDs.filter { !$0.contains(",") }
        guard !ids.isEmpty else { return }
        _ = try connection.run(Self.takeStored, [.text(ids.joined(separator: ",")), .integer(until)])
    }

    func takeLease(sessionID: String, tokenHash: [UInt8], until: Int64, on connection: any SQLConnection) throws -> Bool {
        try connection.run(Self.takeWithToken, [.text(sessionID), .integer(until), .blob(tokenHash)]) > 0
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

    func deleteEndedLeases(before: Int64, limit: Int, on connection: any SQLConnection) throws -> Int {
        try connection.run(
            """
            DELETE FROM live_watches WHERE session_id IN
                (SELECT session_id FROM live_watches WHERE watched_until < ?1 LIMIT ?2)
            """, [.integer(before), .int(limit)])
    }
}
