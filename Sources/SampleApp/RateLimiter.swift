import Navigation
import Synchronization

/// A token bucket per key (a client address): `capacity` requests at once, then one every
/// `refillSeconds`. Full buckets are forgotten as new requests come in, so memory stays bounded.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Int64
        var updated: Int64
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        var lastSweep: Int64 = 0
    }

    public let capacity: Int64
    public let refillSeconds: Int64
    /// What is limited, for the message ("registration attempts").
    let subject: String
    private let state = Mutex(State())

    public init(subject: String, capacity: Int64, refillSeconds: Int64) {
        self.subject = subject
        self.capacity = max(1, capacity)
        self.refillSeconds = max(1, refillSeconds)
    }

    /// Takes one token for `key`, or throws `EventThrottled` with the wait for the next one.
    func take(_ key: String, now: Int64) throws {
        let wait = state.withLock { state -> Int64 in
            var bucket = refilled(state.buckets[key], now: now)
            sweep(&state, now: now)
            guard bucket.tokens > 0 else { return bucket.updated + refillSeconds - now }
            bucket.tokens -= 1
            state.buckets[key] = bucket
            return 0
        }
        guard wait > 0 else { return }
        throw EventThrottled(retryAfterSeconds: Int(wait), detail: "Too many \(subject); try again later.")
    }

    /// Keys held in memory now.
    public var entryCount: Int { state.withLock { $0.buckets.count } }

    private func refilled(_ bucket: Bucket?, now: Int64) -> Bucket {
        guard let bucket else { return Bucket(tokens: capacity, updated: now) }
        let earned = max(0, now - bucket.updated) / refillSeconds
        guard earned > 0 else { return bucket }
        return Bucket(tokens: min(capacity, bucket.tokens + earned), updated: bucket.updated + earned * refillSeconds)
    }

    /// Forgets buckets that have refilled completely, at most once a minute.
    private func sweep(_ state: inout State, now: Int64) {
        guard now - state.lastSweep >= 60 else { return }
        state.lastSweep = now
        state.buckets = state.buckets.filter { refilled($0.value, now: now).tokens < capacity }
    }
}
