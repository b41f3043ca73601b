import Metrics
import Navigation
import Secrets
import SessionStorage
import Store

/// An event as the REST layer hands it over.
package struct EventRequest: Sendable {
    let sessionID: String
    let token: String?
    let event: IncomingEvent
    /// The version `If-Match` names, if the header was sent; nil inside means "matches nothing".
    let ifMatch: Int??
    let idempotencyKey: String?
    /// SHA-256 of the request body, to tell a retry from a different request with the same key
    /// (empty without a key: nothing compares it).
    let requestHash: [UInt8]
    let clientAddress: String
    /// The `Device-Token` header: a credential a flow gave this device in an earlier answer.
    var deviceToken: String? = nil
    /// The language the client asked for, among the app's (`Accept-Language`).
    var language: String? = nil

    package init(
        sessionID: String, token: String?, event: IncomingEvent, ifMatch: Int??, idempotencyKey: String?,
        requestHash: [UInt8], clientAddress: String, deviceToken: String? = nil, language: String? = nil
    ) {
        self.sessionID = sessionID
        self.token = token
        self.event = event
        self.ifMatch = ifMatch
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        self.clientAddress = clientAddress
        self.deviceToken = deviceToken
        self.language = language
    }
}

/// The write of an event run without its `UserTable` check did not find the user (on PostgreSQL:
/// or found the version moved), or the run failed: run it again with the check first.
struct UserUnconfirmed: Error {}

/// The resident copy of a session is out of date (its stored version moved on, or it was
/// retired while this request waited): load it again and start over.
struct ResidentCopyOutdated: Error {}

extension SessionService {
    /// The event pipeline: authenticate → replay a stored answer → (in order, one at a time per
    /// session) `If-Match` → top screen → decode and act → durable commit → answer. Counted by outcome.
    /// (Refusals are counted, by their problem type, where they are answered: the REST layer.)
    package func post(_ request: EventRequest) async throws -> StoredAnswer {
        let (answer, replayed) = try await postOnce(request)
        if replayed { await journalReplay(request, answer) }
        (replayed ? Self.replayedEvents : Self.appliedEvents).increment()
        return answer
    }

    // Made on first use (after the metrics system is set up), not per event.
    private static let appliedEvents = Counter(label: "coordinatord_events_total", dimensions: [("outcome", "applied")])
    private static let replayedEvents = Counter(label: "coordinatord_events_total", dimensions: [("outcome", "replayed")])

    /// Retries when the resident copy turned out to be outdated (a few times at most: each retry
    /// starts from the stored version, so it fails again only if yet another event won meanwhile).
    /// An event that lost every time (to events through other nodes) is a stale tap: `409` with
    /// the current state, like a tap on a screen that is no longer on top. Nothing is wrong with
    /// storage, so never `503`.
    private func postOnce(_ request: EventRequest) async throws -> (StoredAnswer, replayed: Bool) {
        for _ in 0..<5 {
            do {
                return try await authenticatedPost(request)
            } catch is ResidentCopyOutdated {
                continue
            }
        }
        throw try await lostRace(request)
    }

    /// The `409` for an event that other events kept overtaking, with the state as stored now.
    private func lostRace(_ request: EventRequest) async throws -> SessionError {
        // Not `forEvent`: on a shared store the resident copy is checked against the stored version.
        try await withSession(id: request.sessionID, token: request.token) { session in
            .staleScreen(
                state: render(session.current, id: session.id), version: session.current.version,
                detail: "Other events changed the session while this one was applied; it was not applied.")
        }
    }

    private func authenticatedPost(_ request: EventRequest) async throws -> (StoredAnswer, replayed: Bool) {
        guard let key = request.idempotencyKey, let token = request.token else {
            return (
                try await withSession(id: request.sessionID, token: request.token, forEvent: true) {
                    try await apply(request, to: $0, tokenHash: $1)
                }, false
            )
        }
        do {
            return try await withSession(id: request.sessionID, token: token, forEvent: true) { session, tokenHash in
                // The key is claimed before its stored answer is looked for: a request with this key
                // that finished stored its answer before it let go of the key, so one read finds it.
                // A claim that fails means another request holds the key: still running, or
                // replaying a finished one's answer (then this replays it too).
                guard idempotency.begin(session: request.sessionID, key: key) else {
                    if let replay = try await storedAnswer(request, key: key, token: token, rotatedOnly: false) {
                        return (replay, true)
                    }
                    throw SessionError.idempotencyKeyInFlight
                }
                defer { idempotency.end(session: request.sessionID, key: key) }
                if let replay = try await storedAnswer(request, key: key, token: token, rotatedOnly: false) {
                    return (replay, true)
                }
                return (try await apply(request, to: session, tokenHash: tokenHash), false)
            }
        } catch SessionError.unauthorized {
            // The token is not current. It may still replay the very request that rotated it
            // away (a client that lost that answer), and nothing else.
            guard let replay = try await storedAnswer(request, key: key, token: token, rotatedOnly: true) else {
                throw SessionError.unauthorized
            }
            return (replay, true)
        }
    }

