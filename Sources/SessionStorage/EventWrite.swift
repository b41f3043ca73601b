import Store

/// What an event's commit stores: the session's new version over the one it was made from, and
/// what goes with it. A class, immutable: it is handed to the writer (or a group commit) and its
/// statements, and a struct of this size was copied, every field retained, at each hand-off.
package final class EventWrite: Sendable {
    package let session: String
    package let expectedVersion: Int
    package let snapshot: [UInt8]
    /// The new token's hash and user, when either changed (nil: both as stored).
    package let identity: SessionIdentity?
    package let now: Int64
    package let expiresAt: Int64
    /// The expiry stored before, whose hour tells whether the expiry's index entry moves.
    package let previousExpiresAt: Int64
    /// The entry to journal, and where.
    package let journal: Journaled?
    /// The answer to keep for replay, and how many of the session's answers to keep.
    package let answer: (row: AnswerRow, keep: Int)?
    /// True when nothing follows in this write: a backend may end the write with the update.
    package let isLastStatement: Bool
    /// The user whose row must be in the app's user table for the write to stand.
    package let confirming: (table: UserRows, user: Int64)?

    package struct Journaled: Sendable {
        package let record: JournalRecord
        package let node: String
        package let keep: Int
        /// The session is known to be listed under the record's user already (`journal_users`).
        package let alreadyListed: Bool

        package init(record: JournalRecord, node: String, keep: Int, alreadyListed: Bool) {
            self.record = record
            self.node = node
            self.keep = keep
            self.alreadyListed = alreadyListed
        }
    }

    package init(
        session: String, expectedVersion: Int, snapshot: [UInt8], identity: SessionIdentity?, now: Int64, expiresAt: Int64,
        previousExpiresAt: Int64, journal: Journaled?, answer: (row: AnswerRow, keep: Int)?, isLastStatement: Bool,
        confirming: (table: UserRows, user: Int64)?
    ) {
        self.session = session
        self.expectedVersion = expectedVersion
        self.snapshot = snapshot
        self.identity = identity
        self.now = now
        self.expiresAt = expiresAt
        self.previousExpiresAt = previousExpiresAt
        self.journal = journal
        self.answer = answer
        self.isLastStatement = isLastStatement
        self.confirming = confirming
    }
}

/// How an event's write went: a value the session service switches on.
package enum EventWriteOutcome: Sendable, Equatable {
    /// Stored. `listedUser`: the session is now known listed under this user (a backend that
    /// tracks it), so the next event may skip listing it again.
    case stored(listedUser: Int64?)
    /// The stored version is no longer the one the event was made from.
    case versionMoved
    /// The user to confirm has no row in the app's user table.
    case userGone
    /// One of the two, not told apart (a backend that checks both in one statement).
    case versionMovedOrUserGone
}
