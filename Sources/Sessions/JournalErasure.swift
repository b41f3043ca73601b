import Navigation
import Store

/// Erasing texts from every session's journal: what other sessions were shown of a user who
/// deleted their account (`Context.eraseMentions`).
///
/// The request is written with the deleting event's commit; the sweep then scans the whole
/// journal in batches of entries (by id, from where the last batch stopped), so the erasure
/// never holds the writer for long and ends within a sweep or a few. An entry whose snapshot holds
/// one of the texts loses its snapshot: its State is no longer retained, and neither are the
/// States after it that were kept as differences from it (they read back only over it). An
/// entry whose payload holds one loses its payload, marked `(erased)`.
///
/// The texts are searched as the JSON writes them (escaped), in the snapshot's own bytes: a full
/// snapshot's JSON, a difference's changed stretch.
enum JournalErasure {
    /// Writes the request (on the connection of the event that asked for it).
    static func request(_ texts: Set<String>, _ connection: any SQLConnection, now: Int64) throws {
        guard !texts.isEmpty else { return }
        let json = JSONValue.array(texts.sorted().map(JSONValue.string)).serialized()
        try connection.run(
            "INSERT INTO journal_erasures (texts, requested_at) VALUES (?1, ?2)",
            [.text(String(decoding: json, as: UTF8.self)), .integer(now)])
    }

    /// Scans the next `limit` journal entries for the oldest request, erasing what matches; returns
    /// the entries scanned (fewer than `limit`: that request is done, its row gone; 0: none pending).
    static func scanBatch(_ connection: any SQLConnection, limit: Int) throws -> Int {
        let oldest = try connection.queryFirst(
            "SELECT id, texts, scanned_to FROM journal_erasures ORDER BY id LIMIT 1", []
        ) { (id: $0.int64(0), texts: $0.string(1), scannedTo: $0.int64(2)) }
        guard let request = oldest else { return 0 }
        let needles = needles(fromStored: request.texts)
        let entries = try connection.query(
            "SELECT id, payload, snapshot FROM session_journal WHERE id > ?1 ORDER BY id LIMIT ?2",
            [.integer(request.scannedTo), .int(limit)]
        ) { row in (id: row.int64(0), payload: row.string(1), snapshot: row.isNull(2) ? nil : row.blob(2)) }
        for entry in entries {
            if let snapshot = entry.snapshot, let bytes = StoredSnapshot.ownBytes(snapshot) ?? Optional(snapshot),
                needles.contains(where: bytes.containsBytes)
            {
                try connection.run("UPDATE session_journal SET snapshot = NULL WHERE id = ?1", [.integer(entry.id)])
            }
            if needles.contains(where: Array(entry.payload.utf8).containsBytes) {
                try connection.run(
                    "UPDATE session_journal SET payload = '{}', redacted = '[\"(erased)\"]' WHERE id = ?1",
                    [.integer(entry.id)])
            }
        }
        if entries.count < limit {
            try connection.run("DELETE FROM journal_erasures WHERE id = ?1", [.integer(request.id)])
        } else if let last = entries.last {
            try connection.run(
                "UPDATE journal_erasures SET scanned_to = ?2 WHERE id = ?1", [.integer(request.id), .integer(last.id)])
        }
        // A request that reached the end still counts as a full batch when others wait behind it.
        return try entries.count < limit && pending(connection) ? limit : entries.count
    }

    /// True when an erasure waits.
    static func pending(_ connection: any SQLConnection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM journal_erasures LIMIT 1", []) { $0.int(0) } != nil
    }

    /// Each text as the JSON writer writes it inside a string (without the quotes).
    static func needles(fromStored texts: String) -> [[UInt8]] {
        let values = (try? JSONValue.parse(Array(texts.utf8)))?.arrayValue ?? []
        return values.compactMap(\.stringValue).map { text in
            Array(JSONValue.string(text).serialized().dropFirst().dropLast())
        }
    }
}
