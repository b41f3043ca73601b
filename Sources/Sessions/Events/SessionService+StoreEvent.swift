import Navigation
import SessionStorage
import Store

extension SessionService {
    /// Stores what a flow made, on the writer: the session's new version over the one it was made
    /// from (or `WriteRefusal`, which rolls the write back), the sessions it ended, and the answer for its key. Returns
    /// the journal listing it knows stored (SQLite), which the next event need not store again.
    func store(
        _ ran: FlowRun, of request: EventRequest, current: ResidentSession.State, now: Int64, trace: [String: String],
        _ connection: any SQLConnection
    ) throws -> JournalListings.Listed? {
        // Sent after the commit, with it (queued first: the commit may come with the update below).
        try noticeOtherNodes(
            [.committed(request.sessionID, version: current.version + 1)]
                + ran.outcome.endedSessionsOfUsers.map { .endedUser($0, except: request.sessionID) }, connection, now: now)
        let listing = try listing(
            of: try tables.storeEvent(eventWrite(ran, of: request, current: current, now: now), on: connection))
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
                    outcome: delivery.result.journaled.serializedString, now: now,
                    on: connection)
            else { throw EffectTakenOver() }
        }
        return listing
    }

    /// Stores what a flow made when that is all its write holds (it ran without a connection, and
    /// `storesNothingElse`), through the persistence's `storeEventAlone`: on PostgreSQL, in one
    /// transaction with the other sessions' events waiting at the same time. Returns what `store`
    /// does; a refusal is `WriteRefusal`.
    nonisolated(nonsending) func storeAlone(
        _ ran: FlowRun, of request: EventRequest, current: ResidentSession.State, now: Int64
    ) async throws -> JournalListings.Listed? {
        let write = eventWrite(ran, of: request, current: current, now: now)
        // Made only where other nodes hear of commits (not per event on SQLite).
        let notice =
            tables.liveNotices == nil ? nil : LiveNotice.committed(request.sessionID, version: current.version + 1).payload
        let outcome = try await storage("write") { try await tables.storeEventAlone(write, notice: notice, in: store) }
        return try listing(of: outcome)
    }

    /// True when nothing else the event did is stored after its write (no sessions it ended, no
    /// effects, no delivered result, nothing forgotten or erased).
    func storesNothingElse(_ ran: FlowRun, of request: EventRequest) -> Bool {
        ran.outcome.endedSessionsOfUsers.isEmpty && ran.outcome.forgottenUsers.isEmpty && ran.outcome.erasedMentions.isEmpty
            && ran.outcome.effects.isEmpty && request.event.delivery == nil
    }

    /// What the event's write stores.
    private func eventWrite(_ ran: FlowRun, of request: EventRequest, current: ResidentSession.State, now: Int64)
        -> EventWrite
    {
        let identity =
            ran.tokenHash == current.tokenHash && ran.tree.user?.id == current.tree.user?.id
            ? nil : SessionIdentity(tokenHash: ran.tokenHash, userID: ran.tree.user?.id)
        let settings = configuration.journal
        return EventWrite(
            session: request.sessionID, expectedVersion: current.version, snapshot: ran.snapshot, identity: identity,
            now: now, expiresAt: now + configuration.idleTimeoutSeconds, previousExpiresAt: current.storedExpiresAt,
            journal: ran.journal.map { record in
                EventWrite.Journaled(
                    record: record, node: settings.node, keep: settings.maxVersionsPerSession,
                    alreadyListed: record.user.map { journalListings.holds(current.journalListing, user: $0) } ?? false)
            },
            answer: answerToKeep(ran, of: request, now: now).map { ($0, configuration.maxIdempotencyKeysPerSession) },
            isLastStatement: storesNothingElse(ran, of: request),
            confirming: ran.userToConfirm.flatMap { user in flows.userRows.map { ($0, user) } })
    }

    /// The journal listing a stored write leaves known; a refused one is `WriteRefusal`.
    private func listing(of outcome: EventWriteOutcome) throws -> JournalListings.Listed? {
        switch outcome {
        case .stored(let listedUser): return listedUser.map(journalListings.listed)
        case .versionMoved: throw WriteRefusal.versionMoved
        case .userGone: throw WriteRefusal.userUnconfirmed
        // With a user to confirm, either condition may have failed: the run with the check first tells which.
        case .versionMovedOrUserGone: throw WriteRefusal.userUnconfirmed
        }
    }

    /// The answer to keep for replay, when the request has an `Idempotency-Key`.
    func answerToKeep(_ ran: FlowRun, of request: EventRequest, now: Int64) -> AnswerRow? {
        guard let answer = ran.answer, let key = request.idempotencyKey, let token = request.token else { return nil }
        return answer.row(
            session: request.sessionID, key: key, requestHash: request.requestHash, token: token,
            rotates: ran.outcome.credentialsRotated, now: now)
    }
}