    private func storedAnswer(_ request: EventRequest, key: String, token: String, rotatedOnly: Bool) async throws
        -> StoredAnswer?
    {
        let (session, hash, now) = (request.sessionID, request.requestHash, now())
        return try await read { [tables] in
            try StoredAnswer.find(
                tables, $0, session: session, key: key, requestHash: hash, token: token, rotatedOnly: rotatedOnly, now: now)
        }
    }

    /// - Parameter tokenHash: the hash of `request.token`, which authenticated `session`.
    func apply(_ request: EventRequest, to session: ResidentSession, tokenHash: [UInt8]) async throws
        -> StoredAnswer
    {
        try await session.lock.withLock {
            let current = session.current
            if current.retired { throw ResidentCopyOutdated() }
            // An event that got the lock first may have rotated the token (a sign-in, a sign-out):
            // this request lost that race, and its dead token reaches neither the new state nor it.
            // (An effect's result comes from the server, not a client: no token, whatever is on top.)
            let delivered = request.event.delivery != nil
            guard delivered || Tokens.constantTimeEquals(current.tokenHash, tokenHash) else {
                throw SessionError.unauthorized
            }
            let now = now()
            guard current.expiresAt >= now else { throw SessionError.unauthorized }  // deleted while we waited
            if let expected = request.ifMatch, expected != current.version {
                try await ensureCurrent(session, version: current.version)
                throw SessionError.versionMismatch(state: render(current, id: session.id), current: current.version)
            }
            guard delivered || current.tree.top?.id == request.event.screen else {
                try await ensureCurrent(session, version: current.version)
                throw SessionError.staleScreen(
                    state: render(current, id: session.id), version: current.version,
                    detail: EventRejection.notTopScreen(screen: request.event.screen, top: current.tree.top?.id).detail)
            }
            let applied: Applied
            let lasting = LastingWritesLog()
            do {
                applied = try await commit(request, current: current, now: now, lasting: lasting)
            } catch is ResidentCopyOutdated {
                retire(session)
                throw ResidentCopyOutdated()
            } catch {
                // A refusal (an app's 422, say) is judged on the current state, as 409 and 412 are.
                try await ensureCurrent(session, version: current.version)
                // It stands: what the flow wrote to outlast it (a failed password check) commits now.
                try await lasting.commit { try await self.write($0) }
                throw error
            }
            if applied.unchanged { return applied.answer }
            session.update {
                $0.tree = applied.tree
                $0.version = current.version + 1
                $0.snapshot = applied.snapshot
                $0.tokenHash = applied.tokenHash
                $0.expiresAt = now + configuration.idleTimeoutSeconds
                $0.storedExpiresAt = $0.expiresAt
                $0.touched = false
                $0.journalListing = applied.journalListing
            }
            if applied.tokenHash != current.tokenHash {
                cache.retoken(session.id, from: current.tokenHash, to: applied.tokenHash)
            }
            if !applied.endedSessionsOfUsers.isEmpty {
                for other in cache.sessions(ofUsers: applied.endedSessionsOfUsers) where other !== session {
                    retire(other)
                }
            }
            Traced.span("publish to live streams") {
                liveCommitted(session, endedSessionsOfUsers: applied.endedSessionsOfUsers, rendered: applied.state)
            }
            if applied.storedEffects { effects.wake() }
            if applied.journalBytes > 0 { Self.journalBytes.increment(by: applied.journalBytes) }
            return applied.answer
        }
    }

    private struct Applied: Sendable {
        let tree: NavigationTree
        let snapshot: [UInt8]
        let tokenHash: [UInt8]
        let answer: StoredAnswer
        let endedSessionsOfUsers: Set<Int64>
        /// The session's journal listing as the write left it (`JournalListings`).
        let journalListing: JournalListings.Listed?
        /// The bytes its journal entry stored (0 with the journal off).
        let journalBytes: Int
        /// The new State as streams show it, when the answer is exactly that (no token in it):
        /// then the streams reuse it instead of rendering the State again.
        let state: [UInt8]?
        /// Nothing changed and nothing was stored (an `open` of what is shown): the answer is the
        /// current State, at the current version.
        var unchanged = false
        /// The commit stored effects to run.
        var storedEffects = false
    }

