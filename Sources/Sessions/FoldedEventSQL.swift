import Store

/// On PostgreSQL, an event's own writes in one statement, one round trip instead of two to four:
/// the compare-and-set `UPDATE` of the session row, its journal entry (and, every
/// `JournalSQL.trimEvery` versions, the trim of the session's older entries), and for a request
/// with an `Idempotency-Key` its answer (and the trim of the session's older answers). A data-modifying
/// `WITH`: the entry is made from the row the `UPDATE` returned, so a version that moved on writes
/// nothing. It runs in the event's transaction like the statements it replaces, so the journal
/// commits with the state. (The notice to other nodes' streams follows the commit: `LiveNotice.send`.)
enum FoldedEventSQL {
    /// The journal entry to append with the update, as `JournalSQL.append` would (its columns and
    /// trim rule are `JournalSQL`'s: an entry gains a column in one place, and this statement then
    /// fails on PostgreSQL until it fills it too, instead of leaving it empty).
    struct Journaled {
        let record: JournalRecord
        let node: String
        let keep: Int
    }

    /// The answer to keep for replay, as `StoredAnswer.store` would: its column values
    /// (`StoredAnswer.values`) and how many of the session's answers to keep.
    struct Answered {
        let values: [SQLValue]
        let keep: Int
    }

    /// Stores a new version if the stored one is still `expectedVersion`, with `journal`'s entry
    /// made only then; false (and nothing written) otherwise.
    /// Columns are assigned as in `SessionSQL.update`. With `commit`, it is the last statement of
    /// the write and ends it (`SQLConnection.commitIfChanged`: with `COMMIT`, in one round trip).
    static func update(
        _ connection: any SQLConnection, id: String, expectedVersion: Int, snapshot: [UInt8], identity: SessionIdentity?,
        now: Int64, expiresAt: Int64, previousExpiresAt: Int64, journal: Journaled?, answer: Answered? = nil, commit: Bool
    ) throws -> Bool {
        var values: [SQLValue] = [.text(id), .int(expectedVersion), .blob(snapshot), .integer(now), .integer(expiresAt)]
        // The next parameter, bound to `value` (numbered in order: PostgreSQL infers each one's type).
        func parameter(_ value: SQLValue) -> String {
            values.append(value)
            return "?\(values.count)"
        }
        var assignments = "version = version + 1, snapshot = ?3, last_used_at = ?4, expires_at = ?5"
        if let identity {
            assignments += ", token_hash = \(parameter(.blob(identity.tokenHash)))"
            assignments += ", user_id = \(parameter(identity.userID.map { .integer($0) } ?? .null))"
        }
        if expiresAt / 3600 != previousExpiresAt / 3600 { assignments += ", expires_hour = ?5 / 3600" }
        var parts: [String] = []
        if journal != nil {
            // The entry's id is drawn first, so that the row can name it as its journal's head;
            // the row is locked to the commit, so that another node's replay entry chains onto this.
            parts.append("head AS (SELECT journal_head FROM sessions WHERE id = ?1 AND version = ?2 FOR UPDATE)")
            parts.append("entry AS (SELECT nextval(pg_get_serial_sequence('session_journal', 'id')) AS id FROM head)")
            assignments += ", journal_head = (SELECT id FROM entry)"
        }
        parts.append("updated AS (UPDATE sessions SET \(assignments) WHERE id = ?1 AND version = ?2 RETURNING version)")
        if let journal {
            let record = journal.record
            let user = parameter(record.user.map { .integer($0) } ?? .null)
            parts.append(
                """
                journaled AS (INSERT INTO session_journal (id, \(JournalSQL.columns)) OVERRIDING SYSTEM VALUE
                    SELECT entry.id, ?1, ?2, version, ?4, \(parameter(.text(journal.node))), \(parameter(.text(record.screen))),
                        \(parameter(.text(record.screenName))), \(parameter(.text(record.event))),
                        \(parameter(.text(record.payloadText))),
                        \(parameter(.text(record.redactedText))), 0,
                        \(parameter(.blob(record.snapshot ?? snapshot))), \(user)::bigint,
                        head.journal_head
                    FROM updated, entry, head)
                """)
            if record.user != nil {
                // As `JournalSQL.listUser`.
                parts.append(
                    """
                    listed AS (INSERT INTO journal_users (session_id, user_id) SELECT ?1, \(user)::bigint FROM updated
                        ON CONFLICT DO NOTHING)
                    """)
            }
            if let bound = JournalSQL.trimBound(after: record, keep: journal.keep) {
                // The statement's parts see the table as it was: the head is the previous entry.
                let trim = JournalSQL.trim(
                    bound: parameter(.int(bound)), head: "SELECT journal_head FROM head", when: "EXISTS (SELECT 1 FROM updated)")
                parts.append("trimmed AS (\(trim))")
            }
        }
        if let answer {
            let bound = answer.values.map { parameter($0) }.joined(separator: ", ")
            parts.append(
                "answered AS (INSERT INTO idempotency_keys (\(StoredAnswer.columns)) SELECT \(bound) FROM updated)")
            // The statement's parts all see the table as it was before it, without the new answer
            // (whose version is above all others): keeping `keep - 1` of those makes `keep`.
            parts.append(
                """
                answers_trimmed AS (DELETE FROM idempotency_keys WHERE session_id = ?1 AND EXISTS (SELECT 1 FROM updated)
                    AND session_version <= (SELECT session_version FROM idempotency_keys WHERE session_id = ?1
                        ORDER BY session_version DESC LIMIT 1 OFFSET \(parameter(.int(max(1, answer.keep) - 1)))))
                """)
        }
        // With `commit`, a version that moved on divides by zero: the transaction aborts, and the
        // `COMMIT` sent with it does nothing.
        let counted = commit ? "1 / (SELECT count(*) FROM updated)" : "(SELECT count(*) FROM updated)"
        // Data-modifying parts run whether or not the query reads them.
        let sql = "WITH " + parts.joined(separator: ",\n") + "\nSELECT " + counted
        if commit { return try connection.commitIfChanged(sql, values) }
        return try connection.queryFirst(sql, values) { $0.int(0) } == 1
    }
}
