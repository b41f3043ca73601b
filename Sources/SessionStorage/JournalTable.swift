import Store

// The `session_journal` table and its companions (`journal_users`, `journal_heads`), in SQL that
// SQLite and PostgreSQL both accept.
//
// A session's entries form a chain, newest to oldest: each names its session's previous entry
// (`previous_id`), and the session's row names the newest (`sessions.journal_head`; once the
// row is gone, `journal_heads`). So an event writes its entry at the end of the table and a
// column of the row it rewrites anyway, instead of an index entry per event, whose leaf page
// lay anywhere in the file. Reads walk the chain from the head (a recursive query); every
// `JournalShape.trimEvery`-th version is indexed as an anchor (`session_journal_anchor`), where
// the trim and a lookup by version start instead. Entries of a session are only ever cut from
// the old end (the trim, the age sweep), so the chain from the head reaches every entry the
// session has.
extension SessionPersistence {
    /// Appends `record`, as its session's newest entry; every `trimEvery` versions also drops
    /// the session's versions older than its newest `keep`, so a session's journal stays bounded
    /// without a scan of the table. Nothing is appended for a session whose row is gone.
    /// `rowLock` (SQL after the query that finds the row) holds the row where another writer may
    /// append to the same session meanwhile.
    ///
    /// A replay changes nothing, so a client could replay answers forever: at most
    /// `replaysPerVersion` replays of a version, and `replaysBetweenEvents` in all, are journaled
    /// after an event.
    package func appendJournalEntry(
        _ record: JournalRecord, node: String, keep: Int, rowLock: String, on connection: any SQLConnection
    ) throws {
        let found = try connection.queryFirst(
            (record.replay ? JournalSQL.replaysSinceTheLastEvent : "SELECT 0, 0 FROM sessions WHERE id = ?1") + rowLock,
            record.replay ? [.text(record.session), .int(record.version)] : [.text(record.session)]
        ) { row in (replays: row.int(0), ofVersion: row.int(1)) }
        guard let found, found.replays < JournalShape.replaysBetweenEvents, found.ofVersion < JournalShape.replaysPerVersion
        else { return }
        guard let id = try insertJournalEntry(record, node: node, returningID: true, on: connection) else { return }
        try connection.run("UPDATE sessions SET journal_head = ?2 WHERE id = ?1", [.text(record.session), .integer(id)])
        try followJournalEntry(record, keep: keep, on: connection)
    }

    /// Appends `record`'s entry after its session's newest, leaving the row to name it (an append,
    /// or an event's own update of the row); with `returningID`, returns its id. Without, the
    /// caller names it (SQLite's `last_insert_rowid()`: `RETURNING` costs SQLite a temporary table
    /// per statement).
    @discardableResult
    package func insertJournalEntry(
        _ record: JournalRecord, node: String, returningID: Bool, on connection: any SQLConnection
    ) throws -> Int64? {
        let values: [SQLValue] = [
            .text(record.session), .int(record.versionBefore), .int(record.version), .integer(record.at), .text(node),
            .text(record.screen), .text(record.screenName), .text(record.event), .text(record.payloadText),
            .text(record.redactedText), .int(record.replay ? 1 : 0),
            record.snapshot.map { .blob($0) } ?? .null, record.user.map { .integer($0) } ?? .null,
            record.writesText.map { .text($0) } ?? .null,
        ]
        guard returningID else {
            try connection.run(JournalSQL.insert, values)
            return nil
        }
        return try connection.queryFirst(JournalSQL.insertReturningID, values) { $0.int64(0) }
    }

    /// What follows an entry once its row names it: its user's listing (unless the session is
    /// known to be `listed` already), and every `trimEvery` versions the trim to the newest `keep`.
    package func followJournalEntry(
        _ record: JournalRecord, keep: Int, listed: Bool = false, on connection: any SQLConnection
    ) throws {
        if let user = record.user, !listed { try connection.run(JournalSQL.listUser, [.text(record.session), .integer(user)]) }
        if let bound = JournalShape.trimBound(after: record, keep: keep) {
            try connection.run(
                JournalSQL.trim(bound: "?2", head: JournalSQL.rowHead), [.text(record.session), .int(bound)])
        }
    }