    /// Applies the event and commits it. Most events only navigate: their flow runs here, with a
    /// connection that refuses every statement (`UnusedConnection`), and the write only stores what
    /// it made, over the version it was made from (no reader, no transaction but the write's). A
    /// flow that reads runs again on a reader's read-only connection, which sees committed data,
    /// and its result is stored the same way. A flow that writes (or tries to) runs again on the
    /// writer, where its model mutations, the snapshot and (for an `Idempotency-Key`) the answer are
    /// stored in one savepoint, with the other sessions the event ended deleted. The answer is
    /// rendered before the write, where it costs the writer nothing; a flow that ran on the writer
    /// has it rendered after the commit, off the writer (unless its key's answer is stored with it).
    ///
    /// An app's `UserTable` is checked with the write (`FlowRunner.apply`), so that the check costs
    /// no read of its own: a flow that reads nothing runs without a connection even for a signed-in
    /// session. A run that fails, or whose write does not find the user, runs again with the
    /// check first (`UserUnconfirmed`): a user gone starts the session over signed out, as
    /// before, and a refusal is judged as the user it is for.
    private func commit(
        _ request: EventRequest, current: ResidentSession.State, now: Int64, lasting: LastingWritesLog
    ) async throws -> Applied {
        let run = {
            @Sendable (connection: any SQLConnection, prepared: PreparedWork, onReader: Bool, userCheckInWrite: Bool) throws
                -> FlowRun in
            do {
                return try self.runFlow(
                    request, current: current, now: now, connection, prepared, renderAnswer: onReader,
                    userCheckInWrite: userCheckInWrite)
            } catch let error where userCheckInWrite && !FlowRunner.asksForWork(error) {
                throw UserUnconfirmed()
            }
        }
        // The request's trace, for the effects the event stores (their runs continue it).
        let trace = Traced.carrier()
        let keep = { @Sendable (ran: FlowRun, connection: any SQLConnection) throws -> FlowRun in
            var ran = ran
            // `open` of what the session shows already changes nothing: no version, no entry.
            if request.event.name == SystemEvent.open.name, ran.snapshot == current.snapshot, ran.newToken == nil,
                ran.outcome.asksNothingElse
            {
                ran.unchanged = true
                return ran
            }
            ran.journalListing = try self.store(ran, of: request, current: current, now: now, trace: trace, connection)
            return ran
        }
        // Once a run tried to read (or write), the rounds after a preparation skip the attempts
        // that could not serve it; so does an event that read when it last ran.
        let hint = ConnectionHints.Key(screen: current.tree.top?.name ?? "", event: request.event.name)
        var (needsConnection, needsWriter) = (connectionHints.reads(hint), false)
        var userCheckInWrite = app.userTable != nil && current.tree.user != nil
        func attempt(_ prepared: PreparedWork) async throws -> FlowRun {
            let inWrite = userCheckInWrite
            if !needsConnection {
                let unused = UnusedConnection(dialect: store.dialect)
                let outcome = Traced.span("flow") { Result { try run(unused, prepared, true, inWrite) } }
                if !unused.wasNeeded {
                    let ran = try outcome.get()
                    return try await Traced.span("commit") { try await self.write { try keep(ran, $0) } }
                }
                needsConnection = true
                connectionHints.noteReading(hint, app: app)
            }
            if !needsWriter {
                let attempt = try await Traced.span("flow on a reader, then commit") {
                    try await storage("write") {
                        try await store.attemptReadOnly({ try run($0, prepared, true, inWrite) }, then: keep)
                    }
                }
                if case .completed(let ran)? = attempt { return ran }
                needsWriter = true
            }
            return try await Traced.span("flow and commit on the writer") {
                try await self.write { try keep(try run($0, prepared, false, inWrite), $0) }
            }
        }
        var declared = false
        let ran = try await flows.withPreparations(client: request.clientAddress, lasting: lasting) { prepared in
            // The declared stage, once: what the handler says it needs is prepared first (its
            // work thrown, done, then asked again), so that the flow runs once, where it says.
            if !declared {
                let access = try await Traced.span("declare") {
                    try await self.declaredAccess(request, current: current, now: now, hint: hint, prepared)
                }
                switch access {
                case nil: break
                case .navigates?: (needsConnection, needsWriter) = (false, false)
                case .reads?: (needsConnection, needsWriter) = (true, false)
                case .writes?: (needsConnection, needsWriter) = (true, true)
                }
                declared = true
            }
            if userCheckInWrite {
                do {
                    return try await attempt(prepared)
                } catch is UserUnconfirmed {
                    (userCheckInWrite, needsConnection) = (false, true)
                }
            }
            return try await attempt(prepared)
        }
        (!needsConnection ? Self.flowsWithoutConnection : needsWriter ? Self.flowsOnWriter : Self.flowsOffWriter)
            .increment()
        if ran.unchanged {
            let answer = Self.answer(app, current.tree, id: request.sessionID, version: current.version, token: nil, deviceToken: nil)
            return Applied(
                tree: current.tree, snapshot: current.snapshot, tokenHash: current.tokenHash, answer: answer,
                endedSessionsOfUsers: [], journalListing: current.journalListing, journalBytes: 0, state: nil, unchanged: true)
        }
        let answer =
            ran.answer
            ?? Self.answer(
                app, ran.tree, id: request.sessionID, version: current.version + 1, token: ran.newToken,
                deviceToken: ran.outcome.deviceToken, droppedLink: ran.outcome.droppedLink)
        return Applied(
            tree: ran.tree, snapshot: ran.snapshot, tokenHash: ran.tokenHash, answer: answer,
            endedSessionsOfUsers: ran.outcome.endedSessionsOfUsers, journalListing: ran.journalListing,
            journalBytes: ran.journal?.byteCount ?? 0,
            state: ran.newToken == nil && ran.outcome.deviceToken == nil && ran.outcome.droppedLink == nil ? answer.body : nil,
            storedEffects: !ran.outcome.effects.isEmpty)
    }

