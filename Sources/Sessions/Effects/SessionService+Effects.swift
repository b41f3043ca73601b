import Metrics
import Navigation
import SessionStorage
import Store

/// Running effects (`Context.perform`) and handing their results back: the lifecycle is in
/// `docs/architecture.md`, "Effects".
extension SessionService {
    /// Runs every effect due now, up to `batch` side by side, until none is due; returns how
    /// many runs it made. The server calls it when a commit stored effects and every
    /// `--effect-interval`; tests call it through `POST /test/effects`.
    package func runDueEffects(batch: Int = 32) async -> Int {
        var runs = 0
        while true {
            let (now, owner, lease, tables) = (now(), effects.owner, configuration.effectLeaseSeconds, self.tables)
            let claimed: [ClaimedEffect]
            do {
                guard try await read({ try tables.anyEffectDue(now: now, on: $0) }) else { return runs }
                claimed = try await write {
                    try tables.claimDueEffects(owner: owner, now: now, leaseUntil: now + lease, limit: batch, on: $0)
                }.map(ClaimedEffect.init)
            } catch {
                logger.error("claiming effects failed", metadata: ["error": "\(error)"])
                return runs
            }
            guard !claimed.isEmpty else { return runs }
            await withTaskGroup(of: Void.self) { group in
                for effect in claimed { group.addTask { await self.run(effect) } }
            }
            runs += claimed.count
        }
    }

