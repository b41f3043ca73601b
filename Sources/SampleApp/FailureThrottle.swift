import Navigation
import Synchronization

/// Slows password guessing down without locking the owner out.
///
/// Failures are counted per (account, client): after `freeFailures` the pair must wait a delay
/// that doubles with each further failure, up to `maxDelaySeconds`. A guesser at one address
/// gets a few dozen tries an hour; the owner, from their own address, is not slowed at all.
/// Only far above that, at `accountLimit` failures for one account from all clients together
/// (a distributed attack), is the account refused to everyone, and at `clientLimit` failures
/// from one client across accounts, that client for every account. A failure counts until
/// `windowSeconds` after the last failure of its key. Keys no longer counted are swept as new
/// failures come in, and their number is capped, so the throttle's memory is bounded.
public final class FailureThrottle: Sendable {
    /// The numbers of the policy above.
    public struct Policy: Sendable {
        public var freeFailures = 3
        public var maxDelaySeconds: Int64 = 300
        public var accountLimit = 100
        public var clientLimit = 200
        public var windowSeconds: Int64 = 900
        public var maxEntries = 100_000

        public init() {}
    }

    private struct Entry {
        var count: Int
        var last: Int64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var lastSweep: Int64 = 0
    }

    public let policy: Policy
    private let state = Mutex(State())
    /// What the throttle guards, for its messages and metrics ("sign-ins", "password checks").
    let subject: String

    public init(subject: String, policy: Policy = Policy()) {
        self.subject = subject
        self.policy = policy
    }

    /// Throws `EventThrottled` when `account` may not be tried from `client` now.
    func check(account: String, client: String, now: Int64) throws {
        let wait = state.withLock { state -> Int64 in
            var wait: Int64 = 0
            if let pair = live(state.entries[Self.pair(account, client)], now: now), pair.count >= policy.freeFailures {
                wait = max(wait, pair.last + delay(afterFailures: pair.count) - now)
            }
            if let entry = live(state.entries[Self.account(account)], now: now), entry.count >= policy.accountLimit {
                wait = max(wait, entry.last + policy.windowSeconds - now)
            }
            if let entry = live(state.entries[Self.client(client)], now: now), entry.count >= policy.clientLimit {
                wait = max(wait, entry.last + policy.windowSeconds - now)
            }
            return wait
        }
        guard wait > 0 else { return }
        throw EventThrottled(retryAfterSeconds: Int(wait), detail: "Too many failed \(subject); try again later.")
    }

    func recordFailure(account: String, client: String, now: Int64) {
        state.withLock { state in
            for key in [Self.pair(account, client), Self.account(account), Self.client(client)] {
                let previous = live(state.entries[key], now: now)?.count ?? 0
                state.entries[key] = Entry(count: previous + 1, last: now)
            }
            sweep(&state, now: now)
        }
    }

    /// The owner got in from `client`: that pair starts afresh (the account-wide count stays).
    func recordSuccess(account: String, client: String) {
        _ = state.withLock { $0.entries.removeValue(forKey: Self.pair(account, client)) }
    }

    /// Keys held in memory now.
    public var entryCount: Int { state.withLock { $0.entries.count } }

    /// Seconds the pair waits after `failures` failures: 1, 2, 4, … from the first one past the free ones.
    func delay(afterFailures failures: Int) -> Int64 {
        let doublings = min(max(0, failures - policy.freeFailures), 30)
        return min(policy.maxDelaySeconds, Int64(1) << doublings)
    }

    private func live(_ entry: Entry?, now: Int64) -> Entry? {
        guard let entry, now - entry.last < policy.windowSeconds else { return nil }
        return entry
    }

    /// Drops keys whose window has passed, at most once a minute; past `maxEntries`, the stalest.
    private func sweep(_ state: inout State, now: Int64) {
        if now - state.lastSweep >= 60 {
            state.lastSweep = now
            state.entries = state.entries.filter { now - $0.value.last < policy.windowSeconds }
        }
        if state.entries.count > policy.maxEntries {
            let stalest = state.entries.sorted { $0.value.last < $1.value.last }.prefix(state.entries.count / 10)
            for (key, _) in stalest { state.entries[key] = nil }
        }
    }

    private static func pair(_ account: String, _ client: String) -> String { "p\u{1}" + account + "\u{1}" + client }
    private static func account(_ account: String) -> String { "a\u{1}" + account }
    private static func client(_ client: String) -> String { "c\u{1}" + client }
}