    // Made on first use (after the metrics system is set up), not per event.
    private static let journalBytes = Counter(label: "coordinatord_journal_bytes_written_total")
    private static let flowsOffWriter = Counter(
        label: "coordinatord_event_flows_total", dimensions: [("connection", "read_only")])
    private static let flowsOnWriter = Counter(label: "coordinatord_event_flows_total", dimensions: [("connection", "writer")])
    private static let flowsWithoutConnection = Counter(
        label: "coordinatord_event_flows_total", dimensions: [("connection", "none")])

    /// What one run of an event's flow made: the tree, the outcome, the snapshot to store, the
    /// token when it rotated, and the answer when it was rendered with the run (see `commit`).
    private struct FlowRun: Sendable {
        let tree: NavigationTree
        let outcome: EventOutcome
        let snapshot: [UInt8]
        /// The event's journal entry, made with the run (off the writer, for a run that is); nil
        /// with the journal off.
        let journal: JournalRecord?
        let newToken: String?
        let tokenHash: [UInt8]
        let answer: StoredAnswer?
        /// The user whose row the write must find (`FlowRunner.apply`'s `userToConfirm`).
        let userToConfirm: Int64?
        /// Set by the write: the session's journal listing as it left it.
        var journalListing: JournalListings.Listed?
        /// Set by the write: the run changed nothing (an `open` of what is shown), so nothing was stored.
        var unchanged = false
    }

    /// Runs the event's flow on `connection`, with models bound to it; renders the answer when
    /// `renderAnswer` or the answer is to be stored for its `Idempotency-Key`.
    private func runFlow(
        _ request: EventRequest, current: ResidentSession.State, now: Int64, _ connection: any SQLConnection,
        _ prepared: PreparedWork, renderAnswer: Bool, userCheckInWrite: Bool
    ) throws -> FlowRun {
        var tree = current.tree
        let info = RequestInfo(
            clientAddress: request.clientAddress, now: now, deviceToken: request.deviceToken, language: request.language)
        // The journal keeps the model writes the flow made, for `check-deploy` to compare.
        let recorder = configuration.journal.enabled ? WriteRecorder(connection) : nil
        let (outcome, snapshot, json, userToConfirm) = try flows.apply(
            request.event, to: &tree, on: recorder ?? connection, prepared, info, session: request.sessionID,
            userCheckInWrite: userCheckInWrite)
        let newToken = outcome.credentialsRotated ? Tokens.random() : nil
        let answer =
            renderAnswer || (request.idempotencyKey != nil && request.token != nil)
            ? Self.answer(
                app, tree, id: request.sessionID, version: current.version + 1, token: newToken,
                deviceToken: outcome.deviceToken, droppedLink: outcome.droppedLink) : nil
        return FlowRun(
            tree: tree, outcome: outcome, snapshot: snapshot,
            journal: configuration.journal.enabled
                ? journalRecord(
                    request, current: current, tree: tree,
                    snapshot: journalSnapshot(snapshot, json: json, over: current, version: current.version + 1), now: now,
                    writes: recorder?.journalText)
                : nil,
            newToken: newToken,
            tokenHash: newToken.map(Tokens.sha256) ?? current.tokenHash, answer: answer, userToConfirm: userToConfirm)
    }

