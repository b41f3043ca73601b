import Navigation
import Secrets
import Store

/// An effect a node leased to run (`EffectSQL.claimDue`).
struct ClaimedEffect: Sendable {
    /// Also its idempotency key.
    let id: String
    let session: String
    /// The coordinator that asked, then its ancestors (`RequestedEffect.coordinators`).
    let coordinators: [CoordinatorID]
    let name: String
    let request: JSONValue
    /// This run's number: 1 for the first.
    let attempt: Int
    /// The trace of the event that asked (`Traced.carrier()`), which the run continues.
    let trace: [String: String]
}

/// The statements of the effects' outbox (migration 20): written with an event's commit, leased
/// by the node that runs it, rescheduled after a failure, finished with the event that delivers
/// its result.
enum EffectSQL {
    /// Stores `effects`, asked for by an event of `session` (on that event's connection): due now.
    /// Returns their ids.
    @discardableResult
    static func insert(
        _ effects: [RequestedEffect], session: String, trace: [String: String] = [:], _ connection: any SQLConnection, now: Int64
    ) throws -> [String] {
        let traceText: SQLValue =
            trace.isEmpty
            ? .null : .text(String(decoding: JSONValue.object(trace.mapValues(JSONValue.string)).serialized(), as: UTF8.self))
        return try effects.map { effect in
            let id = Tokens.random(bytes: 16)
            try connection.run(
                """
                INSERT INTO effects (id, session_id, coordinators, name, request, due_at, created_at, trace)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)
                """,
                [
                    .text(id), .text(session), .text(effect.coordinators.map(String.init).joined(separator: ",")),
                    .text(effect.name),
                    .text(String(decoding: effect.request.serialized(), as: UTF8.self)), .integer(now), traceText,
                ])
            return id
        }
    }

    /// Leases up to `limit` effects that are due and not leased (or whose lease ended: a node
    /// that died) to `owner` until `leaseUntil`, counting the run; returns them.
    static func claimDue(_ connection: any SQLConnection, owner: String, now: Int64, leaseUntil: Int64, limit: Int) throws
        -> [ClaimedEffect]
    {
        // PostgreSQL: rows another node is claiming at this moment are skipped, not waited for.
        let skipLocked = connection.dialect == .postgresql ? " FOR UPDATE SKIP LOCKED" : ""
        return try connection.query(
            """
            UPDATE effects SET leased_by = ?1, lease_until = ?2, attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM effects WHERE state = 'pending' AND due_at <= ?3 AND lease_until <= ?3
                ORDER BY due_at LIMIT ?4\(skipLocked))
            RETURNING id, session_id, coordinators, name, request, attempts, trace
            """,
            [.text(owner), .integer(leaseUntil), .integer(now), .int(limit)]
        ) { row in
            ClaimedEffect(
                id: row.string(0), session: row.string(1),
                coordinators: row.string(2).split(separator: ",").compactMap { Int($0) }, name: row.string(3),
                request: (try? JSONValue.parse(Array(row.string(4).utf8))) ?? .null, attempt: row.int(5),
                trace: row.optionalString(6).flatMap { try? JSONValue.parse(Array($0.utf8)).objectValue }?
                    .compactMapValues(\.stringValue) ?? [:])
        }
    }

    /// Whether any effect is due and not leased: a read, so that a look that finds none (every
    /// `--effect-interval`, on every node) writes nothing.
    static func anyDue(_ connection: any SQLConnection, now: Int64) throws -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM effects WHERE state = 'pending' AND due_at <= ?1 AND lease_until <= ?1 LIMIT 1",
            [.integer(now)]
        ) { _ in true } ?? false
    }

    /// Gives a failed run's effect back to be tried again at `dueAt`, if `owner` still holds it.
    static func reschedule(_ connection: any SQLConnection, id: String, owner: String, dueAt: Int64, error: String) throws {
        _ = try connection.run(
            """
            UPDATE effects SET leased_by = NULL, lease_until = 0, due_at = ?3, last_error = ?4
            WHERE id = ?1 AND leased_by = ?2 AND state = 'pending'
            """,
            [.text(id), .text(owner), .integer(dueAt), .text(String(error.prefix(1_000)))])
    }

    /// Finishes the effect `id` as `state` with `outcome`, if `owner` still holds it: true when
    /// it did (false: its lease ended and another node took it over, or finished it).
    static func finish(
        _ connection: any SQLConnection, id: String, owner: String, state: FinishedState, outcome: JSONValue, now: Int64
    ) throws -> Bool {
        try connection.run(
            """
            UPDATE effects SET state = ?3, outcome = ?4, finished_at = ?5, leased_by = NULL, lease_until = 0
            WHERE id = ?1 AND leased_by = ?2 AND state = 'pending'
            """,
            [
                .text(id), .text(owner), .text(state.rawValue), .text(String(decoding: outcome.serialized(), as: UTF8.self)),
                .integer(now),
            ]) == 1
    }

    enum FinishedState: String {
        /// Its result became an event of the session.
        case delivered
        /// Nobody was left to tell: the session, or the coordinator that asked, was gone.
        case dropped
    }

    /// Ends every lease (a single node's store at its start: whoever held them died with the
    /// last process), so that what a killed server was running runs again at once.
    static func releaseLeases(_ connection: any SQLConnection) throws -> Int {
        try connection.run("UPDATE effects SET leased_by = NULL, lease_until = 0 WHERE state = 'pending' AND leased_by IS NOT NULL", [])
    }

    /// Whether any pending effect is leased (a read: a start with none writes nothing).
    static func anyLeased(_ connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM effects WHERE state = 'pending' AND leased_by IS NOT NULL LIMIT 1", []) { _ in true }
            ?? false
    }

    /// Deletes up to `limit` effects finished before `before`; returns how many.
    static func deleteFinished(_ connection: any SQLConnection, before: Int64, limit: Int) throws -> Int {
        try connection.run(
            """
            DELETE FROM effects WHERE id IN (
                SELECT id FROM effects WHERE state <> 'pending' AND finished_at < ?1 LIMIT ?2)
            """, [.integer(before), .int(limit)])
    }

    /// The effects pending now, by name (for `check-deploy` and `POST /test/effects`).
    static func pendingByName(_ connection: any SQLConnection) throws -> [(name: String, count: Int)] {
        try connection.query("SELECT name, count(*) FROM effects WHERE state = 'pending' GROUP BY name", []) {
            (name: $0.string(0), count: $0.int(1))
        }
    }
}
