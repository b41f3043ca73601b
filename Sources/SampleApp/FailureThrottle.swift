import Navigation
import Store

/// Slows password guessing down without locking the owner out.
///
/// Failures are counted per (account, client): after `freeFailures` the pair must wait a delay
/// that doubles with each further failure, up to `maxDelaySeconds`. A guesser at one address
/// gets a few dozen tries an hour; the owner, from their own address, is not slowed at all.
/// Only far above that, at `accountLimit` failures for one account from all clients together
/// (a distributed attack), is the account refused to everyone, and at `clientLimit` failures
/// from one client across accounts, that client for every account. A failure counts until
/// `windowSeconds` after the last failure of its key.
///
/// The counts live in the database (`throttle_failures`), written on the event's connection, so
/// they hold across every node that shares it. Keys whose window has passed are deleted as new
/// failures come in (at most once a minute per process), so the table stays bounded by the
/// failures of one window.
public final class FailureThrottle: Sendable {
    /// The numbers of the policy above.
    public struct Policy: Sendable {
        public var freeFailures = 3
        public var maxDelaySeconds: Int64 = 300
        public var accountLimit = 100
        public var clientLimit = 200
        public var windowSeconds: Int64 = 900

        public init() {}
    }

    public let policy: Policy
    /// What the throttle guards, for its messages and its rows ("sign-ins", "password checks").
    let subject: String
    private let sweeps = SweepSchedule()

    public init(subject: String, policy: Policy = Policy()) {
        self.subject = subject
        self.policy = policy
    }

    /// Throws `EventThrottled` when `account` may not be tried from `client` now.
    func check(account: String, client: String, now: Int64, on connection: any SQLConnection) throws {
        let keys = [Self.pair(account, client), Self.account(account), Self.client(client)]
        let counts = try connection.query(
            "SELECT key, count, last FROM throttle_failures WHERE subject = ?1 AND key IN (?2, ?3, ?4) AND last > ?5",
            [.text(subject), .text(keys[0]), .text(keys[1]), .text(keys[2]), .integer(now - policy.windowSeconds)]
        ) { (key: $0.string(0), count: $0.int(1), last: $0.int64(2)) }
        var wait: Int64 = 0
        for entry in counts {
            switch entry.key {
            case keys[0] where entry.count >= policy.freeFailures:
                wait = max(wait, entry.last + delay(afterFailures: entry.count) - now)
            case keys[1] where entry.count >= policy.accountLimit, keys[2] where entry.count >= policy.clientLimit:
                wait = max(wait, entry.last + policy.windowSeconds - now)
            default: break
            }
        }
        guard wait > 0 else { return }
        throw EventThrottled(retryAfterSeconds: Int(wait), detail: "Too many failed \(subject); try again later.")
    }

    func recordFailure(account: String, client: String, now: Int64, on connection: any SQLConnection) throws {
        for key in [Self.pair(account, client), Self.account(account), Self.client(client)] {
            try connection.run(
                """
                INSERT INTO throttle_failures (subject, key, count, last) VALUES (?1, ?2, 1, ?3)
                ON CONFLICT (subject, key) DO UPDATE SET
                    count = CASE WHEN throttle_failures.last > ?4 THEN throttle_failures.count + 1 ELSE 1 END,
                    last = ?3
                """, [.text(subject), .text(key), .integer(now), .integer(now - policy.windowSeconds)])
        }
        try sweep(now: now, on: connection)
    }

    /// The owner got in from `client`: that pair starts afresh (the account-wide count stays).
    func recordSuccess(account: String, client: String, on connection: any SQLConnection) throws {
        try connection.run(
            "DELETE FROM throttle_failures WHERE subject = ?1 AND key = ?2", [.text(subject), .text(Self.pair(account, client))])
    }

    /// Seconds the pair waits after `failures` failures: 1, 2, 4, … from the first one past the free ones.
    func delay(afterFailures failures: Int) -> Int64 {
        let doublings = min(max(0, failures - policy.freeFailures), 30)
        return min(policy.maxDelaySeconds, Int64(1) << doublings)
    }

    /// Deletes keys whose window has passed, at most once a minute.
    private func sweep(now: Int64, on connection: any SQLConnection) throws {
        guard sweeps.isDue(now: now) else { return }
        try connection.run(
            "DELETE FROM throttle_failures WHERE subject = ?1 AND last <= ?2",
            [.text(subject), .integer(now - policy.windowSeconds)])
    }

    private static func pair(_ account: String, _ client: String) -> String { "p\u{1}" + account + "\u{1}" + client }
    private static func account(_ account: String) -> String { "a\u{1}" + account }
    private static func client(_ client: String) -> String { "c\u{1}" + client }
}
