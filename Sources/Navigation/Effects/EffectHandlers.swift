/// The handlers of an app's effects, by effect type: what runs each `Effect` a flow asks for.
/// A handler may wait, call other services and fail; it runs after the commit that stored the
/// request, at least once (again after a failure or a crash), so it must be idempotent: pass
/// `attempt.idempotencyKey` on to the service it calls (an `Idempotency-Key` header, say).
///
/// ```swift
/// EffectHandlers()
///     .handling(ChargeCard.self) { charge, attempt in try await payments.charge(charge, key: attempt.idempotencyKey) }
/// ```
public struct EffectHandlers: Sendable {
    /// One registered handler, untyped: the request and result as JSON.
    package struct Entry: Sendable {
        package let retry: EffectRetry
        package let run: @Sendable (JSONValue, EffectAttempt) async throws -> JSONValue
    }

    package private(set) var entries: [String: Entry] = [:]

    /// No handlers: every effect a flow asks for fails at once, saying so.
    public init() {}

    /// These handlers and `run` for effect `E` (replacing any `E` had).
    public func handling<E: Effect>(
        _ type: E.Type, _ run: @escaping @Sendable (E, EffectAttempt) async throws -> E.Result
    ) -> EffectHandlers {
        var handlers = self
        handlers.entries[E.name] = Entry(retry: E.retry) { request, attempt in
            let effect = try JSONValue.decode(E.self, from: request)
            return try JSONValue.encode(try await run(effect, attempt))
        }
        return handlers
    }

    /// These handlers with `other`'s added (`other`'s win where both handle one effect).
    public func merging(_ other: EffectHandlers) -> EffectHandlers {
        var handlers = self
        handlers.entries.merge(other.entries) { _, theirs in theirs }
        return handlers
    }
}

/// One run of an effect, as its handler sees it.
public struct EffectAttempt: Sendable, Hashable {
    /// Unique to the effect and the same on every run of it: the key a service dedupes on.
    public let idempotencyKey: String
    /// 1 for the first run, 2 for the first retry, and so on.
    public let number: Int
    /// The session that asked for it.
    public let session: String

    package init(idempotencyKey: String, number: Int, session: String) {
        self.idempotencyKey = idempotencyKey
        self.number = number
        self.session = session
    }
}
