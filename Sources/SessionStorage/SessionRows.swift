import Store

/// A session as stored: the snapshot of its tree and what authenticates and expires it.
package struct SessionRow: Sendable {
    package let id: String
    package let tokenHash: [UInt8]
    package let version: Int
    package let snapshot: [UInt8]
    package let expiresAt: Int64

    package init(id: String, tokenHash: [UInt8], version: Int, snapshot: [UInt8], expiresAt: Int64) {
        self.id = id
        self.tokenHash = tokenHash
        self.version = version
        self.snapshot = snapshot
        self.expiresAt = expiresAt
    }
}

/// What a session is signed in as: its token's hash and its user.
package struct SessionIdentity: Sendable, Equatable {
    package let tokenHash: [UInt8]
    package let userID: Int64?

    package init(tokenHash: [UInt8], userID: Int64?) {
        self.tokenHash = tokenHash
        self.userID = userID
    }
}

/// A stored session as a node checks its cache against it: the snapshot only when it changed.
package struct StoredHead: Sendable {
    package let tokenHash: [UInt8]
    package let version: Int
    package let expiresAt: Int64
    package let snapshot: [UInt8]?

    package init(tokenHash: [UInt8], version: Int, expiresAt: Int64, snapshot: [UInt8]?) {
        self.tokenHash = tokenHash
        self.version = version
        self.expiresAt = expiresAt
        self.snapshot = snapshot
    }
}

/// A live session of a user, as a directory lists it.
package struct UserSessionRow: Sendable {
    package let id: String
    package let createdAt: Int64
    package let lastUsedAt: Int64
}

/// The `sessions` table, in SQL that SQLite and PostgreSQL both accept; every statement prepared
/// with bound parameters.
extension SessionPersistence {
    package func insertSession(
        id: String, tokenHash: [UInt8], snapshot: [UInt8], userID: Int64?, now: Int64, expiresAt: Int64,
        on connection: any SQLConnection
    ) throws {
        try connection.run(
            """
            INSERT INTO sessions (id, token_hash, version, snapshot, user_id, created_at, last_used_at, expires_at, expires_hour)
            VALUES (?1, ?2, 1, ?3, ?4, ?5, ?5, ?6, ?6 / 3600)
            """, [.text(id), .blob(tokenHash), .blob(snapshot), userID.map { .integer($0) } ?? .null, .integer(now), .integer(expiresAt)])
    }

    /// Stores a new version if the stored one is still `expectedVersion`; false otherwise.
    package func updateSession(
        id: String, expectedVersion: Int, snapshot: [UInt8], identity: SessionIdentity?, now: Int64, expiresAt: Int64,
        previousExpiresAt: Int64, on connection: any SQLConnection
    ) throws -> Bool {
        try SessionRowUpdate.plain.run(
            connection, id: id, expectedVersion: expectedVersion, snapshot: snapshot, identity: identity, now: now,
            expiresAt: expiresAt, previousExpiresAt: previousExpiresAt)
    }

    package func loadSession(id: String, on connection: any SQLConnection) throws -> SessionRow? {
        try connection.queryFirst(
            "SELECT id, token_hash, version, snapshot, expires_at FROM sessions WHERE id = ?1", [.text(id)]
        ) { row in
            SessionRow(
                id: row.string(0), tokenHash: row.blob(1), version: row.int(2), snapshot: row.blob(3),
                expiresAt: row.int64(4))
        }
    }

