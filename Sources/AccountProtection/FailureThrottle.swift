import Navigation
import Store

/// Slows password guessing down without locking the owner out.
///
/// Failures are counted per (account, client): after `freeFailures` the pair must wait a delay
/// that doubles with each further failure, up to `maxDelaySeconds`. A guesser at one address
/// gets a few dozen tries an hour; the owner, from their own address, is not slowed at all.
/// Only far above that, at `accountLimit` failures for one account from all clients together
/// (a distributed attack), is the account refused to every client it does not know, and at
/// `clientLimit` failures from one client across accounts, that client for every account.
///
/// A client that presents a device credential of the account (OWASP's device cookies, see
/// `DeviceCredentials`: it signed in to that account before) is judged on that credential's own
/// failures only: the same delays, and past `deviceLimit` failures the credential counts for
/// nothing (the client is judged as any other). So a distributed attack locks out the clients
/// the account does not know, never the owner's devices, and a stolen credential is worth at
/// most `deviceLimit` guesses a window. A failure counts until `windowSeconds` after the last
/// failure of its key.
///
/// The counts live in the database (`throttle_failures`), so they hold across every node that
/// shares it. Keys are stored as their SHA-256 (`StoredKey`): a key holds an e-mail's comparison
/// key, which a client chooses. A failure is counted as a lasting write (`LastingWrites`), so it
/// counts even when its event is refused afterwards. Keys whose window has passed are deleted as
/// new failures come in (at most once a minute per process), so the table stays bounded by the
/// failures of one window.
public final class FailureThrottle: Sendable {
    /// The numbers of the policy above.
    public struct Policy: Sendable {
        /// Failures of an (account, client) pair before it waits at all.
        public var freeFailures = 3
        /// The longest wait of a pair, however many failures it has.
        public var maxDelaySeconds: Int64 = 300
        /// Failures of one account from all clients that lock it for clients it does not know.
        public var accountLimit = 100
        /// Failures of one client across accounts that lock that client out.
        public var clientLimit = 200
        /// Failures under one device credential past which it counts for nothing.
        public var deviceLimit = 10
        /// How long a failure counts after its key's last failure.
        public var windowSeconds: Int64 = 900

        /// The defaults above.
        public init() {}
    }

    /// How one attempt was judged: the stored keys its failure counts under, and the one its
    /// success clears. Hand it back to `recordFailure` or `recordSuccess`.
    public struct Attempt: Sendable, Equatable {
        let failureKeys: [String]
        let successKey: String
        /// Judged on a device credential's own failures.
        public let byKnownDevice: Bool
    }

    /// The numbers this throttle judges by.
    public let policy: Policy
    /// What the throttle guards, for its messages and its rows ("sign-ins", "password checks").
    let subject: String
    private let sweeps = SweepSchedule()

    /// A throttle of `subject` ("sign-ins"): its rows and messages name it, so several throttles
    /// share one table without sharing counts.
    public init(subject: String, policy: Policy = Policy()) {
        self.subject = subject
        self.policy = policy
    }

    /// Judges an attempt on `account` from `client`, where `device` is the id of a credential
    /// of that account the client presented (`DeviceCredentials.credential`), if any. Throws
    /// `EventThrottled` when the attempt must wait.
    public func check(
        account: String, client: String, device: String? = nil, now: Int64, on connection: any SQLConnection
    )
        throws -> Attempt
    {
        let pair = StoredKey.of("p\u{1}" + account + "\u{1}" + client)
        let accountKey = StoredKey.of("a\u{1}" + account)
        let clientKey = StoredKey.of("c\u{1}" + client)
        let deviceKey = device.map { StoredKey.of("d\u{1}" + $0) }
        let counts = try self.counts(of: [pair, accountKey, clientKey, deviceKey ?? pair], now: now, on: connection)
        if let deviceKey, (counts[deviceKey]?.count ?? 0) < policy.deviceLimit {
            try refuse(waiting: wait(afterFailuresOf: counts[deviceKey], now: now))
            return Attempt(failureKeys: [deviceKey], successKey: deviceKey, byKnownDevice: true)
        }
        var wait = wait(afterFailuresOf: counts[pair], now: now)
        for (key, limit) in [(accountKey, policy.accountLimit), (clientKey, policy.clientLimit)] {
            if let entry = counts[key], entry.count >= limit { wait = max(wait, entry.last + policy.windowSeconds - now) }
        }
        try refuse(waiting: wait)
        return Attempt(failureKeys: [pair, accountKey, clientKey], successKey: pair, byKnownDevice: false)
    }

    /// Counts a failure of `attempt` as a lasting write: it commits even if the event is refused.
    public func recordFailure(_ attempt: Attempt, now: Int64, lasting: LastingWrites) throws {
        try lasting.perform { [self] connection in try count(attempt.failureKeys, now: now, on: connection) }
    }

    /// The owner got in: the pair (or the device credential) starts afresh; the account-wide
    /// count stays.
    public func recordSuccess(_ attempt: Attempt, on connection: any SQLConnection) throws {
        try connection.run(
            "DELETE FROM throttle_failures WHERE subject = ?1 AND key = ?2", [.text(subject), .text(attempt.successKey)])
    }

    /// Seconds the pair waits after `failures` failures: 1, 2, 4, … from the first one past the free ones.
    public func delay(afterFailures failures: Int) -> Int64 {
        let doublings = min(max(0, failures - policy.freeFailures), 30)
        return min(policy.maxDelaySeconds, Int64(1) << doublings)
    }

    /// The failures in the window of each of `keys` that has any.
    private func counts(of keys: [String], now: Int64, on connection: any SQLConnection) throws
        -> [String: (count: Int, last: Int64)]
    {
        let rows = try connection.query(
            "SELECT key, count, last FROM throttle_failures WHERE subject = ?1 AND key IN (?2, ?3, ?4, ?5) AND last > ?6",
            [.text(subject), .text(keys[0]), .text(keys[1]), .text(keys[2]), .text(keys[3]), .integer(now - policy.windowSeconds)]
        ) { ($0.string(0), (count: $0.int(1), last: $0.int64(2))) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Seconds to wait after the failures of `entry` (none within the free ones).
    private func wait(afterFailuresOf entry: (count: Int, last: Int64)?, now: Int64) -> Int64 {
        guard let entry, entry.count >= policy.freeFailures else { return 0 }
        return entry.last + delay(afterFailures: entry.count) - now
    }

    private func refuse(waiting wait: Int64) throws {
        guard wait > 0 else { return }
        throw EventThrottled(retryAfterSeconds: Int(wait), detail: "Too many failed \(subject); try again later.")
    }

    private func count(_ keys: [String], now: Int64, on connection: any SQLConnection) throws {
        for key in keys {
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

    /// Deletes keys whose window has passed, at most once a minute.
    private func sweep(now: Int64, on connection: any SQLConnection) throws {
        guard sweeps.isDue(now: now) else { return }
        try connection.run(
            "DELETE FROM throttle_failures WHERE subject = ?1 AND last <= ?2",
            [.text(subject), .integer(now - policy.windowSeconds)])
    }
}
