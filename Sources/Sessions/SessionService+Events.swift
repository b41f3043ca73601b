import Navigation
import SQLiteStore
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

extension SessionService {
    /// The event pipeline: replay → authenticate → (in order, one at a time per session)
    /// `If-Match` → top screen → decode and act → durable commit → answer.
    func post(_ request: EventRequest) async throws -> StoredAnswer {
        guard let key = request.idempotencyKey, let token = request.token else {
            return try await apply(request)
        }
        if let replay = try await storedAnswer(request, key: key, token: token) { return replay }
        guard idempotency.begin(session: request.sessionID, key: key) else { throw SessionError.idempotencyKeyInFlight }
        defer { idempotency.end(session: request.sessionID, key: key) }
        // The first request may have finished between the check and `begin`.
        if let replay = try await storedAnswer(request, key: key, token: token) { return replay }
        return try await apply(request)
    }

    private func storedAnswer(_ request: EventRequest, key: String, token: String) async throws -> StoredAnswer? {
        let (session, hash) = (request.sessionID, request.requestHash)
        return try await read { try StoredAnswer.find($0, session: session, key: key, requestHash: hash, token: token) }
    }

    private func apply(_ request: EventRequest) async throws -> StoredAnswer {
        let session = try await authenticate(id: request.sessionID, token: request.token)
        return try await session.lock.withLock {
            let current = session.current
            let now = Self.now()
            guard current.expiresAt >= now else { throw SessionError.unauthorized }  // deleted while we waited
            if let expected = request.ifMatch, expected != current.version {
                throw SessionError.versionMismatch(state: render(current, id: session.id), current: current.version)
            }
            guard current.tree.top?.id == request.event.screen else {
                throw SessionError.staleScreen(
                    state: render(current, id: session.id),
                    detail: EventRejection.notTopScreen(screen: request.event.screen, top: current.tree.top?.id).detail)
            }
            let applied = try await commit(request, current: current, now: now)
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
            return applied.answer
        }
    }

    private struct Applied: Sendable {
        let tree: NavigationTree
        let tokenHash: [UInt8]
        let answer: StoredAnswer
    }

    /// Applies the event inside the writer: coordinators act with models bound to the writer's
    /// connection, then the snapshot (and, for an `Idempotency-Key`, the answer) are stored in the
    /// same savepoint. Without a key the answer is rendered after the commit, off the writer.
    private func commit(_ request: EventRequest, current: ResidentSession.State, now: Int64) async throws -> Applied {
        let (app, makeEnvironment, configuration) = (self.app, self.makeEnvironment, self.configuration)
        let newToken = Tokens.random()
        let newTokenHash = Tokens.sha256(newToken)
        let info = RequestInfo(clientAddress: request.clientAddress, now: now)
        let version = current.version + 1
        let (tree, rotated, stored) = try await withPreparedPasswords { prepared in
            try await self.write { connection -> (NavigationTree, Bool, StoredAnswer?) in
                var tree = current.tree
                let outcome = try app.apply(request.event, to: &tree, environment: makeEnvironment(connection, prepared, info))
                let tokenHash = outcome.credentialsRotated ? newTokenHash : current.tokenHash
                guard
                    try SessionSQL.update(
                        connection, id: request.sessionID, expectedVersion: current.version, snapshot: app.snapshot(tree),
                        tokenHash: tokenHash, userID: tree.user?.id, now: now,
                        expiresAt: now + configuration.idleTimeoutSeconds, previousExpiresAt: current.storedExpiresAt)
                else { throw SessionError.notFound }
                guard let key = request.idempotencyKey, let token = request.token else {
                    return (tree, outcome.credentialsRotated, nil)
                }
                let answer = Self.answer(app, tree, id: request.sessionID, version: version,
                    token: outcome.credentialsRotated ? newToken : nil)
                try answer.store(connection, session: request.sessionID, key: key, requestHash: request.requestHash, token: token, now: now)
                return (tree, outcome.credentialsRotated, answer)
            }
        }
        let answer = stored ?? Self.answer(app, tree, id: request.sessionID, version: version, token: rotated ? newToken : nil)
        return Applied(tree: tree, tokenHash: rotated ? newTokenHash : current.tokenHash, answer: answer)
    }

    /// The answer to an event: the new State, with the new token when it rotated.
    private static func answer(_ app: NavigationApp, _ tree: NavigationTree, id: String, version: Int, token: String?)
        -> StoredAnswer
    {
        var extra: [String: JSONValue] = ["id": .string(id), "version": .int(version)]
        if let token { extra["token"] = .string(token) }
        return StoredAnswer(version: version, body: app.renderState(tree, extra: extra))
    }
}
