import Navigation
import Sessions

/// An effect a flow asked for (`Context.perform`) that has not finished yet.
public struct PendingEffect: Sendable, Hashable {
    /// Its idempotency key, as its handler gets it (`effect-1`, `effect-2`, … in a tester).
    public let id: String
    /// The effect's `name`.
    public let name: String
    /// The effect's value, encoded.
    public let request: JSONValue
    /// The coordinator its result goes to, then its ancestors (the first still running gets it).
    public let coordinators: [CoordinatorID]
    /// Runs so far.
    public internal(set) var attempts = 0

    init(id: String, requested: RequestedEffect) {
        self.id = id
        self.name = requested.name
        self.request = requested.request
        self.coordinators = requested.coordinators
    }

    /// The request typed as effect `E`, or nil when it is another effect.
    public func request<E: Effect>(as type: E.Type) throws -> E? {
        name == E.name ? try JSONValue.decode(E.self, from: request) : nil
    }
}

extension AppTester {
    /// Runs `run` instead of the app's handler for effect `E` in this session (a payment
    /// service's stand-in, say). It may throw an `EffectFailure` to test the coordinator's side of
    /// a failure: a retryable one stays pending until its attempts are used up.
    public mutating func fakeEffect<E: Effect>(
        _ type: E.Type, _ run: @escaping @Sendable (E, EffectAttempt) async throws -> E.Result
    ) {
        effectHandlers = effectHandlers.handling(type, run)
    }

    /// Runs every pending effect once, oldest first, with the app's handler or the test's fake,
    /// as the server does after the commit that stored it: a success or a final failure (an
    /// `EffectFailure.permanent`, or the effect's last attempt) is handed to the coordinator that
    /// asked, as an event of the session (its `effectFinished`; one more version); a retryable
    /// failure stays pending for the next call. Returns the results handed back, in order.
    @discardableResult
    public mutating func runEffects() async throws -> [EffectResult] {
        var finished: [EffectResult] = []
        var stillPending: [PendingEffect] = []
        // Effects the deliveries ask for join `pendingEffects` for the next call.
        let batch = pendingEffects
        pendingEffects = []
        for var effect in batch {
            effect.attempts += 1
            let outcome: EffectResult.Outcome
            if let handler = effectHandlers.entries[effect.name] {
                let attempt = EffectAttempt(idempotencyKey: effect.id, number: effect.attempts, session: sessionID)
                do {
                    outcome = .succeeded(try await handler.run(effect.request, attempt))
                } catch {
                    let failure = error as? EffectFailure ?? .retryable("\(error)")
                    if failure.retryable, effect.attempts < handler.retry.maxAttempts {
                        stillPending.append(effect)
                        continue
                    }
                    outcome = .failed(reason: failure.reason, attempts: effect.attempts)
                }
            } else {
                outcome = .failed(reason: "no handler is registered for effect \(effect.name)", attempts: effect.attempts)
            }
            let result = EffectResult(id: effect.id, name: effect.name, request: effect.request, outcome: outcome)
            try await deliver(EffectDelivery(coordinators: effect.coordinators, result: result))
            finished.append(result)
        }
        pendingEffects = stillPending + pendingEffects
        return finished
    }

    /// Hands `delivery` to its coordinator as the server does: an event of the session, in a
    /// transaction of its own; nothing changes when that coordinator and its ancestors are gone.
    private mutating func deliver(_ delivery: EffectDelivery) async throws {
        let (flows, database, id, tree) = (shared.flows, shared.database, sessionID, self.tree)
        let info = RequestInfo(clientAddress: "", now: clock.now)
        do {
            let (applied, outcome) = try await flows.withPreparations(client: "") { prepared in
                try database.transaction {
                    var working = tree
                    let outcome = try flows.apply(
                        IncomingEvent(delivering: delivery), to: &working, on: database, prepared, info, session: id
                    ).outcome
                    return (working, outcome)
                }
            }
            self.tree = applied
            version += 1
            pendingEffects += outcome.effects.map { PendingEffect(id: shared.newEffectID(), requested: $0) }
        } catch is EffectUndeliverable {
            return
        }
    }
}
