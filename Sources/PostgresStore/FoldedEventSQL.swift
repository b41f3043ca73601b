import SessionStorage
import Store
import Synchronization

/// On PostgreSQL, an event's own writes in one statement, one round trip instead of two to four:
/// the compare-and-set `UPDATE` of the session row, its journal entry (and, every
/// `JournalShape.trimEvery` versions, the trim of the session's older entries), and for a request
/// with an `Idempotency-Key` its answer (and the trim of the session's older answers). A data-modifying
/// `WITH`: the entry is made from the row the `UPDATE` returned, so a version that moved on writes
/// nothing. It runs in the event's transaction like the statements it replaces, so the journal
/// commits with the state. (The notice to other nodes' streams follows the commit.)
enum FoldedEventSQL {
    /// Stores `write` if the stored version is still the one it was made from, with its entry
    /// made only then; false (and nothing written) otherwise, or when the user it confirms is
    /// gone (they are not told apart). Columns are assigned as in `SessionRowUpdate`. When it is
    /// the write's last statement, it ends the write (`SQLConnection.commitIfChanged`: with
    /// `COMMIT`, in one round trip, and with `BEGIN` too when it is the first). It then also stores
    /// a random token in the row (migration 18), by which a write whose answer was lost is told
    /// to have committed or not.
    static func update(_ write: EventWrite, _ connection: any SQLConnection) throws -> Bool {
        let statement = statement(write)
        if let check = statement.check { return try connection.commitIfChanged(statement.sql, statement.values, checkedBy: check) }
        return try connection.queryFirst(statement.sql, statement.values) { $0.int(0) } == 1
    }

    /// The statement of `write`, its values, and (when it ends the write) its check and its
    /// counting form.
    struct Statement {
        let sql: String
        let values: [SQLValue]
        /// Tells whether the write committed, should its answer be lost; nil unless it ends the write.
        let check: CommitCheck?
        /// The same statement (same values) whose first column is n, the rows it changed, rather
        /// than `1 / n`: it does not abort its transaction when the version moved on, so it can
        /// go in a group commit with other sessions' writes. Nil unless it ends the write.
        let counting: String?
        /// The random token it stores in the session's row when it ends the write (see `checkSQL`).
        let token: Int64?
    }

    static func statement(_ write: EventWrite) -> Statement {
        let commit = write.isLastStatement
        // The values in the order `makeText` numbers their parameters. Appended one by one into
        // room made once: each `+=` of a literal made an array of its own, and the sum grew twice.
        var values: [SQLValue] = []
        values.reserveCapacity(22 + (write.answer?.row.values.count ?? 0))
        values.append(.text(write.session))
        values.append(.int(write.expectedVersion))
        values.append(.blob(write.snapshot))
        values.append(.integer(write.now))
        values.append(.integer(write.expiresAt))
        // Only a write that commits here stores a token.
        let token = commit ? nextWriteToken() : nil
        if let token { values.append(.integer(token)) }
        if let identity = write.identity {
            values.append(.blob(identity.tokenHash))
            values.append(identity.userID.map { .integer($0) } ?? .null)
        }
        if let confirming = write.confirming { values.append(.integer(confirming.user)) }
        let trimBound = write.journal.flatMap { JournalShape.trimBound(after: $0.record, keep: $0.keep) }
        if let journal = write.journal {
            let record = journal.record
            values.append(record.user.map { .integer($0) } ?? .null)
            values.append(.text(journal.node))
            values.append(.text(record.screen))
            values.append(.text(record.screenName))
            values.append(.text(record.event))
            values.append(.text(record.payloadText))
            values.append(.text(record.redactedText))
            values.append(.blob(record.snapshot ?? write.snapshot))
            values.append(record.writesText.map { .text($0) } ?? .null)
            if let trimBound { values.append(.int(trimBound)) }
        }
        if let answer = write.answer {
            values.append(contentsOf: answer.row.values)
            values.append(.int(max(1, answer.keep) - 1))
        }
        let shape = Shape(
            identity: write.identity != nil, newExpiryHour: write.expiresAt / 3600 != write.previousExpiresAt / 3600,
            journal: write.journal != nil, listed: write.journal?.record.user != nil, trimmed: trimBound != nil,
            answerColumns: write.answer?.row.values.count, commit: commit, userTable: write.confirming?.table)
        let texts = texts(of: shape)
        guard let token else { return Statement(sql: texts.sql, values: values, check: nil, counting: nil, token: nil) }
        return Statement(
            sql: texts.sql, values: values,
            check: CommitCheck(sql: checkSQL, values: [.text(write.session), .integer(token), .int(write.expectedVersion)]),
            counting: texts.counting, token: token)
    }

    /// A token no other write of the session stores: a counter from a random start per process.
    /// Two processes collide only if their counters meet, as unlikely as two random draws matching
    /// while the first write's fate is asked, and no draw costs a `getrandom` call per event.
    private static func nextWriteToken() -> Int64 {
        writeTokens.wrappingAdd(1, ordering: .relaxed).newValue
    }

    private static let writeTokens = Atomic<Int64>(Int64.random(in: .min ... .max))

    /// Whether the write that stored token `?2` over version `?3` committed: 1 when the row holds
    /// the token (only that write stored it), 0 when the row is still at that version (no write
    /// over it committed), NULL when another write over it committed since and overwrote the token.
    static let checkSQL = "SELECT CASE WHEN write_token = ?2 THEN 1 WHEN version = ?3 THEN 0 END FROM sessions WHERE id = ?1"