    /// Runs effects when a commit stored some, and every `interval` (retries that came due,
    /// effects of a node that died); nil: only when woken. Ends when the task is cancelled.
    package func startRunningEffects(every interval: Duration?) -> Task<Void, Never> {
        let effects = self.effects
        let ticker = interval.map { interval in
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    effects.wake()
                }
            }
        }
        return Task { [self] in
            for await _ in effects.wakes {
                if Task.isCancelled { break }
                _ = await runDueEffects()
            }
            ticker?.cancel()
        }
    }

    /// At start, before the server listens: wakes the runner when effects are due already (a
    /// restart), after one read. A server with none does no work of its own once it listens, so
    /// the first requests it serves find the store as they left it (and tests that count round
    /// trips count only theirs). A read that fails wakes the runner, which retries and logs.
    package func wakeEffectsDueAtStart() async {
        let (now, tables) = (now(), self.tables)
        let due = (try? await read { try tables.anyEffectDue(now: now, on: $0) }) ?? true
        if due { effects.wake() }
    }

    /// Ends every effect lease at start on a store only this process uses: the leases are a dead
    /// process's, so what it was running runs again now rather than when they end.
    package func releaseDeadLeases() async {
        guard !store.isShared else { return }
        do {
            guard try await read({ [tables] in try tables.anyEffectLeased(on: $0) }) else { return }
            let released = try await write { [tables] in try tables.releaseEffectLeases(on: $0) }
            if released > 0 { logger.info("effects of the last run taken over", metadata: ["count": "\(released)"]) }
        } catch {
            logger.error("releasing effect leases failed", metadata: ["error": "\(error)"])
        }
    }

    /// Effects not finished yet.
    package func pendingEffects() async throws -> Int {
        try await read { [tables] in try tables.pendingEffectsByName(on: $0) }.reduce(0) { $0 + $1.count }
    }

    /// One run of `effect`'s handler: its result (or its final failure) is delivered; a failure
    /// it may outgrow is tried again after the effect's backoff.
    private func run(_ effect: ClaimedEffect) async {
        guard let handler = effects.handlers.entries[effect.name] else {
            Self.runs("failed").increment()
            logger.error("no handler for an effect", metadata: ["effect": "\(effect.name)"])
            return await deliver(
                effect, .failed(reason: "no handler is registered for effect \(effect.name)", attempts: effect.attempt))
        }
        let attempt = EffectAttempt(idempotencyKey: effect.id, number: effect.attempt, session: effect.session)
        do {
            let result = try await Traced.span(
                "effect \(effect.name)", ofKind: .client, continuing: effect.trace,
                attributes: ["effect.id": effect.id, "effect.attempt": "\(effect.attempt)"]
            ) {
                try await Self.withinLease(configuration.effectLeaseSeconds) { try await handler.run(effect.request, attempt) }
            }
            Self.runs("succeeded").increment()
            await deliver(effect, .succeeded(result))
        } catch {
            let failure = error as? EffectFailure ?? .retryable("\(error)")
            guard failure.retryable, effect.attempt < handler.retry.maxAttempts else {
                Self.runs("failed").increment()
                return await deliver(effect, .failed(reason: failure.reason, attempts: effect.attempt))
            }
            Self.runs("retried").increment()
            await retry(effect, after: handler.retry.delay(afterAttempt: effect.attempt), because: failure.reason)
        }
    }

    /// `run`'s result, or a retryable failure once it has run for the lease (it is cancelled then):
    /// past its lease another node may run the effect again, and a hung handler must not hold
    /// this node's runner for good.
    private static func withinLease(
        _ seconds: Int64, _ run: @escaping @Sendable () async throws -> JSONValue
    ) async throws -> JSONValue {
        try await withThrowingTaskGroup(of: JSONValue?.self) { group in
            group.addTask { try await run() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next(), let value = result else {
                throw EffectFailure.retryable("the handler ran past the effect's lease (\(seconds) s)")
            }
            return value
        }
    }

    /// Gives `effect` back to run again in `delay` seconds.
    private func retry(_ effect: ClaimedEffect, after delay: Int64, because reason: String) async {
        let (owner, dueAt) = (effects.owner, now() + delay)
        logger.info(
            "effect failed; trying again",
            metadata: ["effect": "\(effect.name)", "attempt": "\(effect.attempt)", "reason": "\(reason)"])
        do {
            try await write { [tables] in
                try tables.rescheduleEffect(id: effect.id, owner: owner, dueAt: dueAt, error: reason, on: $0)
            }
        } catch {
            // The lease ends on its own; the effect runs again then.
            logger.error("rescheduling an effect failed", metadata: ["error": "\(error)"])
        }
    }

    /// Hands `outcome` to the coordinator that asked, as an event of its session committed with
    /// the effect's end (`SessionPersistence.finishEffect`); drops it when nobody is left to tell.
    private func deliver(_ effect: ClaimedEffect, _ outcome: EffectResult.Outcome) async {
        let result = EffectResult(id: effect.id, name: effect.name, request: effect.request, outcome: outcome)
        let request = EventRequest(
            sessionID: effect.session, token: nil,
            event: IncomingEvent(delivering: EffectDelivery(coordinators: effect.coordinators, result: result)),
            ifMatch: nil, idempotencyKey: nil, requestHash: [], clientAddress: "")
        // A few rounds: another event (on another node, say) may move the session on meanwhile.
        for _ in 0..<5 {
            do {
                guard let row = try await read({ [tables] in try tables.loadSession(id: effect.session, on: $0) }),
                    let session = try await load(effect.session, tokenHash: row.tokenHash, forEvent: true)
                else { return await drop(result, because: "the session ended") }
                defer { session.release() }
                switch try await apply(request, to: session, tokenHash: row.tokenHash) {
                case .answered:
                    Self.finished("delivered").increment()
                    return
                case .sessionMoved: continue
                }
            } catch SessionError.unauthorized {
                return await drop(result, because: "the session ended")
            } catch is EffectUndeliverable {
                return await drop(result, because: "the coordinator that asked for it and its ancestors are gone")
            } catch is EffectTakenOver {
                logger.info("an effect was finished by another node", metadata: ["effect": "\(effect.name)"])
                return
            } catch let error as SessionError {
                // Storage, or a shutdown: the effect runs again once its lease ends.
                logger.error("delivering an effect's result failed", metadata: ["error": "\(error)"])
                return
            } catch {
                // The coordinator's `effectFinished` failed: trying again cannot help.
                return await drop(result, because: "its coordinator failed to take the result: \(error)")
            }
        }
        logger.warning("delivering an effect's result kept losing to other events", metadata: ["effect": "\(effect.name)"])
    }

    /// Finishes `result`'s effect without an event: nobody is left to tell.
    private func drop(_ result: EffectResult, because reason: String) async {
        let (owner, now) = (effects.owner, now())
        logger.warning("effect result dropped", metadata: ["effect": "\(result.name)", "reason": "\(reason)"])
        var members = result.journaled.objectValue ?? [:]
        members["dropped"] = .string(reason)
        let outcome = JSONValue.object(members).serializedString
        do {
            let finished = try await write { [tables] in
                try tables.finishEffect(id: result.id, owner: owner, state: .dropped, outcome: outcome, now: now, on: $0)
            }
            if finished {
                Self.finished("dropped").increment()
            }
        } catch {
            logger.error("dropping an effect's result failed", metadata: ["error": "\(error)"])
        }
    }

    private static func runs(_ outcome: String) -> Counter {
        Counter(label: "coordinatord_effect_runs_total", dimensions: [("outcome", outcome)])
    }

    private static func finished(_ state: String) -> Counter {
        Counter(label: "coordinatord_effects_finished_total", dimensions: [("state", state)])
    }
}
