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

    /// The entry as the history endpoints answer it; the node that wrote it only for an operator
    /// (a host name tells a session's holder nothing of theirs, and an attacker something).
    package func json(showingNode: Bool) -> JSONValue {
        let payload = (try? JSONValue.parse(Array(self.payload.utf8))) ?? .null
        var members: [String: JSONValue] = [
            "cursor": .string(String(id)), "previousVersion": .int(versionBefore), "version": .int(version),
            "at": .string(Self.timestamp(at)), "screen": .string(screen),
            "screenName": .string(screenName), "event": .string(event), "payload": payload,
            "redacted": .array(redacted.map(JSONValue.string)), "replay": .bool(replay),
        ]
        if showingNode { members["node"] = .string(node) }
        return .object(members)
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
    /// The journaled payload as stored: JSON text.
    let payloadText: String
    /// The names of the members left out of the payload, as stored: a JSON array (a name may hold any character).
    let redactedText: String
    let replay: Bool
    /// The stored (packed) snapshot after the event; nil for a replay, which changed nothing.
    let snapshot: [UInt8]?
    /// The model writes the event's flow made (`WriteRecorder.journalText`), nil for none or not recorded.
    var writesText: String? = nil

    /// The bytes the entry stores (its texts and snapshot), for `coordinatord_journal_bytes_written_total`.
    var byteCount: Int {
        session.utf8.count + screen.utf8.count + screenName.utf8.count + event.utf8.count + payloadText.utf8.count
            + redactedText.utf8.count + (snapshot?.count ?? 0) + (writesText?.utf8.count ?? 0) + 48
    }

    /// The payload is serialized here, where the record is made (for an event, on the reader that
    /// ran its flow), so that the writer, which every event waits for in turn, only binds text.
    init(
        session: String, user: Int64?, versionBefore: Int, version: Int, at: Int64, screen: String, screenName: String,
        event: String, payload: JournaledPayload, replay: Bool, snapshot: [UInt8]?, writes: String? = nil
    ) {
        self.writesText = writes
        self.session = session
        self.user = user
        self.versionBefore = versionBefore
        self.version = version
        self.at = at
        self.screen = screen
        self.screenName = screenName
        self.event = event
        self.payloadText =
            payload.payload == .object([:]) ? "{}" : String(decoding: payload.payload.serialized(), as: UTF8.self)
        self.redactedText =
            payload.redacted.isEmpty
            ? "[]" : String(decoding: JSONValue.array(payload.redacted.map(JSONValue.string)).serialized(), as: UTF8.self)
        self.replay = replay
        self.snapshot = snapshot
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
