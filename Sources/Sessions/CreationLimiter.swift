import Foundation
import Synchronization

/// A token bucket per client (`ClientKey`) for creating sessions: `2 × perMinute` at once, then
/// `perMinute` a minute. Anonymous sessions cost a row and memory each, so one client must not
/// be able to make them as fast as it can send requests.
///
/// The buckets are this node's, in memory: a refusal costs no database work, which is what a
/// flood needs. Behind a proxy that spreads requests over N nodes a client may create up to N
/// times the rate. Buckets that have refilled are dropped as the table grows, so it holds only
/// clients seen within the last two minutes or so.
final class CreationLimiter: Sendable {
    /// Sessions a client may create per minute; 0 means no limit.
    let perMinute: Int
    private let capacity: Double
    private let state = Mutex(State())

    private struct Bucket {
        var tokens: Double
        var updated: Int64
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        var pruneAt = 1024
    }

    init(perMinute: Int) {
        self.perMinute = max(0, perMinute)
        self.capacity = Double(2 * self.perMinute)
    }

    /// Clients with a bucket now (for tests: the table stays bounded).
    var trackedClients: Int { state.withLock { $0.buckets.count } }

    /// Takes a token for `client` at `now`: nil when it may create a session, else the seconds
    /// until it may (`Retry-After`).
    func take(_ client: String, now: Int64) -> Int? {
        guard perMinute > 0 else { return nil }
        let key = ClientKey.of(client)
        return state.withLock { state in
            var bucket = refilled(state.buckets[key] ?? Bucket(tokens: capacity, updated: now), now: now)
            defer {
                state.buckets[key] = bucket
                if state.buckets.count > state.pruneAt { prune(&state, now: now) }
            }
            guard bucket.tokens >= 1 else {
                return max(1, Int(((1 - bucket.tokens) * 60 / Double(perMinute)).rounded(.up)))
            }
            bucket.tokens -= 1
            return nil
        }
    }

    private func refilled(_ bucket: Bucket, now: Int64) -> Bucket {
        let earned = Double(max(0, now - bucket.updated)) * Double(perMinute) / 60
        return Bucket(tokens: min(capacity, bucket.tokens + earned), updated: max(now, bucket.updated))
    }

    /// Drops the buckets that are full again (the same as no bucket), and sets the next size to
    /// prune at twice what is left: pruning costs constant time per request, amortized.
    private func prune(_ state: inout State, now: Int64) {
        state.buckets = state.buckets.filter { refilled($0.value, now: now).tokens < capacity }
        state.pruneAt = max(1024, 2 * state.buckets.count)
    }
}
