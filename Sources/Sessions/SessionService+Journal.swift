import Navigation
import SessionStorage
import Store

// The journal's writes (each on the connection of the change it records, so the journal never
// disagrees with the state) and its reads: a session's history and its State at a past version.
//
// The journal stores the snapshot after each event rather than rebuilding a past State by
// replaying events: a replay would need the models as they were (a flow reads users, posts) and
// the secret fields the journal never keeps (a sign-in replayed without its password fails), so
// it could not reproduce what the client saw. Kept as the stretch that changed since the version
// before (`journalSnapshot`), it gives every retained version's State exactly, and it is what the
// deploy check replays the next event from.
extension SessionService {
    /// What an event's journal entry keeps of `stored` (of `json`), the snapshot of `version` made
    /// over `current`: in full where a trim may start the kept versions (every
    /// `JournalShape.trimEvery`-th, counted so that the oldest kept one is in full), else the
    /// difference from the snapshot before (`StoredSnapshot.packDelta`): often a few bytes, a few
    /// hundred for a pushed screen. Reading a delta back needs the entries down to the last one in
    /// full; if one of those is missing (the journal was off for a while, or
    /// `maxVersionsPerSession` changed), that version's State is not retained.
    ///
    /// A snapshot with `@Confidential` values (or one after such a snapshot) is kept in full with
    /// those values removed: a delta over the stored snapshot before would not apply to the
    /// journal's copy of it, which has them removed.
    func journalSnapshot(_ stored: [UInt8], json: [UInt8], over current: ResidentSession.State, version: Int) -> [UInt8] {
        let keep = max(1, configuration.journal.maxVersionsPerSession)
        guard let base = try? StoredSnapshot.unpack(current.snapshot) else { return Self.journaled(stored, json: json) }
        if ConfidentialRedaction.mayHoldSecrets(json) || ConfidentialRedaction.mayHoldSecrets(base) {
            return StoredSnapshot.pack(ConfidentialRedaction.redacted(json))
        }
        guard (version + keep - 1) % JournalShape.trimEvery != 0 else { return stored }
        return StoredSnapshot.packDelta(json, over: base)
    }

    /// The snapshot `stored` (of `json`) as the journal keeps it in full: without confidential values.
    static func journaled(_ stored: [UInt8], json: [UInt8]) -> [UInt8] {
        ConfidentialRedaction.mayHoldSecrets(json) ? StoredSnapshot.pack(ConfidentialRedaction.redacted(json)) : stored
    }

    /// The entry of `request`'s event, applied over `current`, that made `tree` (stored as `snapshot`).
    func journalRecord(
        _ request: EventRequest, current: ResidentSession.State, tree: NavigationTree, snapshot: [UInt8], now: Int64,
        writes: String? = nil
    ) -> JournalRecord {
        let screenName = request.event.delivery != nil ? "" : current.tree.topIdentity?.name ?? ""
        return JournalRecord(
            session: request.sessionID, user: tree.user?.id ?? current.tree.user?.id, versionBefore: current.version,
            version: current.version + 1, at: now,
            screen: request.event.screen.rawValue, screenName: screenName, event: request.event.name,
            // An effect's result is kept whole: the server made it, from a request the flow stored.
            payload: request.event.delivery != nil
                ? JournaledPayload(payload: request.event.payload, redacted: [])
                : app.journaled(payload: request.event.payload, event: request.event.name, screenName: screenName),
            replay: false, snapshot: snapshot, writes: writes)
    }

    /// Appends a change the session made by itself (`(start)`, `(fallback)`): no screen, no payload.
    func journalChange(
        _ event: String, session: String, user: Int64?, from: Int, to: Int, snapshot: [UInt8], now: Int64,
        _ connection: any SQLConnection
    ) throws {
        try journal(
            JournalRecord(
                session: session, user: user, versionBefore: from, version: to, at: now, screen: "", screenName: "", event: event,
                payload: JournaledPayload(payload: .null, redacted: []), replay: false,
                snapshot: (try? StoredSnapshot.unpack(snapshot)).map { Self.journaled(snapshot, json: $0) } ?? snapshot),
            connection)
    }

    private func journal(_ record: JournalRecord, _ connection: any SQLConnection) throws {
        let settings = configuration.journal
        guard settings.enabled else { return }
        try tables.appendJournal(record, node: settings.node, keep: settings.maxVersionsPerSession, on: connection)
    }

    /// Records that `request` was answered from its stored answer. Nothing changed, so this is
    /// a write of its own; a failure is logged, never turned into a refusal of the replay.
    func journalReplay(_ request: EventRequest, _ answer: StoredAnswer) async {
        guard configuration.journal.enabled else { return }
        let now = now()
        // The session's user is not at hand here; the entry goes with the rest of its session's journal.
        let record = JournalRecord(
            session: request.sessionID, user: nil, versionBefore: answer.version, version: answer.version, at: now,
            screen: request.event.screen.rawValue, screenName: "", event: request.event.name,
            payload: app.journaled(payload: request.event.payload, event: request.event.name, screenName: nil),
            replay: true, snapshot: nil)
        do {
            try await write { [self] in try journal(record, $0) }
        } catch {
            logger.error("journaling a replay failed", metadata: ["session": "\(request.sessionID)", "error": "\(error)"])
        }
    }