    /// Stores what a flow made, on the writer: the session's new version over the one it was made
    /// from (or `ResidentCopyOutdated`), the sessions it ended, and the answer for its key. Returns
    /// the journal listing it knows stored (SQLite), which the next event need not store again.
    private func store(
        _ ran: FlowRun, of request: EventRequest, current: ResidentSession.State, now: Int64, trace: [String: String],
        _ connection: any SQLConnection
    ) throws -> JournalListings.Listed? {
        var listing: JournalListings.Listed?
        let identity =
            ran.tokenHash == current.tokenHash && ran.tree.user?.id == current.tree.user?.id
            ? nil : SessionIdentity(tokenHash: ran.tokenHash, userID: ran.tree.user?.id)
        let expiresAt = now + configuration.idleTimeoutSeconds
        // Sent after the commit, with it (queued first: the commit may come with the update below).
        try noticeOtherNodes(
            [.committed(request.sessionID, version: current.version + 1)]
                + ran.outcome.endedSessionsOfUsers.map { .endedUser($0, except: request.sessionID) }, connection, now: now)
        let settings = configuration.journal
        let write = EventWrite(
            session: request.sessionID, expectedVersion: current.version, snapshot: ran.snapshot, identity: identity,
            now: now, expiresAt: expiresAt, previousExpiresAt: current.storedExpiresAt,
            journal: ran.journal.map { record in
                EventWrite.Journaled(
                    record: record, node: settings.node, keep: settings.maxVersionsPerSession,
                    alreadyListed: record.user.map { journalListings.holds(current.journalListing, user: $0) } ?? false)
            },
            answer: answerToKeep(ran, of: request, now: now).map { ($0, configuration.maxIdempotencyKeysPerSession) },
            isLastStatement: ran.outcome.endedSessionsOfUsers.isEmpty && ran.outcome.forgottenUsers.isEmpty
                && ran.outcome.erasedMentions.isEmpty && ran.outcome.effects.isEmpty && request.event.delivery == nil,
            confirming: ran.userToConfirm.flatMap { user in flows.userRows.map { ($0, user) } })
        switch try tables.storeEvent(write, on: connection) {
        case .stored(let listedUser): listing = listedUser.map(journalListings.listed)
        case .versionMoved: throw ResidentCopyOutdated()
        case .userGone: throw UserUnconfirmed()
        // With a user to confirm, either condition may have failed: the run with the check first tells which.
        case .versionMovedOrUserGone: throw UserUnconfirmed()
        }
        for user in ran.outcome.endedSessionsOfUsers {
            try tables.deleteSessions(ofUser: user, except: request.sessionID, on: connection)
        }
        try forgetInJournal(ran.outcome.forgottenUsers, connection)
        try JournalErasure.request(ran.outcome.erasedMentions, tables, connection, now: now)
        for effect in ran.outcome.effects {
            try tables.insertEffect(effect.row(session: request.sessionID, trace: trace), now: now, on: connection)
        }
        if let delivery = request.event.delivery {
            // The result becomes this event once, however many nodes ran the effect.
            guard
                try tables.finishEffect(
                    id: delivery.result.id, owner: effects.owner, state: .delivered,
                    outcome: String(decoding: delivery.result.journaled.serialized(), as: UTF8.self), now: now,
                    on: connection)
            else { throw EffectTakenOver() }
        }
        return listing
    }

    /// The answer to keep for replay, when the request has an `Idempotency-Key`.
    private func answerToKeep(_ ran: FlowRun, of request: EventRequest, now: Int64) -> AnswerRow? {
        guard let answer = ran.answer, let key = request.idempotencyKey, let token = request.token else { return nil }
        return answer.row(
            session: request.sessionID, key: key, requestHash: request.requestHash, token: token,
            rotates: ran.outcome.credentialsRotated, now: now)
    }

    /// The answer to an event: the new State, with the new token when it rotated and the device
    /// token a flow gave the client to keep (`Context.giveDeviceToken`).
    private static func answer(
        _ app: NavigationApp, _ tree: NavigationTree, id: String, version: Int, token: String?, deviceToken: String?,
        droppedLink: DroppedLink? = nil
    ) -> StoredAnswer {
        var extra: [String: JSONValue] = ["id": .string(id), "version": .int(version)]
        if let token { extra["token"] = .string(token) }
        if let deviceToken { extra["deviceToken"] = .string(deviceToken) }
        if let droppedLink { extra["linkDropped"] = ["link": .string(droppedLink.link), "reason": .string(droppedLink.reason)] }
        return StoredAnswer(version: version, body: app.renderState(tree, extra: extra))
    }
}