    /// Up to `limit` entries of `session`, newest first, older than the entry `before` if given
    /// (a cursor of this session; another session's is no entry).
    package func journalPage(session: String, before: Int64?, limit: Int, on connection: any SQLConnection) throws
        -> [JournalEntryRow]
    {
        let start =
            before == nil ? JournalSQL.head : "SELECT previous_id FROM session_journal WHERE id = ?2 AND session_id = ?1"
        return try connection.query(
            JournalSQL.walk(from: start, while: "walk.step < ?3")
                + """
                 SELECT e.id, e.version_before, e.version, e.at, e.node, e.screen, e.screen_name, e.event, e.payload,
                        e.redacted, e.replay, CASE WHEN e.snapshot IS NULL THEN 0 ELSE 1 END
                FROM walk JOIN session_journal e ON e.id = walk.id ORDER BY walk.step
                """, [.text(session), .integer(before ?? 0), .int(limit)]
        ) { row in
            JournalEntryRow(
                id: row.int64(0), versionBefore: row.int(1), version: row.int(2), at: row.int64(3), node: row.string(4),
                screen: row.string(5), screenName: row.string(6), event: row.string(7), payloadText: row.string(8),
                redactedText: row.string(9), replay: row.int(10) == 1, hasSnapshot: row.int(11) == 1)
        }
    }

    /// The newest version of `session` recorded under a principal other than `user` (nil for
    /// signed out): where the current principal's history begins (0 when it is all theirs). An
    /// entry names the user signed in after its event, or before it for a sign-out; replays name
    /// no one and are not counted.
    ///
    /// Walked down the session's chain from its head (by primary key: the journal has no index by
    /// session), on past an entry only while it is a replay or the current principal's, so the
    /// read costs the current principal's entries and one more.
    package func principalBegan(session: String, user: Int64?, on connection: any SQLConnection) throws -> Int {
        let same = "(SELECT user_id FROM session_journal WHERE id = walk.id) IS NOT DISTINCT FROM ?2"
        return try connection.queryFirst(
            JournalSQL.walk(from: JournalSQL.head, while: "walk.replay = 1 OR \(same)")
                + """
                 SELECT coalesce(max(e.version), 0) FROM walk JOIN session_journal e ON e.id = walk.id
                WHERE e.replay = 0 AND e.user_id IS DISTINCT FROM ?2
                """, [.text(session), user.map { .integer($0) } ?? .null]
        ) { $0.int(0) } ?? 0
    }

    /// The stored snapshots `session` had from the last one kept in full before `version` up to
    /// it, in version order: walked to from the nearest anchor at or above it, or from the head,
    /// at most `trimEvery` versions back.
    package func journalSnapshots(session: String, upTo version: Int, on connection: any SQLConnection) throws
        -> [(version: Int, snapshot: [UInt8])]
    {
        let start = "coalesce((\(JournalSQL.oldestAnchor(where: "version >= ?2"))), \(JournalSQL.head))"
        return try connection.query(
            JournalSQL.walk(from: start, while: "walk.version > ?2 - \(JournalShape.trimEvery) OR walk.replay = 1")
                + """
                 SELECT walk.version, e.snapshot FROM walk JOIN session_journal e ON e.id = walk.id
                WHERE walk.version <= ?2 AND walk.replay = 0 AND e.snapshot IS NOT NULL ORDER BY walk.version
                """, [.text(session), .int(version)]
        ) { (version: $0.int(0), snapshot: $0.blob(1)) }
    }

    /// Deletes the whole journal of every session user `id` was signed in to (an account
    /// deleted); `willDeleteListings` hears of it first.
    package func forgetJournals(ofUser id: Int64, willDeleteListings: () -> Void, on connection: any SQLConnection) throws {
        let sessions = try connection.query(
            "SELECT session_id FROM journal_users WHERE user_id = ?1", [.integer(id)]) { $0.string(0) }
        for session in sessions { try deleteJournal(session: session, willDeleteListings: willDeleteListings, on: connection) }
    }

    /// Deletes session `id`'s journal (the session was deleted, or a user it named), its listings
    /// among them (`willDeleteListings` hears of it first), and its finished effects (their
    /// requests and results are part of what it showed; pending ones still run once, as
    /// promised). Call it before deleting the session's row, which names the newest entry.
    package func deleteJournal(session id: String, willDeleteListings: () -> Void, on connection: any SQLConnection) throws {
        willDeleteListings()
        try connection.run("DELETE FROM effects WHERE session_id = ?1 AND state <> 'pending'", [.text(id)])
        try connection.run(
            "DELETE FROM session_journal WHERE id IN (\(JournalSQL.walk(from: JournalSQL.head)) SELECT id FROM walk)", [.text(id)])
        try connection.run("UPDATE sessions SET journal_head = NULL WHERE id = ?1", [.text(id)])
        try connection.run("DELETE FROM journal_heads WHERE session_id = ?1", [.text(id)])
        try connection.run("DELETE FROM journal_users WHERE session_id = ?1", [.text(id)])
    }