    /// The stored versions of `ids` (at most `sessionVersionsBatch` at once); a session not stored is absent.
    package func sessionVersions(ids: [String], on connection: any SQLConnection) throws -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        let placeholders = ids.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        let rows = try connection.query(
            "SELECT id, version FROM sessions WHERE id IN (\(placeholders))", ids.map { .text($0) }
        ) { (id: $0.string(0), version: $0.int(1)) }
        return Dictionary(rows.map { ($0.id, $0.version) }) { first, _ in first }
    }

    /// Sessions whose versions one statement reads.
    package var sessionVersionsBatch: Int { 200 }

    /// What a node checks its cached copy of session `id` against: the stored token, version and
    /// expiry, and the snapshot only when the stored version is not `cachedVersion`.
    package func checkSession(id: String, cachedVersion: Int, on connection: any SQLConnection) throws -> StoredHead? {
        try connection.queryFirst(
            """
            SELECT token_hash, version, expires_at, CASE WHEN version = ?2 THEN NULL ELSE snapshot END
            FROM sessions WHERE id = ?1
            """, [.text(id), .int(cachedVersion)]
        ) { row in
            StoredHead(
                tokenHash: row.blob(0), version: row.int(1), expiresAt: row.int64(2),
                snapshot: row.isNull(3) ? nil : row.blob(3))
        }
    }

    /// The stored version of session `id`, nil when it is gone.
    package func sessionVersion(id: String, on connection: any SQLConnection) throws -> Int? {
        try connection.queryFirst("SELECT version FROM sessions WHERE id = ?1", [.text(id)]) { $0.int(0) }
    }

    /// The session whose token hashes to `tokenHash`, if any.
    package func sessionID(tokenHash: [UInt8], on connection: any SQLConnection) throws -> String? {
        try connection.queryFirst("SELECT id FROM sessions WHERE token_hash = ?1", [.blob(tokenHash)]) { $0.string(0) }
    }

    /// Deletes session `id` with its stored answers (its journal first: `deleteJournal`).
    package func deleteSession(id: String, on connection: any SQLConnection) throws {
        try connection.run("DELETE FROM idempotency_keys WHERE session_id = ?1", [.text(id)])
        try connection.run("DELETE FROM sessions WHERE id = ?1", [.text(id)])
    }

    /// Stores the expiry a read moved. Never moves it back: an event may have committed a later
    /// one since the read (the SET expressions all see the row as it was).
    package func touchSession(id: String, now: Int64, expiresAt: Int64, on connection: any SQLConnection) throws {
        try connection.run(
            """
            UPDATE sessions SET
                last_used_at = CASE WHEN last_used_at > ?2 THEN last_used_at ELSE ?2 END,
                expires_at = CASE WHEN expires_at > ?3 THEN expires_at ELSE ?3 END,
                expires_hour = (CASE WHEN expires_at > ?3 THEN expires_at ELSE ?3 END) / 3600
            WHERE id = ?1
            """,
            [.text(id), .integer(now), .integer(expiresAt)])
    }

    /// Deletes every session of `userID` but `except`, with their stored answers: their tokens die.
    package func deleteSessions(ofUser userID: Int64, except: String, on connection: any SQLConnection) throws {
        try connection.run(
            """
            DELETE FROM idempotency_keys
            WHERE session_id IN (SELECT id FROM sessions WHERE user_id = ?1 AND id <> ?2)
            """, [.integer(userID), .text(except)])
        _ = try deleteRows("DELETE FROM sessions WHERE user_id = ?1 AND id <> ?2", [.integer(userID), .text(except)], connection)
    }

    /// Runs `delete` (a `DELETE FROM sessions`); the journals of the sessions it ends stay
    /// readable for their retention (`keepJournalHeads`). Returns how many rows went.
    private func deleteRows(_ delete: String, _ values: [SQLValue], _ connection: any SQLConnection) throws -> Int {
        let rows = try connection.query(delete + " RETURNING id, journal_head", values) { row in
            (id: row.string(0), head: row.isNull(1) ? nil : row.int64(1))
        }
        try keepJournalHeads(of: rows, on: connection)
        return rows.count
    }

    /// Deletes up to `limit` expired sessions with their stored answers; returns how many
    /// sessions it deleted (fewer than `limit`: none are left). Bounded, so that a sweep of many
    /// sessions never holds the writer (or, on PostgreSQL, a transaction) for long.
    package func deleteExpiredSessions(now: Int64, limit: Int, on connection: any SQLConnection) throws -> Int {
        // The hour bound lets the index find the candidates; the exact second decides. Both
        // statements pick the same rows on SQLite (one writer, same plan); should they differ on
        // PostgreSQL, an answer left behind is deleted by age (`deleteAnswers`).
        try connection.run(
            """
            DELETE FROM idempotency_keys WHERE session_id IN
                (SELECT id FROM sessions WHERE expires_hour <= ?1 / 3600 AND expires_at < ?1 LIMIT ?2)
            """, [.integer(now), .int(limit)])
        // The outer condition is checked again on each row as it is deleted (PostgreSQL rechecks
        // it on a row another node just touched).
        return try deleteRows(
            """
            DELETE FROM sessions WHERE expires_at < ?1 AND id IN
                (SELECT id FROM sessions WHERE expires_hour <= ?1 / 3600 AND expires_at < ?1 LIMIT ?2)
            """, [.integer(now), .int(limit)], connection)
    }

    /// The live sessions of `userID` at `now`, most recently used first.
    package func sessions(ofUser userID: Int64, now: Int64, on connection: any SQLConnection) throws -> [UserSessionRow] {
        try connection.query(
            """
            SELECT id, created_at, last_used_at FROM sessions WHERE user_id = ?1 AND expires_at >= ?2
            ORDER BY last_used_at DESC
            """, [.integer(userID), .integer(now)]
        ) { UserSessionRow(id: $0.string(0), createdAt: $0.int64(1), lastUsedAt: $0.int64(2)) }
    }
}

/// The compare-and-set `UPDATE` of a session row in its forms, each text made once (built per
/// event, a text cost about as much as its statement, which the connection finds by it).
/// Indexed columns are assigned only when they change, because SQLite rewrites an index entry
/// whenever its column is assigned (and PostgreSQL then cannot update the row in place): the
/// token hash and user only with a new identity, the expiry hour only when the previous expiry
/// is in another hour. Most events write only the table's page.
package struct SessionRowUpdate: Sendable {
    /// The four texts, by form: the identity (bit 0), the expiry's hour (bit 1).
    private let texts: [String]

    /// The update, also assigning `extra` (SQL, e.g. a column a backend sets from its own state).
    package init(alsoAssigning extra: String? = nil) {
        texts = (0..<4).map { form in
            var sql = "UPDATE sessions SET version = version + 1, snapshot = ?3, last_used_at = ?4, expires_at = ?5"
            if form & 1 != 0 { sql += ", token_hash = ?6, user_id = ?7" }
            if form & 2 != 0 { sql += ", expires_hour = ?5 / 3600" }
            if let extra { sql += ", " + extra }
            return sql + " WHERE id = ?1 AND version = ?2"
        }
    }

    /// The update alone.
    package static let plain = SessionRowUpdate()

    /// Stores a new version if the stored one is still `expectedVersion`; false otherwise.
    package func run(
        _ connection: any SQLConnection, id: String, expectedVersion: Int, snapshot: [UInt8], identity: SessionIdentity?,
        now: Int64, expiresAt: Int64, previousExpiresAt: Int64
    ) throws -> Bool {
        let hourChanged = expiresAt / 3600 != previousExpiresAt / 3600
        var values: [SQLValue] = [.text(id), .int(expectedVersion), .blob(snapshot), .integer(now), .integer(expiresAt)]
        if let identity { values += [.blob(identity.tokenHash), identity.userID.map { .integer($0) } ?? .null] }
        let form = (identity == nil ? 0 : 1) | (hourChanged ? 2 : 0)
        return try connection.run(texts[form], values) == 1
    }
}
