import CoordinatorJSON
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

    /// A commit's notice, leased on its session (as `notice(_:ifLeased:now:on:)` sends it), to be
    /// sent once the write that stores `token` in that session's row committed: for a group commit,
    /// which sends the notices of all its writes after `COMMIT`, whatever became of each.
    struct Pending: Sendable {
        let payload: String
        let session: String
        let now: Int64
        let token: Int64

        /// Sends it after the commit of `connection`'s write, as a write of its own does.
        func send(on connection: any SQLConnection) throws {
            try PostgresLiveNotices().notice(payload, ifLeased: session, now: now, on: connection)
        }
    }

    /// One statement that sends each of `notices` whose session is leased and whose write stored its
    /// token (so committed, and nothing later overwrote it); nil for none.
    static func statement(sending notices: [Pending]) -> (sql: String, values: [SQLValue])? {
        guard !notices.isEmpty else { return nil }
        return (
            sendingPending,
            [
                .text(PostgresLiveNotices().channel), .text(arrayLiteral(notices) { $0.payload }),
                .text(arrayLiteral(notices) { $0.session }), .text(arrayLiteral(notices) { $0.now }),
                .text(arrayLiteral(notices) { $0.token }),
            ]
        )
    }

    // Gated on any lease at all (a one-time filter PostgreSQL checks first): most groups commit
    // while no stream is open anywhere, and then the joins do not run, nor, in the generic plan a
    // prepared statement settles on after its first runs, is an array parsed (they are texts cast
    // where they are used). Checked after the commit, like the join, so a lease taken before it is seen.
    private static let sendingPending = """
        SELECT pg_notify(?1, n.payload)
        FROM unnest(CAST(?2::text AS text[]), CAST(?3::text AS text[]), CAST(?4::text AS bigint[]),
            CAST(?5::text AS bigint[])) AS n (payload, session, now, token)
        JOIN live_watches w ON w.session_id = n.session AND w.watched_until >= n.now
        JOIN sessions s ON s.id = n.session AND s.write_token = n.token
        WHERE EXISTS (SELECT FROM live_watches)
        """

    /// PostgreSQL's text form of the array of each notice's `element`, each quoted. (Built as
    /// bytes, each text copied whole unless it holds a quote or a backslash: Foundation's
    /// `replacingOccurrences` cost a third of an event's instructions here, and a copy byte by
    /// byte most of this statement's.)
    private static func arrayLiteral(_ notices: [Pending], _ element: (Pending) -> String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(notices.reduce(2) { $0 + element($1).utf8.count + 3 })
        for (index, notice) in notices.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            element(notice).withUTF8Bytes { utf8 in
                let escaped = { (byte: UInt8) in byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }
                guard utf8.contains(where: escaped) else { return bytes.append(contentsOf: utf8) }
                for byte in utf8 {
                    if escaped(byte) { bytes.append(UInt8(ascii: "\\")) }
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text form of the array of each notice's integer `element` (digits need no quotes),
    /// built as bytes too: a `String` per number, joined, cost more than the rest of the statement.
    private static func arrayLiteral(_ notices: [Pending], _ element: (Pending) -> Int64) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(notices.count * 21 + 2)
        for (index, notice) in notices.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.appendDecimal(Int(element(notice)))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
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