    /// Keeps the heads of session rows about to go (`id`, `journal_head` of each), so that their
    /// journal stays readable for its retention. A session no one ever signed in to keeps no
    /// journal past its life: its entries go with its row, so that what anonymous clients can
    /// store is bounded by the sessions they may hold, not by the retention period.
    func keepJournalHeads(of rows: [(id: String, head: Int64?)], on connection: any SQLConnection) throws {
        for row in rows {
            guard let head = row.head else { continue }
            let signedIn = try connection.queryFirst(
                "SELECT 1 FROM journal_users WHERE session_id = ?1 LIMIT 1", [.text(row.id)]) { $0.int(0) } != nil
            guard signedIn else {
                try connection.run(
                    "DELETE FROM session_journal WHERE id IN (\(JournalSQL.walk(from: "?1")) SELECT id FROM walk)",
                    [.integer(head)])
                continue
            }
            try connection.run(
                """
                INSERT INTO journal_heads (session_id, head) VALUES (?1, ?2)
                ON CONFLICT (session_id) DO UPDATE SET head = excluded.head
                """, [.text(row.id), .integer(head)])
        }
    }

    /// True when session `id` is stored or its journal outlived it (it ended since).
    package func journalKnows(session id: String, on connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst(
            """
            SELECT 1 FROM sessions WHERE id = ?1
            UNION ALL SELECT 1 FROM journal_heads WHERE session_id = ?1
            LIMIT 1
            """, [.text(id)]
        ) { $0.int(0) } != nil
    }

    /// Deletes entries written before `before` among the `limit` oldest; returns how many. The
    /// oldest entries come first by id, so the sweep walks the table from its start in bounded
    /// batches and stops at the first batch with anything younger. A session whose newest entry
    /// went has no journal left: it is no longer listed under its users (`willDeleteListings`
    /// hears of it first), nor known once ended.
    package func deleteOldJournalEntries(
        before: Int64, limit: Int, willDeleteListings: () -> Void, on connection: any SQLConnection
    ) throws -> Int {
        let sessions = try connection.query(
            """
            DELETE FROM session_journal WHERE at < ?1 AND id IN
                (SELECT id FROM session_journal ORDER BY id LIMIT ?2)
            RETURNING session_id
            """, [.integer(before), .int(limit)]
        ) { $0.string(0) }
        if !sessions.isEmpty { willDeleteListings() }
        for session in Set(sessions) {
            let gone = "NOT EXISTS (SELECT 1 FROM session_journal WHERE id = \(JournalSQL.head))"
            try connection.run("DELETE FROM journal_users WHERE session_id = ?1 AND \(gone)", [.text(session)])
            try connection.run("DELETE FROM journal_heads WHERE session_id = ?1 AND \(gone)", [.text(session)])
        }
        return sessions.count
    }

    /// The first entry of the chain from entry `head` that names itself or a newer one as the one
    /// before it (a damaged chain, which loops), if any.
    package func journalLoop(from head: Int64, on connection: any SQLConnection) throws -> (id: Int64, previous: Int64)? {
        try connection.queryFirst(
            JournalSQL.walk(from: "?1") + " SELECT id, previous_id FROM walk WHERE previous_id >= id LIMIT 1",
            [.integer(head)]
        ) { (id: $0.int64(0), previous: $0.int64(1)) }
    }

    /// The events of the chain from entry `head` that kept a snapshot, in version order.
    package func replayableEntries(from head: Int64, on connection: any SQLConnection) throws -> [ReplayableEntry] {
        try connection.query(
            JournalSQL.walk(from: "?1")
                + """
                 SELECT e.version_before, e.version, e.at, e.screen, e.event, e.payload, e.redacted, e.snapshot, e.writes
                FROM walk JOIN session_journal e ON e.id = walk.id
                WHERE walk.replay = 0 AND e.snapshot IS NOT NULL ORDER BY walk.version
                """, [.integer(head)]
        ) { row in
            ReplayableEntry(
                versionBefore: row.int(0), version: row.int(1), at: row.int64(2), screen: row.string(3),
                event: row.string(4), payloadText: row.string(5), redactedText: row.string(6), snapshot: row.blob(7),
                writesText: row.optionalString(8))
        }
    }

