/// What is appended to a journal: everything of an entry but its position. A class, though
/// immutable like a value: it travels from the flow's run to the writer inside other values, and
/// each copy of its eight texts retained them all.
package final class JournalRecord: Sendable {
    package let session: String
    /// The session's user after the event (before it, for a sign-out): whose account's deletion erases it.
    package let user: Int64?
    package let versionBefore: Int
    package let version: Int
    package let at: Int64
    package let screen: String
    package let screenName: String
    package let event: String
    /// The journaled payload as stored: JSON text.
    package let payloadText: String
    /// The names of the members left out of the payload, as stored: a JSON array (a name may hold any character).
    package let redactedText: String
    package let replay: Bool
    /// The stored (packed) snapshot after the event; nil for a replay, which changed nothing.
    package let snapshot: [UInt8]?
    /// The model writes the event's flow made, as JSON text; nil for none or not recorded.
    package let writesText: String?

    package init(
        session: String, user: Int64?, versionBefore: Int, version: Int, at: Int64, screen: String, screenName: String,
        event: String, payloadText: String, redactedText: String, replay: Bool, snapshot: [UInt8]?, writesText: String?
    ) {
        self.session = session
        self.user = user
        self.versionBefore = versionBefore
        self.version = version
        self.at = at
        self.screen = screen
        self.screenName = screenName
        self.event = event
        self.payloadText = payloadText
        self.redactedText = redactedText
        self.replay = replay
        self.snapshot = snapshot
        self.writesText = writesText
    }

    /// The bytes the entry stores (its texts and snapshot), for `coordinatord_journal_bytes_written_total`.
    package var byteCount: Int {
        session.utf8.count + screen.utf8.count + screenName.utf8.count + event.utf8.count + payloadText.utf8.count
            + redactedText.utf8.count + (snapshot?.count ?? 0) + (writesText?.utf8.count ?? 0) + 48
    }
}

/// A journal entry as a history page reads it.
package struct JournalEntryRow: Sendable {
    package let id: Int64
    package let versionBefore: Int
    package let version: Int
    package let at: Int64
    package let node: String
    package let screen: String
    package let screenName: String
    package let event: String
    package let payloadText: String
    package let redactedText: String
    package let replay: Bool
    package let hasSnapshot: Bool
}

/// A journal entry as the deploy check replays it.
package struct ReplayableEntry: Sendable {
    package let versionBefore: Int
    package let version: Int
    package let at: Int64
    package let screen: String
    package let event: String
    package let payloadText: String
    package let redactedText: String
    package let snapshot: [UInt8]
    package let writesText: String?
}

/// The journal's shape: how often it is trimmed and anchored, and the bounds of a walk and of replays.
package enum JournalShape {
    /// How often (in versions) a session's journal is trimmed to its newest versions. Every
    /// version divisible by it is an anchor: `session_journal_anchor` (migration 15) writes it out.
    package static let trimEvery = 16

    /// Entries one walk reads at most (a session keeps at most `--journal-max-versions`, and a
    /// few replays between two of them).
    package static let maxSteps = 1_000_000

    /// Replays journaled per session version at most.
    package static let replaysPerVersion = 8

    /// Replays journaled between two events of a session at most.
    package static let replaysBetweenEvents = 64

    /// After appending `record`, the session's entries at or below this version go (every
    /// `trimEvery` versions, keeping the newest `keep`); nil when none go now.
    package static func trimBound(after record: JournalRecord, keep: Int) -> Int? {
        guard !record.replay && record.version % trimEvery == 0 && record.version > keep else { return nil }
        return record.version - max(1, keep)
    }
}
