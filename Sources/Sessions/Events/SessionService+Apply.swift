import Metrics
import Navigation
import Secrets

extension SessionService {
    /// The apply stage: under the session's lock, the checks against the resident copy (token,
    /// expiry, `If-Match`, top screen), the commit, then memory and live streams updated.
    /// - Parameter tokenHash: the hash of `request.token`, which authenticated `session`.
    nonisolated(nonsending) func apply(
        _ request: EventRequest, to session: ResidentSession, tokenHash: [UInt8]
    ) async throws -> ApplyOutcome {
        try await session.lock.withLock {
            let current = session.current
            if current.retired { return .sessionMoved }
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
                guard try await isCurrent(session, version: current.version) else { return .sessionMoved }
                throw SessionError.versionMismatch(state: render(current, id: session.id), current: current.version)
            }
            guard delivered || current.tree.topIdentity?.id == request.event.screen else {
                guard try await isCurrent(session, version: current.version) else { return .sessionMoved }
                throw SessionError.staleScreen(
                    state: render(current, id: session.id), version: current.version,
                    detail: EventRejection.notTopScreen(
                        screen: request.event.screen, top: current.tree.topIdentity?.id
                    ).detail)
            }
            let committed: CommitOutcome
            let lasting = LastingWritesLog()
            do {
                committed = try await commit(request, current: current, now: now, lasting: lasting)
            } catch {
                // A refusal (an app's 422, say) is judged on the current state, as 409 and 412 are.
                guard try await isCurrent(session, version: current.version) else { return .sessionMoved }
                // It stands: what the flow wrote to outlast it (a failed password check) commits now.
                try await lasting.commit { try await self.write($0) }
                throw error
            }
            guard case .applied(let applied) = committed else {
                retire(session)
                return .sessionMoved
            }
            if applied.unchanged { return .answered(applied.answer) }
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
            return .answered(applied.answer)
        }
    }

    struct Applied: Sendable {
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
}