    /// Up to `limit` stored sessions with ids after `after`, in id order: their snapshot and newest entry.
    package func storedSessions(after: String, limit: Int, on connection: any SQLConnection) throws
        -> [(id: String, snapshot: [UInt8], head: Int64?)]
    {
        try connection.query(
            "SELECT id, snapshot, journal_head FROM sessions WHERE id > ?1 ORDER BY id LIMIT ?2",
            [.text(after), .int(limit)]
        ) { (id: $0.string(0), snapshot: $0.blob(1), head: $0.isNull(2) ? nil : $0.int64(2)) }
    }
}

/// The journal's statement texts, made once: built per event, a text cost more than the
/// statement it names (which the connection finds by that text in its cache).
package enum JournalSQL {
    /// The columns an entry fills, in the order `insertJournalEntry` binds them; PostgreSQL's
    /// folded event write fills the same ones.
    package static let columns =
        "session_id, version_before, version, at, node, screen, screen_name, event, payload, redacted, replay, snapshot, user_id, previous_id, writes"

    static let insert = """
        INSERT INTO session_journal (\(columns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, (\(rowHead)), ?14)
        """
    static let insertReturningID = insert + " RETURNING id"

    /// Lists the session ?1 under user ?2, once: an event of a session already listed only reads
    /// the table's page, which the commit then leaves alone.
    static let listUser = "INSERT INTO journal_users (session_id, user_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING"

    /// The replays among session ?1's entries since its last event, and those of version ?2
    /// (no row: the session is gone).
    static let replaysSinceTheLastEvent =
        walk(from: rowHead, while: "walk.replay = 1 AND walk.step <= \(JournalShape.replaysBetweenEvents)")
        + """
         SELECT (SELECT coalesce(sum(replay), 0) FROM walk),
            (SELECT coalesce(sum(CASE WHEN version = ?2 THEN replay ELSE 0 END), 0) FROM walk)
        FROM sessions WHERE id = ?1
        """

    /// Deletes session ?1's entries at or below version `bound` (SQL), if `condition` holds. The
    /// walk starts at the oldest anchor above the bound (or at `head`, SQL naming an entry, when
    /// there is none yet) and ends where the last trim cut: about `trimEvery` entries.
    package static func trim(bound: String, head: String, when condition: String = "1 = 1") -> String {
        let anchor = "coalesce((\(oldestAnchor(where: "version > \(bound)"))), (\(head)))"
        return """
            DELETE FROM session_journal
            WHERE id IN (\(walk(from: anchor)) SELECT id FROM walk WHERE version <= \(bound)) AND \(condition)
            """
    }

    /// The id of session ?1's oldest anchor (an entry `session_journal_anchor` indexes, every
    /// `trimEvery`-th version) whose version meets `condition` (SQL); no row when there is none.
    static func oldestAnchor(where condition: String) -> String {
        """
        SELECT id FROM session_journal WHERE session_id = ?1 AND version % 16 = 0 AND replay = 0 AND \(condition)
        ORDER BY version LIMIT 1
        """
    }

    /// Session ?1's newest entry as its row names it (none once the row is gone).
    static let rowHead = "SELECT journal_head FROM sessions WHERE id = ?1"

    /// Session ?1's newest entry: its row's head, or the head kept when the row went.
    static let head = "coalesce((\(rowHead)), (SELECT head FROM journal_heads WHERE session_id = ?1))"

    /// A recursive walk down a session's chain, as the table `walk(id, previous_id, version,
    /// replay, step)`: from the entry `start` (SQL naming an id; step 1) to older ones, on from
    /// an entry only while `more` (SQL over `walk`, that entry) holds. Ends where the chain was cut,
    /// and after `maxSteps` entries whatever: a damaged chain that loops (an entry naming itself or
    /// a newer one as the one before) must not keep a query running for ever. Each step goes to
    /// an older entry (a smaller id), so a walk of an intact chain never meets the bound's cut.
    static func walk(from start: String, while more: String = "1 = 1") -> String {
        """
        WITH RECURSIVE walk(id, previous_id, version, replay, step) AS (
            SELECT id, previous_id, version, replay, 1 FROM session_journal WHERE id = (\(start))
            UNION ALL
            SELECT j.id, j.previous_id, j.version, j.replay, walk.step + 1
            FROM walk JOIN session_journal j ON j.id = walk.previous_id
            WHERE j.id < walk.id AND walk.step < \(JournalShape.maxSteps) AND (\(more)))
        """
    }
}
