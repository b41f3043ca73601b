import SessionStorage
import Store

/// The session tables on SQLite: one writer runs every write in turn, so nothing is locked, and
/// an event's write is a few statements on that writer, each cheap.
package struct SQLiteSessionPersistence: SessionPersistence {
    package init() {}

    /// Every stream is on this node: no notices.
    package var liveNotices: (any LiveNoticePersistence)? { nil }

    /// The row's update naming the entry just inserted as the journal's newest: `RETURNING`
    /// would cost SQLite a temporary table per statement.
    private static let updateNamingTheEntry = SessionRowUpdate(alsoAssigning: "journal_head = last_insert_rowid()")

    /// The user check, the entry, the row's compare-and-set update, the entry's listing and trim,
    /// and the answer: statements of one write. The entry comes first, so that the row's update
    /// names it (a lost compare-and-set rolls back the write, the entry with it).
    package func storeEvent(_ write: EventWrite, on connection: any SQLConnection) throws -> EventWriteOutcome {
        if let (table, user) = write.confirming, try !table.contains(user, on: connection) { return .userGone }
        if let journal = write.journal {
            try insertJournalEntry(journal.record, node: journal.node, returningID: false, on: connection)
        }
        let update = write.journal == nil ? SessionRowUpdate.plain : Self.updateNamingTheEntry
        guard
            try update.run(
                connection, id: write.session, expectedVersion: write.expectedVersion, snapshot: write.snapshot,
                identity: write.identity, now: write.now, expiresAt: write.expiresAt,
                previousExpiresAt: write.previousExpiresAt)
        else { return .versionMoved }
        var listed: Int64?
        if let journal = write.journal {
            try followJournalEntry(journal.record, keep: journal.keep, listed: journal.alreadyListed, on: connection)
            listed = journal.record.user
        }
        if let answer = write.answer { try storeAnswer(answer.row, keep: answer.keep, on: connection) }
        return .stored(listedUser: listed)
    }

    /// One writer: nobody appends to the session meanwhile.
    package func appendJournal(_ record: JournalRecord, node: String, keep: Int, on connection: any SQLConnection) throws {
        try appendJournalEntry(record, node: node, keep: keep, rowLock: "", on: connection)
    }

    /// One writer: no other claim runs meanwhile.
    package func claimDueEffects(owner: String, now: Int64, leaseUntil: Int64, limit: Int, on connection: any SQLConnection)
        throws -> [LeasedEffect]
    {
        try claimDueEffects(owner: owner, now: now, leaseUntil: leaseUntil, limit: limit, rowLock: "", on: connection)
    }
}

extension SQLiteDatabase: SessionStore {
    package var sessions: any SessionPersistence { SQLiteSessionPersistence() }
}
