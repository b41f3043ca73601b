import Store

/// How the session service keeps sessions in a backend's tables: the rows, their journal, the
/// answers kept for replay, the effects' outbox, erasures and (on a shared store) the notices to
/// other nodes. Every operation runs on the connection it is given, inside the caller's
/// transaction, so what it writes commits with the rest of that write or not at all.
///
/// The statements both backends accept are written once, in this module's extensions of the
/// protocol; what differs is a requirement each backend implements in its own module
/// (`SQLiteSessionPersistence`, `PostgresSessionPersistence`). The session service holds no SQL.
package protocol SessionPersistence: Sendable {
    /// Stores an event's new version over the one it was made from, with its journal entry and
    /// the answer it keeps for replay; nothing when the stored version moved on or the user to
    /// confirm is gone (the caller then rolls the write back).
    func storeEvent(_ write: EventWrite, on connection: any SQLConnection) throws -> EventWriteOutcome

    /// Stores an event's write that is a write of its own (`EventWrite.isLastStatement`, nothing
    /// before it), in `store`, and once it committed sends `notice` (a payload for `liveNotices`,
    /// leased on the write's session) to other nodes' streams. Answers as `storeEvent`, once the
    /// write is durable; refused, nothing of it was kept and nothing is sent. A backend may commit
    /// it in one transaction with other sessions' events (PostgreSQL's group commit); by default it
    /// is a write of its own.
    nonisolated(nonsending) func storeEventAlone(
        _ write: EventWrite, notice: String?, in store: any Store
    ) async throws -> EventWriteOutcome

    /// Appends `record` as its session's newest entry (see `appendJournalEntry`).
    func appendJournal(_ record: JournalRecord, node: String, keep: Int, on connection: any SQLConnection) throws

    /// Leases up to `limit` effects that are due and not leased (or whose lease ended: a node
    /// that died) to `owner` until `leaseUntil`, counting the run.
    func claimDueEffects(owner: String, now: Int64, leaseUntil: Int64, limit: Int, on connection: any SQLConnection) throws
        -> [LeasedEffect]

    /// The notices a commit sends other nodes' streams; nil where every stream is on this node.
    var liveNotices: (any LiveNoticePersistence)? { get }
}

/// A store that keeps sessions: a `Store` and the persistence of its session tables.
package protocol SessionStore: Store {
    /// The session tables, as this backend writes them.
    var sessions: any SessionPersistence { get }
}

extension SessionPersistence {
    package nonisolated(nonsending) func storeEventAlone(
        _ write: EventWrite, notice: String?, in store: any Store
    ) async throws -> EventWriteOutcome {
        try await storeEventInWrite(write, notice: notice, in: store)
    }

    /// `storeEventAlone` as a write of `store`'s own: a refused outcome rolls it back.
    package nonisolated(nonsending) func storeEventInWrite(
        _ write: EventWrite, notice: String?, in store: any Store
    ) async throws -> EventWriteOutcome {
        do {
            // It stores only what `write` holds: rerunnable.
            return try await store.writeRerunnable { connection in
                if let notice, let liveNotices {
                    try liveNotices.notice(notice, ifLeased: write.session, now: write.now, on: connection)
                }
                let outcome = try storeEvent(write, on: connection)
                guard case .stored = outcome else { throw RefusedEventWrite(outcome: outcome) }
                return outcome
            }
        } catch let refused as RefusedEventWrite {
            return refused.outcome
        }
    }

    /// Reads nothing of the session tables, but fails where they are missing: a database that is
    /// not coordinatord's.
    package func probe(on connection: any SQLConnection) throws {
        _ = try connection.queryFirst("SELECT count(*) FROM sessions WHERE id = ''") { $0.int(0) }
        _ = try connection.queryFirst("SELECT count(*) FROM session_journal WHERE id = 0") { $0.int(0) }
    }

    /// Opens a transaction of its own on `connection` (the deploy check's scratch copy, whose
    /// replayed writes are then rolled back).
    package func beginScratch(on connection: any SQLConnection) throws { try connection.execute("BEGIN") }

    /// Rolls back what `beginScratch` began.
    package func rollBackScratch(on connection: any SQLConnection) { try? connection.execute("ROLLBACK") }
}

/// Rolls back a write whose event the store refused, carrying the refusal out of it.
private struct RefusedEventWrite: Error {
    let outcome: EventWriteOutcome
}
