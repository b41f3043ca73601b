import Foundation
import Navigation
import SessionStorage
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

    /// The entry as the journal's table holds it.
    init(_ row: JournalEntryRow) {
        id = row.id
        versionBefore = row.versionBefore
        version = row.version
        at = row.at
        node = row.node
        screen = row.screen
        screenName = row.screenName
        event = row.event
        payload = row.payloadText
        redacted = Self.redacted(fromText: row.redactedText)
        replay = row.replay
        hasSnapshot = row.hasSnapshot
    }

    /// The names a stored `redacted` column lists (a JSON array of strings).
    static func redacted(fromText text: String) -> [String] {
        ((try? JSONValue.parse(Array(text.utf8)))?.arrayValue ?? []).compactMap(\.stringValue)
    }

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

extension JournalRecord {
    /// The payload is serialized here, where the record is made (for an event, on the reader that
    /// ran its flow), so that the writer, which every event waits for in turn, only binds text.
    convenience init(
        session: String, user: Int64?, versionBefore: Int, version: Int, at: Int64, screen: String, screenName: String,
        event: String, payload: JournaledPayload, replay: Bool, snapshot: [UInt8]?, writes: String? = nil
    ) {
        self.init(
            session: session, user: user, versionBefore: versionBefore, version: version, at: at, screen: screen,
            screenName: screenName, event: event,
            payloadText: payload.payload == .object([:])
                ? "{}" : payload.payload.serializedString,
            redactedText: payload.redacted.isEmpty
                ? "[]" : JSONValue.array(payload.redacted.map(JSONValue.string)).serializedString,
            replay: replay, snapshot: snapshot, writesText: writes)
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
