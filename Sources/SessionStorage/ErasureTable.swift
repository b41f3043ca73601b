import Store

/// A request to erase texts from every journal, as stored: where its scan has reached.
package struct ErasureRequest: Sendable {
    package let id: Int64
    /// The texts, as a JSON array.
    package let texts: String
    /// The last journal entry scanned.
    package let scannedTo: Int64
}

// The `journal_erasures` table, and the journal's columns an erasure clears.
extension SessionPersistence {
    /// Writes a request to erase `texts` (a JSON array), on the connection of the event that asked.
    package func requestErasure(texts: String, now: Int64, on connection: any SQLConnection) throws {
        try connection.run(
            "INSERT INTO journal_erasures (texts, requested_at) VALUES (?1, ?2)", [.text(texts), .integer(now)])
    }

    /// The oldest request waiting, if any.
    package func oldestErasure(on connection: any SQLConnection) throws -> ErasureRequest? {
        try connection.queryFirst("SELECT id, texts, scanned_to FROM journal_erasures ORDER BY id LIMIT 1", []) {
            ErasureRequest(id: $0.int64(0), texts: $0.string(1), scannedTo: $0.int64(2))
        }
    }

    /// Up to `limit` journal entries after entry `after`, by id: their payload and snapshot.
    package func journalEntries(after: Int64, limit: Int, on connection: any SQLConnection) throws
        -> [(id: Int64, payload: String, snapshot: [UInt8]?)]
    {
        try connection.query(
            "SELECT id, payload, snapshot FROM session_journal WHERE id > ?1 ORDER BY id LIMIT ?2",
            [.integer(after), .int(limit)]
        ) { row in (id: row.int64(0), payload: row.string(1), snapshot: row.isNull(2) ? nil : row.blob(2)) }
    }

    /// Drops entry `id`'s snapshot: its State is no longer retained.
    package func dropJournalSnapshot(entry id: Int64, on connection: any SQLConnection) throws {
        try connection.run("UPDATE session_journal SET snapshot = NULL WHERE id = ?1", [.integer(id)])
    }

    /// Replaces entry `id`'s payload with nothing, marked `(erased)`.
    package func eraseJournalPayload(entry id: Int64, on connection: any SQLConnection) throws {
        try connection.run(
            "UPDATE session_journal SET payload = '{}', redacted = '[\"(erased)\"]' WHERE id = ?1", [.integer(id)])
    }

    /// Notes that request `id` has scanned up to entry `entry`, or ends it (`entry` nil).
    package func advanceErasure(id: Int64, to entry: Int64?, on connection: any SQLConnection) throws {
        if let entry {
            try connection.run("UPDATE journal_erasures SET scanned_to = ?2 WHERE id = ?1", [.integer(id), .integer(entry)])
        } else {
            try connection.run("DELETE FROM journal_erasures WHERE id = ?1", [.integer(id)])
        }
    }

    /// True when an erasure waits.
    package func erasurePending(on connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM journal_erasures LIMIT 1", []) { $0.int(0) } != nil
    }
}
