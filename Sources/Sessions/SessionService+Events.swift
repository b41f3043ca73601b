import Metrics
import Navigation
import Store
import Secrets

/// An event as the REST layer hands it over.
struct EventRequest: Sendable {
    let sessionID: String
    let token: String?
    let event: IncomingEvent
    /// The version `If-Match` names, if the header was sent; nil inside means "matches nothing".
    let ifMatch: Int??
    let idempotencyKey: String?
    /// SHA-256 of the request body, to tell a retry from a different request with the same key.
    let requestHash: [UInt8]
    let clientAddress: String
}

/// The resident copy of a session is out of date (its stored version moved on, or it was
/// retired while this request waited): load it again and start over.
struct ResidentCopyOutdated: Error {}

extension SessionService {
    /// The event pipeline: authenticate → replay a stored answer → (in order, one at a time per
    /// session) `If-Match` → top screen → decode and act → durable commit → answer. Counted by outcome.
    func post(_ request: EventRequest) async throws -> StoredAnswer {
        do {
            let (answer, replayed) = try await postOnce(request)
            (replayed ? Self.replayedEvents : Self.appliedEvents).increment()
            return answer
        } catch {
            Counter(label: "coordinatord_events_refused_total", dimensions: [("reason", Self.reason(error))]).increment()
            throw error
        }
    }

    // Made on first use (after the metrics system is set up), not per event.
    private static let appliedEvents = Counter(label: "coordinatord_events_total", dimensions: [("outcome", "applied")])
    private static let replayedEvents = Counter(label: "coordinatord_events_total", dimensions: [("outcome", "replayed")])

    /// Retries when the resident copy turned out to be outdated (a few times at most: each retry
    /// starts from the stored version, so it fails again only if yet another event won meanwhile).
    private func postOnce(_ request: EventRequest) async throws -> (StoredAnswer, replayed: Bool) {
        for _ in 0..<5 {
            do {
                return try await authenticatedPost(request)
            } catch is ResidentCopyOutdated {
                continue
            }
        }
        throw SessionError.storageUnavailable("the session kept changing; retry")
    }

