import Metrics
import Navigation

extension SessionService {
    /// The event pipeline: authenticate → replay a stored answer → (in order, one at a time per
    /// session) `If-Match` → top screen → decode and act → durable commit → answer. Counted by outcome.
    /// (Refusals are counted, by their problem type, where they are answered: the REST layer.)
    package nonisolated(nonsending) func post(_ request: EventRequest) async throws -> StoredAnswer {
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
    nonisolated(nonsending) func postOnce(_ request: EventRequest) async throws -> (StoredAnswer, replayed: Bool) {
        for _ in 0..<5 {
            switch try await authenticatedPost(request) {
            case .answered(let answer, let replayed): return (answer, replayed)
            case .sessionMoved: continue
            }
        }
        throw try await lostRace(request)
    }

    /// The `409` for an event that other events kept overtaking, with the state as stored now.
    func lostRace(_ request: EventRequest) async throws -> SessionError {
        // Not `forEvent`: on a shared store the resident copy is checked against the stored version.
        try await withSession(id: request.sessionID, token: request.token) { session in
            .staleScreen(
                state: render(session.current, id: session.id), version: session.current.version,
                detail: "Other events changed the session while this one was applied; it was not applied.")
        }
    }

    /// The authenticate stage, and for an `Idempotency-Key` the replay of its stored answer.
    nonisolated(nonsending) func authenticatedPost(_ request: EventRequest) async throws -> PostOutcome {
        guard let key = request.idempotencyKey, let token = request.token else {
            return try await withSession(id: request.sessionID, token: request.token, forEvent: true) {
                PostOutcome(try await apply(request, to: $0, tokenHash: $1))
            }
        }
        do {
            return try await withSession(id: request.sessionID, token: token, forEvent: true) { session, tokenHash in
                // The key is claimed before its stored answer is looked for: a request with this key
                // that finished stored its answer before it let go of the key, so one read finds it.
                // A claim that fails means another request holds the key: still running, or
                // replaying a finished one's answer (then this replays it too).
                guard idempotency.begin(session: request.sessionID, key: key) else {
                    if let replay = try await storedAnswer(request, key: key, token: token, rotatedOnly: false) {
                        return .answered(replay, replayed: true)
                    }
                    throw SessionError.idempotencyKeyInFlight
                }
                defer { idempotency.end(session: request.sessionID, key: key) }
                if let replay = try await storedAnswer(request, key: key, token: token, rotatedOnly: false) {
                    return .answered(replay, replayed: true)
                }
                return PostOutcome(try await apply(request, to: session, tokenHash: tokenHash))
            }
        } catch SessionError.unauthorized {
            // The token is not current. It may still replay the very request that rotated it
            // away (a client that lost that answer), and nothing else.
            guard let replay = try await storedAnswer(request, key: key, token: token, rotatedOnly: true) else {
                throw SessionError.unauthorized
            }
            return .answered(replay, replayed: true)
        }
    }

    func storedAnswer(_ request: EventRequest, key: String, token: String, rotatedOnly: Bool) async throws
        -> StoredAnswer?
    {
        let (session, hash, now) = (request.sessionID, request.requestHash, now())
        return try await read { [tables] in
            try StoredAnswer.find(
                tables, $0, session: session, key: key, requestHash: hash, token: token, rotatedOnly: rotatedOnly, now: now)
        }
    }
}
