import Foundation
import Navigation
import Store

/// How a session's journal is kept: whether at all, how long, how much per session, and the
/// name of the node that writes it.
package struct JournalSettings: Sendable {
    /// False: no journal is written (history then covers nothing).
    package var enabled: Bool
    /// Versions kept per session: older entries are trimmed as new ones are written.
    package var maxVersionsPerSession: Int
    /// Seconds an entry is kept; the sweep deletes older ones in batches.
    package var retentionSeconds: Int64
    /// The node named in each entry (several nodes may share a PostgreSQL database).
    package var node: String

    package init(
        enabled: Bool = true, maxVersionsPerSession: Int = 1000, retentionSeconds: Int64 = 30 * 24 * 3600,
        node: String = JournalSettings.hostName
    ) {
        self.enabled = enabled
        self.maxVersionsPerSession = maxVersionsPerSession
        self.retentionSeconds = retentionSeconds
        self.node = node
    }
}

extension JournalSettings {
    /// This machine's host name, as `gethostname` says (no DNS lookup, unlike `ProcessInfo.hostName`).
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "node" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// One entry of a session's journal: an applied event (or an `Idempotency-Key` replay), what it
/// was sent from, the versions it moved the session between, when and where.
package struct JournalEntry: Sendable {
    /// Its position in the journal (the pagination cursor).
    package let id: Int64
    package let versionBefore: Int
    package let version: Int
    /// Seconds since 1970, by the service's clock.
    package let at: Int64
    package let node: String
    package let screen: String
    package let screenName: String
    package let event: String
    /// The payload without secret fields, as JSON text.
    package let payload: String
    /// The payload fields left out (secret or undeclared).
    package let redacted: [String]
    package let replay: Bool
    /// True when the entry holds the snapshot after the event (every entry but a replay's).
    package let hasSnapshot: Bool

    /// The entry as the history endpoints answer it.
    package var json: JSONValue {
        let payload = (try? JSONValue.parse(Array(self.payload.utf8))) ?? .null
        return [
            "cursor": .string(String(id)), "previousVersion": .int(versionBefore), "version": .int(version),
            "at": .string(Self.timestamp(at)), "node": .string(node), "screen": .string(screen),
            "screenName": .string(screenName), "event": .string(event), "payload": payload,
            "redacted": .array(redacted.map(JSONValue.string)), "replay": .bool(replay),
        ]
    }

    private static func timestamp(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}

/// What is appended to a journal: everything of an entry but its position.
struct JournalRecord: Sendable {
    let session: String
    /// The session's user after the event (before it, for a sign-out): whose account's deletion erases it.
    let user: Int64?
    let versionBefore: Int
    let version: Int
    let at: Int64
    let screen: String
    let screenName: String
    let event: String
    let payload: JournaledPayload
    let replay: Bool
    /// The stored (packed) snapshot after the event; nil for a replay, which changed nothing.
    let snapshot: [UInt8]?
}

/// The SQL of the `session_journal` table, in SQL that SQLite and PostgreSQL both accept.
enum JournalSQL {
    /// Appends `record`; every `trimEvery` versions also drops the session's versions older than
    /// its newest `keep`, so a session's journal stays bounded without a scan of the table.
    /// A replay changes nothing, so a client could replay one answer forever: at most
    /// `replaysPerVersion` replays of each version are journaled.
    static func append(_ connection: any SQLConnection, _ record: JournalRecord, node: String, keep: Int) throws {
        if record.replay {
            let replays = try connection.queryFirst(
                "SELECT count(*) FROM session_journal WHERE session_id = ?1 AND version = ?2 AND replay = 1",
                [.text(record.session), .int(record.version)]
            ) { $0.int(0) }
            guard (replays ?? 0) < replaysPerVersion else { return }
        }
        try connection.run(
            insert,
            [
                .text(record.session), .int(record.versionBefore), .int(record.version), .integer(record.at), .text(node),
                .text(record.screen), .text(record.screenName), .text(record.event), .text(payloadText(record)),
                .text(redactedText(record.payload.redacted)), .int(record.replay ? 1 : 0),
                record.snapshot.map { .blob($0) } ?? .null, record.user.map { .integer($0) } ?? .null,
            ])
        if let user = record.user { try connection.run(listUser, [.text(record.session), .integer(user)]) }
        if let bound = trimBound(after: record, keep: keep) {
            try connection.run(
                "DELETE FROM session_journal WHERE session_id = ?1 AND version <= ?2", [.text(record.session), .int(bound)])
        }
    }

    /// The columns an entry fills, in the order `append` binds them; PostgreSQL's folded event
    /// write (`FoldedEventSQL`) fills the same ones.
    static let columns =
        "session_id, version_before, version, at, node, screen, screen_name, event, payload, redacted, replay, snapshot, user_id"

    /// Made once: built per event, its text cost more than the statement it names (which the
    /// connection finds by that text in its cache).
    private static let insert =
        "INSERT INTO session_journal (\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"

    /// Lists the session ?1 under user ?2, once: an event of a session already listed only reads
    /// the table's page, which the commit then leaves alone.
    static let listUser = "INSERT INTO journal_users (session_id, user_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING"

    /// After appending `record`, the session's entries at or below this version go (every
    /// `trimEvery` versions, keeping the newest `keep`); nil when none go now.
    static func trimBound(after record: JournalRecord, keep: Int) -> Int? {
        guard !record.replay && record.version % trimEvery == 0 && record.version > keep else { return nil }
        return record.version - max(1, keep)
    }

    /// The journaled payload, as stored: JSON text.
    static func payloadText(_ record: JournalRecord) -> String {
        String(decoding: record.payload.payload.serialized(), as: UTF8.self)
    }

    /// The names of the members left out of a payload, as stored: a JSON array (a name may hold any character).
    static func redactedText(_ names: [String]) -> String {
        String(decoding: JSONValue.array(names.map(JSONValue.string)).serialized(), as: UTF8.self)
    }

    static func redacted(fromText text: String) -> [String] {
        ((try? JSONValue.parse(Array(text.utf8)))?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// Replays journaled per session version at most.
    static let replaysPerVersion = 8

    /// How often (in versions) a session's journal is trimmed to its newest versions.
    static let trimEvery = 16

    /// Up to `limit` entries of `session`, newest first, older than the entry `before` if given.
    static func page(_ connection: any SQLConnection, session: String, before: Int64?, limit: Int) throws -> [JournalEntry] {
        try connection.query(
            """
            SELECT id, version_before, version, at, node, screen, screen_name, event, payload, redacted, replay,
                   CASE WHEN snapshot IS NULL THEN 0 ELSE 1 END
            FROM session_journal WHERE session_id = ?1 AND id < ?2 ORDER BY id DESC LIMIT ?3
            """, [.text(session), .integer(before ?? Int64.max), .int(limit)]
        ) { row in
            JournalEntry(
                id: row.int64(0), versionBefore: row.int(1), version: row.int(2), at: row.int64(3), node: row.string(4),
                screen: row.string(5), screenName: row.string(6), event: row.string(7), payload: row.string(8),
                redacted: redacted(fromText: row.string(9)), replay: row.int(10) == 1,
                hasSnapshot: row.int(11) == 1)
        }
    }

    /// The stored snapshot `session` had at `version`, if the journal still holds it.
    static func snapshot(_ connection: any SQLConnection, session: String, version: Int) throws -> [UInt8]? {
        try connection.queryFirst(
            """
            SELECT snapshot FROM session_journal
            WHERE session_id = ?1 AND version = ?2 AND snapshot IS NOT NULL ORDER BY id DESC LIMIT 1
            """, [.text(session), .int(version)]
        ) { $0.blob(0) }
    }

    /// Deletes the whole journal of every session user `id` was signed in to (an account deleted).
    static func forget(_ connection: any SQLConnection, user id: Int64) throws {
        let sessions = try connection.query(
            "SELECT session_id FROM journal_users WHERE user_id = ?1", [.integer(id)]) { $0.string(0) }
        for session in sessions { try delete(connection, session: session) }
    }

    /// Deletes session `id`'s journal (the session was deleted, or a user it named).
    static func delete(_ connection: any SQLConnection, session id: String) throws {
        try connection.run("DELETE FROM session_journal WHERE session_id = ?1", [.text(id)])
        try connection.run("DELETE FROM journal_users WHERE session_id = ?1", [.text(id)])
    }

    /// True when session `id` is stored or the journal still holds entries of it (it ended since).
    static func known(_ connection: any SQLConnection, session id: String) throws -> Bool {
        try connection.queryFirst(
            """
            SELECT 1 FROM sessions WHERE id = ?1
            UNION ALL SELECT 1 FROM session_journal WHERE session_id = ?1
            LIMIT 1
            """, [.text(id)]
        ) { $0.int(0) } != nil
    }

    /// Deletes entries written before `before` among the `limit` oldest; returns how many. The
    /// oldest entries come first by id, so the sweep walks the table from its start in bounded
    /// batches and stops at the first batch with anything younger. A session left with no entry
    /// is no longer listed under its users.
    static func deleteOld(_ connection: any SQLConnection, before: Int64, limit: Int) throws -> Int {
        let sessions = try connection.query(
            """
            DELETE FROM session_journal WHERE at < ?1 AND id IN
                (SELECT id FROM session_journal ORDER BY id LIMIT ?2)
            RETURNING session_id
            """, [.integer(before), .int(limit)]
        ) { $0.string(0) }
        for session in Set(sessions) {
            try connection.run(
                """
                DELETE FROM journal_users
                WHERE session_id = ?1 AND NOT EXISTS (SELECT 1 FROM session_journal WHERE session_id = ?1)
                """, [.text(session)])
        }
        return sessions.count
    }
}

extension SessionConfiguration {
    /// This configuration with the journal kept as `settings` say.
    package func journaling(_ settings: JournalSettings) -> SessionConfiguration {
        var copy = self
        copy.journal = settings
        return copy
    }
}