    private func authenticatedPost(_ request: EventRequest) async throws -> (StoredAnswer, replayed: Bool) {
        guard let key = request.idempotencyKey, let token = request.token else {
            return (
                try await withSession(id: request.sessionID, token: request.token, forEvent: true) {
                    try await apply(request, to: $0)
                }, false
            )
        }
        do {
            return try await withSession(id: request.sessionID, token: token, forEvent: true) { session in
                if let replay = try await storedAnswer(request, key: key, token: token, rotatedOnly: false) {
                    return (replay, true)
                }
                guard idempotency.begin(session: request.sessionID, key: key) else {
                    throw SessionError.idempotencyKeyInFlight
                }
                defer { idempotency.end(session: request.sessionID, key: key) }
                // The first request may have finished between the check and `begin`.
                if let replay = try await storedAnswer(request, key: key, token: token, rotatedOnly: false) {
                    return (replay, true)
                }
                return (try await apply(request, to: session), false)
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
        return try await read {
            try StoredAnswer.find(
                $0, session: session, key: key, requestHash: hash, token: token, rotatedOnly: rotatedOnly, now: now)
        }
    }

    private func apply(_ request: EventRequest, to session: ResidentSession) async throws -> StoredAnswer {
        try await session.lock.withLock {
            let current = session.current
            if current.retired { throw ResidentCopyOutdated() }
            let now = now()
            guard current.expiresAt >= now else { throw SessionError.unauthorized }  // deleted while we waited
            if let expected = request.ifMatch, expected != current.version {
                try await ensureCurrent(session, version: current.version)
                throw SessionError.versionMismatch(state: render(current, id: session.id), current: current.version)
            }
            guard current.tree.top?.id == request.event.screen else {
                try await ensureCurrent(session, version: current.version)
                throw SessionError.staleScreen(
                    state: render(current, id: session.id),
                    detail: EventRejection.notTopScreen(screen: request.event.screen, top: current.tree.top?.id).detail)
            }
            let applied: Applied
            do {
                applied = try await commit(request, current: current, now: now)
            } catch is ResidentCopyOutdated {
                retire(session)
                throw ResidentCopyOutdated()
            } catch {
                // A refusal (an app's 422, say) is judged on the current state, as 409 and 412 are.
                try await ensureCurrent(session, version: current.version)
                throw error
            }
            session.update {
                $0.tree = applied.tree
                $0.version = current.version + 1
                $0.tokenHash = applied.tokenHash
                $0.expiresAt = now + configuration.idleTimeoutSeconds
                $0.storedExpiresAt = $0.expiresAt
                $0.touched = false
            }
            if applied.tokenHash != current.tokenHash {
                cache.retoken(session.id, from: current.tokenHash, to: applied.tokenHash)
            }
            if !applied.endedSessionsOfUsers.isEmpty {
                for other in cache.sessions(ofUsers: applied.endedSessionsOfUsers) where other !== session {
                    retire(other)
                }
            }
            return applied.answer
        }
    }

    private struct Applied: Sendable {
        let tree: NavigationTree
        let tokenHash: [UInt8]
        let answer: StoredAnswer
        let endedSessionsOfUsers: Set<Int64>
    }

    /// Applies the event inside the writer: coordinators act with models bound to the writer's
    /// connection, then the snapshot (and, for an `Idempotency-Key`, the answer) are stored in the
    /// same savepoint, with the other sessions the event ended deleted. Without a key the answer
    /// is rendered after the commit, off the writer.
    private func commit(_ request: EventRequest, current: ResidentSession.State, now: Int64) async throws -> Applied {
        let (app, configuration) = (self.app, self.configuration)
        let newToken = Tokens.random()
        let newTokenHash = Tokens.sha256(newToken)
        let info = RequestInfo(clientAddress: request.clientAddress, now: now)
        let version = current.version + 1
        let (tree, outcome, stored) = try await withPreparations { prepared in
            try await self.write { connection -> (NavigationTree, EventOutcome, StoredAnswer?) in
                var tree = current.tree
                let environment = self.environment(connection, prepared, info, session: request.sessionID)
                let outcome = try app.apply(request.event, to: &tree, environment: environment)
                let tokenHash = outcome.credentialsRotated ? newTokenHash : current.tokenHash
                guard
                    try SessionSQL.update(
                        connection, id: request.sessionID, expectedVersion: current.version,
                        snapshot: Self.snapshot(app, tree, maxBytes: configuration.maxSnapshotBytes),
                        tokenHash: tokenHash, userID: tree.user?.id, now: now,
                        expiresAt: now + configuration.idleTimeoutSeconds, previousExpiresAt: current.storedExpiresAt)
                else { throw ResidentCopyOutdated() }
                for user in outcome.endedSessionsOfUsers {
                    try SessionSQL.deleteSessions(connection, ofUser: user, except: request.sessionID)
                }
                guard let key = request.idempotencyKey, let token = request.token else { return (tree, outcome, nil) }
                let answer = Self.answer(
                    app, tree, id: request.sessionID, version: version, token: outcome.credentialsRotated ? newToken : nil)
                try answer.store(
                    connection, session: request.sessionID, key: key, requestHash: request.requestHash, token: token,
                    rotates: outcome.credentialsRotated, now: now, keep: configuration.maxIdempotencyKeysPerSession)
                return (tree, outcome, answer)
            }
        }
        let rotated = outcome.credentialsRotated
        let answer = stored ?? Self.answer(app, tree, id: request.sessionID, version: version, token: rotated ? newToken : nil)
        return Applied(
            tree: tree, tokenHash: rotated ? newTokenHash : current.tokenHash, answer: answer,
            endedSessionsOfUsers: outcome.endedSessionsOfUsers)
    }

    /// The answer to an event: the new State, with the new token when it rotated.
    private static func answer(_ app: NavigationApp, _ tree: NavigationTree, id: String, version: Int, token: String?)
        -> StoredAnswer
    {
        var extra: [String: JSONValue] = ["id": .string(id), "version": .int(version)]
        if let token { extra["token"] = .string(token) }
        return StoredAnswer(version: version, body: app.renderState(tree, extra: extra))
    }

    /// The label an event refusal is counted under in `/metrics`.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as SessionError: error.reason
        case let rejection as EventRejection: rejection.reason
        case is EventThrottled: "throttled"
        case is PasswordPoolBusy: "password_queue_full"
        default: "error"
        }
    }
}
