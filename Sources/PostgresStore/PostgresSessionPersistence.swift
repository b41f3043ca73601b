import SessionStorage
import Store

/// The session tables on PostgreSQL, shared by several nodes: an event's writes are one folded
/// statement (one round trip), rows another node may write at once are locked, and commits are
/// told to the other nodes' streams.
package struct PostgresSessionPersistence: SessionPersistence {
    package init() {}

    package let liveNotices: (any LiveNoticePersistence)? = PostgresLiveNotices()

    /// The update, its journal entry and its answer in one statement (`FoldedEventSQL`).
    package func storeEvent(_ write: EventWrite, on connection: any SQLConnection) throws -> EventWriteOutcome {
        guard try FoldedEventSQL.update(write, connection) else {
            // With a user to confirm, either condition may have failed.
            return write.confirming != nil ? .versionMovedOrUserGone : .versionMoved
        }
        return .stored(listedUser: nil)
    }

    /// On a `PostgresDatabase`, in its group commit: with the other sessions' events waiting at
    /// the same time, in one transaction and one round trip (`GroupCommit`).
    package nonisolated(nonsending) func storeEventAlone(
        _ write: EventWrite, notice: String?, in store: any Store
    ) async throws -> EventWriteOutcome {
        let statement = FoldedEventSQL.statement(write)
        guard let database = store as? PostgresDatabase, let check = statement.check, let counting = statement.counting,
            let token = statement.token
        else { return try await storeEventInWrite(write, notice: notice, in: store) }
        let pending = notice.map {
            PostgresLiveNotices.Pending(payload: $0, session: write.session, now: write.now, token: token)
        }
        let stored = try await database.commitInGroup(
            sql: statement.sql, counting: counting, values: statement.values, check: check, notice: pending)
        guard stored else { return write.confirming != nil ? .versionMovedOrUserGone : .versionMoved }
        return .stored(listedUser: nil)
    }

    /// The row stays locked to the commit: another node's entry of the same session waits, and
    /// then chains onto this one.
    package func appendJournal(_ record: JournalRecord, node: String, keep: Int, on connection: any SQLConnection) throws {
        try appendJournalEntry(record, node: node, keep: keep, rowLock: " FOR UPDATE", on: connection)
    }

    /// Rows another node is claiming at this moment are skipped, not waited for.
    package func claimDueEffects(owner: String, now: Int64, leaseUntil: Int64, limit: Int, on connection: any SQLConnection)
        throws -> [LeasedEffect]
    {
        try claimDueEffects(
            owner: owner, now: now, leaseUntil: leaseUntil, limit: limit, rowLock: " FOR UPDATE SKIP LOCKED", on: connection)
    }
}

extension PostgresDatabase: SessionStore {
    package var sessions: any SessionPersistence { PostgresSessionPersistence() }
}
