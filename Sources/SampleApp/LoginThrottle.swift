import Navigation
import Synchronization

/// Counts failed sign-ins per account and per client address over a sliding window; past the
/// limit, sign-in attempts are refused with `429` until the oldest failure leaves the window.
public final class LoginThrottle: Sendable {
    public let perAccount: Int
    public let perAddress: Int
    public let windowSeconds: Int64
    private let failures = Mutex<[String: [Int64]]>([:])

    public init(perAccount: Int = 5, perAddress: Int = 20, windowSeconds: Int64 = 900) {
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.windowSeconds = windowSeconds
    }

    /// Throws `EventThrottled` when `email` or `address` has failed too often lately.
    func check(email: String, address: String, now: Int64) throws {
        let wait = failures.withLock { failures in
            max(
                Self.wait(&failures, key: "account:" + email.lowercased(), limit: perAccount, now: now, window: windowSeconds),
                Self.wait(&failures, key: "address:" + address, limit: perAddress, now: now, window: windowSeconds))
        }
        if wait > 0 {
            throw EventThrottled(retryAfterSeconds: Int(wait), detail: "Too many failed sign-ins; try again later.")
        }
    }

    func recordFailure(email: String, address: String, now: Int64) {
        failures.withLock { failures in
            failures["account:" + email.lowercased(), default: []].append(now)
            failures["address:" + address, default: []].append(now)
        }
    }

    func recordSuccess(email: String) {
        _ = failures.withLock { $0.removeValue(forKey: "account:" + email.lowercased()) }
    }

    /// Seconds until `key` may try again; 0 if it may now. Forgets failures older than the window.
    private static func wait(_ failures: inout [String: [Int64]], key: String, limit: Int, now: Int64, window: Int64) -> Int64 {
        guard var times = failures[key] else { return 0 }
        times.removeAll { $0 <= now - window }
        failures[key] = times.isEmpty ? nil : times
        guard times.count >= limit else { return 0 }
        return times[times.count - limit] + window - now
    }
}