    /// Erases `users` from the journal, on the connection of the event that deleted their
    /// accounts: the whole journal of every session each was signed in to (`Context.forgetUser`).
    func forgetInJournal(_ users: Set<Int64>, _ connection: any SQLConnection) throws {
        for user in users {
            try tables.forgetJournals(ofUser: user, willDeleteListings: journalListings.willDelete, on: connection)
        }
    }

    // MARK: Reads

    /// A page of session `id`'s journal, newest first, older than the entry `before` (a cursor
    /// from an earlier page): `{"entries": [...], "next": cursor or null}`. A session's own token
    /// reads only from where its current principal began (`HistoryReader`).
    /// `SessionError.notFound` when the session is neither stored nor in the journal.
    package func history(ofSession id: String, before: Int64?, limit: Int, for reader: HistoryReader) async throws
        -> JSONValue
    {
        let limit = max(1, min(limit, 200))
        let found = try await read { [tables] connection -> (entries: [JournalEntry], began: Int)? in
            let entries = try tables.journalPage(session: id, before: before, limit: limit + 1, on: connection)
                .map(JournalEntry.init)
            if try entries.isEmpty && !tables.journalKnows(session: id, on: connection) { return nil }
            return (entries, try reader.began(tables, connection, session: id))
        }
        guard let (entries, began) = found else { throw SessionError.notFound }
        // Newest first: the walk reaches the other principal's entries last. A replay names the
        // version it replayed, so only an event's entry marks the end.
        let visible = entries.prefix(limit).filter { $0.version > began }
        let reachedTheStart = entries.contains { !$0.replay && $0.version <= began }
        let next: JSONValue =
            entries.count > limit && !reachedTheStart ? .string(String(entries[limit - 1].id)) : .null
        let showingNode = if case .operator = reader { true } else { false }
        return ["entries": .array(visible.map { $0.json(showingNode: showingNode) }), "next": next]
    }

    /// Session `id`'s State at `version` as the journal recorded it (nil when it no longer
    /// covers that version, or `reader` may not read it), rendered by this build from the snapshot
    /// stored then; `SessionError.notFound` when the session is neither stored nor in the journal.
    package func state(ofSession id: String, atVersion version: Int, for reader: HistoryReader) async throws -> [UInt8]? {
        let found = try await read { [tables] connection -> [UInt8]?? in
            guard try version > reader.began(tables, connection, session: id) else {
                return try tables.journalKnows(session: id, on: connection) ? .some(nil) : nil
            }
            if let json = try Self.snapshotJSON(tables, connection, session: id, version: version) { return .some(json) }
            return try tables.journalKnows(session: id, on: connection) ? .some(nil) : nil
        }
        guard let found else { throw SessionError.notFound }
        guard let json = found, let tree = try? app.decodeSnapshot(json) else { return nil }
        return app.renderState(tree, extra: ["id": .string(id), "version": .int(version)])
    }

    /// The JSON of the snapshot `session` had at `version`, if the journal still holds it: its
    /// entry and, when that keeps a delta, those before it down to one in full.
    private static func snapshotJSON(
        _ tables: any SessionPersistence, _ connection: any SQLConnection, session: String, version: Int
    ) throws -> [UInt8]? {
        let entries = try tables.journalSnapshots(session: session, upTo: version, on: connection)
        guard entries.last?.version == version,
            let full = entries.lastIndex(where: { !StoredSnapshot.isDelta($0.snapshot) })
        else { return nil }
        return StoredSnapshot.unpack(run: Array(entries[full...])).last ?? nil
    }

    /// What an operator reads of a stored session: its value, or why this build would start it over.
    package enum StoredRead<Value: Sendable>: Sendable {
        case found(Value)
        /// The stored snapshot (of `version`) does not decode with this build: the session's next
        /// request starts it over, signed-in user kept, for `reason`.
        case wouldStartOver(version: Int, reason: String)
    }

    /// The stored session `id`'s coordinator tree and version, for an operator (no token, no
    /// restore into memory); nil for no such session.
    package func storedTree(ofSession id: String) async throws -> StoredRead<(tree: JSONValue, version: Int)>? {
        guard let row = try await read({ [tables] in try tables.loadSession(id: id, on: $0) }) else { return nil }
        return forOperator(row) { (app.inspect($0), row.version) }
    }

    /// The stored session `id`'s current State, for an operator; nil for no such session.
    package func storedState(ofSession id: String) async throws -> StoredRead<[UInt8]>? {
        guard let row = try await read({ [tables] in try tables.loadSession(id: id, on: $0) }) else { return nil }
        return forOperator(row) { app.renderState($0, extra: ["id": .string(id), "version": .int(row.version)]) }
    }

    /// What `found` makes of `row`'s tree, or why `row` would start over, logged: after a
    /// breaking deploy an operator looking at a user's session must see that, not "no such session".
    private func forOperator<Value>(_ row: SessionRow, _ found: (NavigationTree) -> Value) -> StoredRead<Value> {
        do {
            return .found(found(try app.decodeSnapshot(try Self.json(ofStored: row.snapshot))))
        } catch {
            logger.warning(
                "operator read of a session that would start over",
                metadata: ["session": "\(row.id)", "version": "\(row.version)", "reason": "\(error.description)"])
            return .wouldStartOver(version: row.version, reason: error.description)
        }
    }
}
