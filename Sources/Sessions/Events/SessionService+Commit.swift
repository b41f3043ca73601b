import Metrics
import Navigation
import Store

extension SessionService {
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
    /// check first (`WriteRefusal.userUnconfirmed`): a user gone starts the session over signed out, as
    /// before, and a refusal is judged as the user it is for.
    nonisolated(nonsending) func commit(
        _ request: EventRequest, current: ResidentSession.State, now: Int64, lasting: LastingWritesLog
    ) async throws -> CommitOutcome {
        // The closures below reach the session as the event found it through one reference: each
        // that captured the struct itself copied it, retaining its tree, snapshot and token hash.
        let found = FoundState(current)
        let run = {
            @Sendable (connection: any SQLConnection, prepared: PreparedWork, onReader: Bool, userCheckInWrite: Bool) throws
                -> FlowRun in
            do {
                return try self.runFlow(
                    request, current: found.state, now: now, connection, prepared, renderAnswer: onReader,
                    userCheckInWrite: userCheckInWrite)
            } catch let error where userCheckInWrite && !FlowRunner.asksForWork(error) {
                throw WriteRefusal.userUnconfirmed
            }
        }
        // The request's trace, for the effects the event stores (their runs continue it).
        let trace = Traced.carrier()
        // `open` of what the session shows already changes nothing: no version, no entry.
        let changesNothing = { @Sendable (ran: FlowRun) -> Bool in
            request.event.name == SystemEvent.open.name && ran.snapshot == found.state.snapshot && ran.newToken == nil
                && ran.outcome.asksNothingElse
        }
        let keep = { @Sendable (ran: FlowRun, connection: any SQLConnection) throws -> FlowRun in
            var ran = ran
            if changesNothing(ran) {
                ran.unchanged = true
                return ran
            }
            ran.journalListing = try self.store(ran, of: request, current: found.state, now: now, trace: trace, connection)
            return ran
        }
        // Once a run tried to read (or write), the rounds after a preparation skip the attempts
        // that could not serve it; so does an event that read when it last ran.
        let hint = ConnectionHints.Key(screen: current.tree.topIdentity?.name ?? "", event: request.event.name)
        var (needsConnection, needsWriter) = (connectionHints.reads(hint), false)
        var userCheckInWrite = app.userTable != nil && current.tree.user != nil
        // One attempt: the flow where it needs to run, and the write; a write refused is a value.
        nonisolated(nonsending) func attempt(_ prepared: PreparedWork) async throws -> AttemptOutcome {
            do {
                return .stored(try await runAndStore(prepared))
            } catch let refusal as WriteRefusal {
                return .refused(refusal)
            }
        }
        nonisolated(nonsending) func runAndStore(_ prepared: PreparedWork) async throws -> FlowRun {
            let inWrite = userCheckInWrite
            if !needsConnection {
                let unused = UnusedConnection(dialect: store.dialect)
                let outcome = Traced.span("flow") { Result { try run(unused, prepared, true, inWrite) } }
                if !unused.wasNeeded {
                    let ran = try outcome.get()
                    guard !changesNothing(ran), storesNothingElse(ran, of: request) else {
                        return try await Traced.span("commit") { try await self.write { try keep(ran, $0) } }
                    }
                    // Its write is all it stores: it may go with other sessions' events (PostgreSQL's group commit).
                    var stored = ran
                    stored.journalListing = try await Traced.span("commit") {
                        try await self.storeAlone(ran, of: request, current: found.state, now: now)
                    }
                    return stored
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
        let outcome = try await flows.withPreparations(client: request.clientAddress, lasting: lasting) {
            prepared -> AttemptOutcome in
            // The declared stage, once: what the handler says it needs is prepared first (its
            // work thrown, done, then asked again), so that the flow runs once, where it says.
            if !declared {
                let access = try await Traced.span("declare") {
                    try await self.declaredAccess(request, current: found.state, now: now, hint: hint, prepared)
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
                let first = try await attempt(prepared)
                guard case .refused(.userUnconfirmed) = first else { return first }
                (userCheckInWrite, needsConnection) = (false, true)
            }
            return try await attempt(prepared)
        }
        // Without the user check in the write, only the version can have moved.
        guard case .stored(let ran) = outcome else { return .sessionMoved }
        (!needsConnection ? Self.flowsWithoutConnection : needsWriter ? Self.flowsOnWriter : Self.flowsOffWriter)
            .increment()
        if ran.unchanged {
            let answer = Self.answer(app, current.tree, id: request.sessionID, version: current.version, token: nil, deviceToken: nil)
            return .applied(
                Applied(
                    tree: current.tree, snapshot: current.snapshot, tokenHash: current.tokenHash, answer: answer,
                    endedSessionsOfUsers: [], journalListing: current.journalListing, journalBytes: 0, state: nil,
                    unchanged: true))
        }
        let answer =
            ran.answer
            ?? Self.answer(
                app, ran.tree, id: request.sessionID, version: current.version + 1, token: ran.newToken,
                deviceToken: ran.outcome.deviceToken, droppedLink: ran.outcome.droppedLink)
        return .applied(
            Applied(
                tree: ran.tree, snapshot: ran.snapshot, tokenHash: ran.tokenHash, answer: answer,
                endedSessionsOfUsers: ran.outcome.endedSessionsOfUsers, journalListing: ran.journalListing,
                journalBytes: ran.journal?.byteCount ?? 0,
                state: ran.newToken == nil && ran.outcome.deviceToken == nil && ran.outcome.droppedLink == nil
                    ? answer.body : nil,
                storedEffects: !ran.outcome.effects.isEmpty))
    }

    // Made on first use (after the metrics system is set up), not per event.
    static let journalBytes = Counter(label: "coordinatord_journal_bytes_written_total")
    static let flowsOffWriter = Counter(
        label: "coordinatord_event_flows_total", dimensions: [("connection", "read_only")])
    static let flowsOnWriter = Counter(label: "coordinatord_event_flows_total", dimensions: [("connection", "writer")])
    static let flowsWithoutConnection = Counter(
        label: "coordinatord_event_flows_total", dimensions: [("connection", "none")])
}

/// A session's state as an event found it, shared by reference among the stages of its commit.
final class FoundState: Sendable {
    let state: ResidentSession.State
    init(_ state: ResidentSession.State) { self.state = state }
}