    /// What the statement's text depends on: its parts and its parameters.
    struct Shape: Hashable {
        let identity: Bool
        let newExpiryHour: Bool
        let journal: Bool
        let listed: Bool
        let trimmed: Bool
        let answerColumns: Int?
        let commit: Bool
        /// With `commit`: a version that moved on aborts the transaction (`1 / n`); false gives the
        /// form that counts instead (`n`), which PostgreSQL's group commit sends with other writes.
        var aborts = true
        /// The app's table the signed-in user's row must be in, when it is checked here.
        let userTable: UserRows?
    }

    /// The texts of each shape, made once: built per event, they cost about a tenth of the event's
    /// instructions (and their lookup among the connection's prepared statements hashes them whole).
    private static let madeTexts = Mutex<[Shape: (sql: String, counting: String)]>([:])

    /// The statement of `shape`, and its counting form (`aborts` false). Both are found in one
    /// lookup: a write that ends its transaction sends one or the other.
    static func texts(of shape: Shape) -> (sql: String, counting: String) {
        if let texts = madeTexts.withLock({ $0[shape] }) { return texts }
        var counting = shape
        counting.aborts = false
        let texts = (sql: makeText(shape), counting: makeText(counting))
        madeTexts.withLock { $0[shape] = texts }
        return texts
    }

    /// The statement of `shape`; its parameters are numbered in the order `update` lists the values.
    private static func makeText(_ shape: Shape) -> String {
        var count = 5
        // The next parameter (PostgreSQL infers each one's type).
        func parameter() -> String {
            count += 1
            return "?\(count)"
        }
        var assignments = "version = version + 1, snapshot = ?3, last_used_at = ?4, expires_at = ?5"
        if shape.commit { assignments += ", write_token = \(parameter())" }
        if shape.identity {
            assignments += ", token_hash = \(parameter())"
            assignments += ", user_id = \(parameter())"
        }
        if shape.newExpiryHour { assignments += ", expires_hour = ?5 / 3600" }
        var parts: [String] = []
        var returned = "version"
        if shape.journal {
            // The new entry's id becomes the row's head, and the head it replaces is returned
            // through `previous_journal_head` (migration 17), which the update sets from the row as
            // it finds it: PostgreSQL 15's `RETURNING` gives only new values. An update that waited
            // for another node's replay entry of this session (which moves the head, not the
            // version) finds that entry there, and chains onto it; the row stays locked to the
            // commit. The sequence is named (migration 17): resolved when the statement is prepared.
            assignments += ", previous_journal_head = journal_head, journal_head = nextval('session_journal_id_seq')"
            returned += ", journal_head, previous_journal_head"
        }
        var condition = "id = ?1 AND version = ?2"
        if let table = shape.userTable {
            condition += " AND " + table.exists(parameter: parameter())
        }
        parts.append("updated AS (UPDATE sessions SET \(assignments) WHERE \(condition) RETURNING \(returned))")
        if shape.journal {
            let user = parameter()
            parts.append(
                """
                journaled AS (INSERT INTO session_journal (id, \(JournalSQL.columns)) OVERRIDING SYSTEM VALUE
                    SELECT journal_head, ?1, ?2, version, ?4, \(parameter()), \(parameter()), \(parameter()), \(parameter()),
                        \(parameter()), \(parameter()), 0, \(parameter()), \(user)::bigint, previous_journal_head,
                        \(parameter())
                    FROM updated)
                """)
            if shape.listed {
                // As `followJournalEntry` lists it.
                parts.append(
                    """
                    listed AS (INSERT INTO journal_users (session_id, user_id) SELECT ?1, \(user)::bigint FROM updated
                        ON CONFLICT DO NOTHING)
                    """)
            }
            if shape.trimmed {
                // The statement's parts see the table as it was: the head is the previous entry.
                let trim = JournalSQL.trim(
                    bound: parameter(), head: "SELECT previous_journal_head FROM updated",
                    when: "EXISTS (SELECT 1 FROM updated)")
                parts.append("trimmed AS (\(trim))")
            }
        }
        if let columns = shape.answerColumns {
            let bound = (0..<columns).map { _ in parameter() }.joined(separator: ", ")
            parts.append(
                "answered AS (INSERT INTO idempotency_keys (\(AnswerRow.columns)) SELECT \(bound) FROM updated)")
            // The statement's parts all see the table as it was before it, without the new answer
            // (whose version is above all others): keeping `keep - 1` of those makes `keep`.
            parts.append(
                """
                answers_trimmed AS (DELETE FROM idempotency_keys WHERE session_id = ?1 AND EXISTS (SELECT 1 FROM updated)
                    AND session_version <= (SELECT session_version FROM idempotency_keys WHERE session_id = ?1
                        ORDER BY session_version DESC LIMIT 1 OFFSET \(parameter())))
                """)
        }
        // With `commit`, a version that moved on divides by zero: the transaction aborts, and the
        // `COMMIT` sent with it does nothing. (In a group, each write's count tells it apart instead.)
        let counted = shape.commit && shape.aborts ? "1 / (SELECT count(*) FROM updated)" : "(SELECT count(*) FROM updated)"
        // Data-modifying parts run whether or not the query reads them.
        return "WITH " + parts.joined(separator: ",\n") + "\nSELECT " + counted
    }
}
