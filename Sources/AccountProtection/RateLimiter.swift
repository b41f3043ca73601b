import Navigation
import Store

/// A token bucket per key (a client address): `capacity` requests at once, then one every
/// `refillSeconds`.
///
/// The buckets live in the database (`rate_buckets`), written on the event's connection, so one
/// client's rate holds across every node; a key is stored as its SHA-256 (`StoredKey`), whatever
/// text a client made it of. Taking a token first locks the bucket's row (an upsert
/// that changes nothing), so two nodes never both spend its last token. Full buckets are deleted
/// as new requests come in (at most once a minute per process).
public final class RateLimiter: Sendable {
    /// Tokens a full bucket holds: the requests a key may make at once.
    public let capacity: Int64
    /// Seconds to earn one token back.
    public let refillSeconds: Int64
    /// What is limited, for the message and its rows ("registration attempts").
    let subject: String
    private let sweeps = SweepSchedule()

    /// A limiter of `subject` ("registration attempts"): its rows and messages name it, so several
    /// limiters share one table. `capacity` and `refillSeconds` are at least 1.
    public init(subject: String, capacity: Int64, refillSeconds: Int64) {
        self.subject = subject
        self.capacity = max(1, capacity)
        self.refillSeconds = max(1, refillSeconds)
    }

    /// Takes one token for `client`, or throws `EventThrottled` with the wait for the next one.
    public func take(_ client: String, now: Int64, on connection: any SQLConnection) throws {
        let key = StoredKey.of(client)
        try sweep(now: now, on: connection)
        // One statement creates or locks the bucket's row and reads it.
        guard
            let (tokens, updated) = try connection.queryFirst(
                """
                INSERT INTO rate_buckets (subject, key, tokens, updated) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (subject, key) DO UPDATE SET tokens = rate_buckets.tokens
                RETURNING tokens, updated
                """, [.text(subject), .text(key), .integer(capacity), .integer(now)], { ($0.int64(0), $0.int64(1)) })
        else { return }
        let earned = max(0, now - updated) / refillSeconds
        var bucket = (tokens: min(capacity, tokens + earned), updated: updated + earned * refillSeconds)
        guard bucket.tokens > 0 else {
            throw EventThrottled(
                retryAfterSeconds: Int(bucket.updated + refillSeconds - now), detail: "Too many \(subject); try again later.")
        }
        bucket.tokens -= 1
        try connection.run(
            "UPDATE rate_buckets SET tokens = ?3, updated = ?4 WHERE subject = ?1 AND key = ?2",
            [.text(subject), .text(key), .integer(bucket.tokens), .integer(bucket.updated)])
    }

    /// Throws `EventThrottled`, as `take` would, when `client` has no token left; takes none and
    /// writes nothing (so it can run before slow work that only a token allows, on a reader).
    public func check(_ client: String, now: Int64, on connection: any SQLConnection) throws {
        guard
            let (tokens, updated) = try connection.queryFirst(
                "SELECT tokens, updated FROM rate_buckets WHERE subject = ?1 AND key = ?2",
                [.text(subject), .text(StoredKey.of(client))], { ($0.int64(0), $0.int64(1)) })
        else { return }
        let earned = max(0, now - updated) / refillSeconds
        guard min(capacity, tokens + earned) > 0 else {
            throw EventThrottled(
                retryAfterSeconds: Int(updated + earned * refillSeconds + refillSeconds - now),
                detail: "Too many \(subject); try again later.")
        }
    }

    /// Deletes buckets that have refilled completely, at most once a minute.
    private func sweep(now: Int64, on connection: any SQLConnection) throws {
        guard sweeps.isDue(now: now) else { return }
        try connection.run(
            "DELETE FROM rate_buckets WHERE subject = ?1 AND updated + (?2 - tokens) * ?3 <= ?4",
            [.text(subject), .integer(capacity), .integer(refillSeconds), .integer(now)])
    }
}
