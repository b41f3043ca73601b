import Navigation
import SessionStorage
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
    static func request(_ texts: Set<String>, _ tables: any SessionPersistence, _ connection: any SQLConnection, now: Int64)
        throws
    {
        guard !texts.isEmpty else { return }
        let json = JSONValue.array(texts.sorted().map(JSONValue.string)).serializedString
        try tables.requestErasure(texts: json, now: now, on: connection)
    }

    /// Scans the next `limit` journal entries for the oldest request, erasing what matches; returns
    /// the entries scanned (fewer than `limit`: that request is done, its row gone; 0: none pending).
    static func scanBatch(_ tables: any SessionPersistence, _ connection: any SQLConnection, limit: Int) throws -> Int {
        // An empty batch would read as "reached the end" and end the request unscanned.
        guard limit > 0, let request = try tables.oldestErasure(on: connection) else { return 0 }
        let needles = needles(fromStored: request.texts)
        let entries = try tables.journalEntries(after: request.scannedTo, limit: limit, on: connection)
        for entry in entries {
            if let snapshot = entry.snapshot, let bytes = StoredSnapshot.ownBytes(snapshot) ?? Optional(snapshot),
                needles.contains(where: bytes.containsBytes)
            {
                try tables.dropJournalSnapshot(entry: entry.id, on: connection)
            }
            if needles.contains(where: Array(entry.payload.utf8).containsBytes) {
                try tables.eraseJournalPayload(entry: entry.id, on: connection)
            }
        }
        let finished = entries.count < limit
        try tables.advanceErasure(id: request.id, to: finished ? nil : entries.last?.id, on: connection)
        // A request that reached the end still counts as a full batch when others wait behind it.
        return try finished && tables.erasurePending(on: connection) ? limit : entries.count
    }

    /// Each text as the JSON writer writes it inside a string (without the quotes).
    static func needles(fromStored texts: String) -> [[UInt8]] {
        let values = (try? JSONValue.parse(Array(texts.utf8)))?.arrayValue ?? []
        return values.compactMap(\.stringValue).map { text in
            Array(JSONValue.string(text).serialized().dropFirst().dropLast())
        }
    }
}
