/// Work a coordinator asks for outside its event's transaction: a payment, an e-mail, a call to
/// another service. A flow asks with `context.perform(_:)`; the request is stored in the same
/// commit as the state that asked for it (an outbox), run after the commit by the handler the app
/// registered for its type (`EffectHandlers`), at least once, with a stable idempotency key, and
/// retried within `retry`; its result (or its final failure) comes back to the coordinator that
/// asked as `effectFinished`, an event of the session: journaled and streamed like any other.
///
/// The value itself is the request: keep in it what the handler needs (an order's id and total,
/// an address), and nothing secret, since it is stored.
public protocol Effect: Codable, Sendable {
    /// What the handler returns; the coordinator reads it in `effectFinished`.
    associatedtype Result: Codable & Sendable = EffectDone
    /// The stable name the request is stored under; the type's name unless it says otherwise
    /// (override it before renaming the type, so that stored requests still find their handler).
    static var name: String { get }
    /// How often, and how far apart, a failed run is tried again.
    static var retry: EffectRetry { get }
}

extension Effect {
    /// The type's own name.
    public static var name: String { String(describing: Self.self) }
    /// `EffectRetry()`: up to 8 runs, 1 s apart at first, doubling up to 5 minutes.
    public static var retry: EffectRetry { EffectRetry() }
}

/// The result of an effect that returns nothing but its success.
public struct EffectDone: Codable, Sendable, Hashable {
    public init() {}
}

/// How a failed effect is tried again: up to `maxAttempts` runs in all, the first retry
/// `firstDelaySeconds` after the failure, each later one twice as far, at most `maxDelaySeconds`.
public struct EffectRetry: Sendable, Hashable {
    public var maxAttempts: Int
    public var firstDelaySeconds: Int64
    public var maxDelaySeconds: Int64

    public init(maxAttempts: Int = 8, firstDelaySeconds: Int64 = 1, maxDelaySeconds: Int64 = 300) {
        self.maxAttempts = max(1, maxAttempts)
        self.firstDelaySeconds = max(1, firstDelaySeconds)
        self.maxDelaySeconds = max(self.firstDelaySeconds, maxDelaySeconds)
    }

    /// Seconds to wait after failed run number `attempt` (1 for the first run).
    public func delay(afterAttempt attempt: Int) -> Int64 {
        let doublings = min(max(0, attempt - 1), 40)
        let delay = firstDelaySeconds.multipliedReportingOverflow(by: Int64(1) << doublings)
        return delay.overflow ? maxDelaySeconds : min(delay.partialValue, maxDelaySeconds)
    }
}

/// A failure a handler throws to say how it failed. Any other error is retried as `retryable`.
public struct EffectFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as the coordinator (and the journal) sees it.
    public let reason: String
    /// False when trying again cannot help (a card declined, an address refused): the effect
    /// fails at once, without its remaining attempts.
    public let retryable: Bool

    /// A failure trying again may cure (a timeout, a `503`).
    public static func retryable(_ reason: String) -> EffectFailure { EffectFailure(reason: reason, retryable: true) }
    /// A failure trying again cannot cure.
    public static func permanent(_ reason: String) -> EffectFailure { EffectFailure(reason: reason, retryable: false) }

    public var description: String { reason }
}
