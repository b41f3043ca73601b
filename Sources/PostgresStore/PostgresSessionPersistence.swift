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
    package func storeEventAlone(
        _ write: EventWrite, following: @escaping @Sendable (any SQLConnection) throws -> Void, in store: any Store
    ) async throws -> EventWriteOutcome {
        let statement = FoldedEventSQL.statement(write)
        let followers = FollowingStatements()
        try following(followers)
        // In a group, the notices go whatever became of this write: each then checks that it stored.
        let notices = statement.token.map { token in
            followers.statements.compactMap { PostgresLiveNotices.Pending($0, token: token) }
        }
        guard let database = store as? PostgresDatabase, let check = statement.check, let counting = statement.counting,
            let notices, notices.count == followers.statements.count
        else { return try await storeEventInWrite(write, following: following, in: store) }
        let stored = try await database.commitInGroup(
            sql: statement.sql, counting: counting, values: statement.values, check: check,
            following: followers.statements, notices: notices)
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

/// Keeps the statements a write runs after its commit (`runAfterCommit`), for a group commit to
/// send; anything else is refused (a write alone has nothing else to run).
private final class FollowingStatements: SQLConnection {
    private(set) var statements: [(sql: String, values: [SQLValue])] = []
    var dialect: SQLDialect { .postgresql }

    func runAfterCommit(_ sql: String, _ values: [SQLValue]) throws { statements.append((sql, values)) }
    func execute(_ sql: String) throws { throw ConnectionNeeded(sql: sql) }
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int { throw ConnectionNeeded(sql: sql) }
    func query<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> [T] {
        throw ConnectionNeeded(sql: sql)
    }
    func queryFirst<T>(_ sql: String, _ values: [SQLValue], _ map: (Row) throws -> T) throws -> T? {
        throw ConnectionNeeded(sql: sql)
    }
    func commitIfChanged(_ sql: String, _ values: [SQLValue], checkedBy check: CommitCheck?) throws -> Bool {
        throw ConnectionNeeded(sql: sql)
    }
}
