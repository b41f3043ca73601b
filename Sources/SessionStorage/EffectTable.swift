import Store

/// An effect as the outbox stores it when an event asks for it.
package struct EffectRow: Sendable {
    /// Also its idempotency key.
    package let id: String
    package let session: String
    /// The coordinator that asked, then its ancestors, joined by commas.
    package let coordinators: String
    package let name: String
    /// The request, as JSON text.
    package let request: String
    /// The trace of the event that asked, as JSON text; nil for none.
    package let trace: String?

    package init(id: String, session: String, coordinators: String, name: String, request: String, trace: String?) {
        self.id = id
        self.session = session
        self.coordinators = coordinators
        self.name = name
        self.request = request
        self.trace = trace
    }
}

/// An effect a node leased to run, as stored.
package struct LeasedEffect: Sendable {
    package let id: String
    package let session: String
    package let coordinators: String
    package let name: String
    package let request: String
    /// This run's number: 1 for the first.
    package let attempt: Int
    package let trace: String?
}

/// How an effect ended.
package enum FinishedEffectState: String, Sendable {
    /// Its result became an event of the session.
    case delivered
    /// Nobody was left to tell: the session, or the coordinator that asked, was gone.
    case dropped
}

// The effects' outbox (migration 20): written with an event's commit, leased by the node that
// runs it, rescheduled after a failure, finished with the event that delivers its result.
extension SessionPersistence {
    /// Stores `effect`, due at `now` (on the connection of the event that asked for it).
    package func insertEffect(_ effect: EffectRow, now: Int64, on connection: any SQLConnection) throws {
        try connection.run(
            """
            INSERT INTO effects (id, session_id, coordinators, name, request, due_at, created_at, trace)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)
            """,
            [
                .text(effect.id), .text(effect.session), .text(effect.coordinators), .text(effect.name),
                .text(effect.request), .integer(now), effect.trace.map { .text($0) } ?? .null,
            ])
    }

    /// `claimDueEffects`, with `rowLock` (SQL) after the query that picks the rows.
    package func claimDueEffects(
        owner: String, now: Int64, leaseUntil: Int64, limit: Int, rowLock: String, on connection: any SQLConnection
    ) throws -> [LeasedEffect] {
        try connection.query(
            """
            UPDATE effects SET leased_by = ?1, lease_until = ?2, attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM effects WHERE state = 'pending' AND due_at <= ?3 AND lease_until <= ?3
                ORDER BY due_at LIMIT ?4\(rowLock))
            RETURNING id, session_id, coordinators, name, request, attempts, trace
            """,
            [.text(owner), .integer(leaseUntil), .integer(now), .int(limit)]
        ) { row in
            LeasedEffect(
                id: row.string(0), session: row.string(1), coordinators: row.string(2), name: row.string(3),
                request: row.string(4), attempt: row.int(5), trace: row.optionalString(6))
        }
    }

    /// Whether any effect is due and not leased: a read, so that a look that finds none (every
    /// `--effect-interval`, on every node) writes nothing.
    package func anyEffectDue(now: Int64, on connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM effects WHERE state = 'pending' AND due_at <= ?1 AND lease_until <= ?1 LIMIT 1",
            [.integer(now)]
        ) { _ in true } ?? false
    }

    /// Gives a failed run's effect back to be tried again at `dueAt`, if `owner` still holds it.
    package func rescheduleEffect(id: String, owner: String, dueAt: Int64, error: String, on connection: any SQLConnection)
        throws
    {
        _ = try connection.run(
            """
            UPDATE effects SET leased_by = NULL, lease_until = 0, due_at = ?3, last_error = ?4
            WHERE id = ?1 AND leased_by = ?2 AND state = 'pending'
            """,
            [.text(id), .text(owner), .integer(dueAt), .text(String(error.prefix(1_000)))])
    }

    /// Finishes the effect `id` as `state` with `outcome` (JSON text), if `owner` still holds it:
    /// true when it did (false: its lease ended and another node took it over, or finished it).
    package func finishEffect(
        id: String, owner: String, state: FinishedEffectState, outcome: String, now: Int64, on connection: any SQLConnection
    ) throws -> Bool {
        try connection.run(
            """
            UPDATE effects SET state = ?3, outcome = ?4, finished_at = ?5, leased_by = NULL, lease_until = 0
            WHERE id = ?1 AND leased_by = ?2 AND state = 'pending'
            """,
            [.text(id), .text(owner), .text(state.rawValue), .text(outcome), .integer(now)]) == 1
    }

    /// Ends every lease (a single node's store at its start: whoever held them died with the
    /// last process), so that what a killed server was running runs again at once.
    package func releaseEffectLeases(on connection: any SQLConnection) throws -> Int {
        try connection.run(
            "UPDATE effects SET leased_by = NULL, lease_until = 0 WHERE state = 'pending' AND leased_by IS NOT NULL", [])
    }

    /// Whether any pending effect is leased (a read: a start with none writes nothing).
    package func anyEffectLeased(on connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM effects WHERE state = 'pending' AND leased_by IS NOT NULL LIMIT 1", []) {
            _ in true
        } ?? false
    }

    /// Deletes up to `limit` effects finished before `before`; returns how many.
    package func deleteFinishedEffects(before: Int64, limit: Int, on connection: any SQLConnection) throws -> Int {
        try connection.run(
            """
            DELETE FROM effects WHERE id IN (
                SELECT id FROM effects WHERE state <> 'pending' AND finished_at < ?1 LIMIT ?2)
            """, [.integer(before), .int(limit)])
    }

    /// The effects pending now, by name (for `check-deploy` and `POST /test/effects`).
    package func pendingEffectsByName(on connection: any SQLConnection) throws -> [(name: String, count: Int)] {
        try connection.query("SELECT name, count(*) FROM effects WHERE state = 'pending' GROUP BY name", []) {
            (name: $0.string(0), count: $0.int(1))
        }
    }
}
