import Synchronization

/// Refused operator requests per client, in windows of a minute: past `allowed` in a window the
/// client is throttled (guessing the key gets slow), and a refusal is logged only once per client
/// per window (a flood of bad keys cannot flood the log).
final class OperatorRefusals: Sendable {
    /// What to do with a refused request.
    enum Verdict: Equatable {
        /// Refuse it (401), logging it when `log`.
        case refuse(log: Bool)
        /// Throttle it (429) for `retryAfter` seconds.
        case throttle(retryAfter: Int64)
    }

    private struct Window {
        var start: Int64
        var count: Int
    }

    static let windowSeconds: Int64 = 60
    /// Clients remembered at once; past that the table starts over (a bound on its memory).
    static let maxClients = 10_000

    let allowed: Int
    private let windows = Mutex<[String: Window]>([:])

    init(allowed: Int = 10) {
        self.allowed = allowed
    }

    /// Counts a refusal of `client` at `now` (seconds) and says what to answer.
    func refused(client: String, now: Int64) -> Verdict {
        windows.withLock { windows in
            var window = windows[client] ?? Window(start: now, count: 0)
            if now - window.start >= Self.windowSeconds { window = Window(start: now, count: 0) }
            window.count += 1
            if windows[client] == nil && windows.count >= Self.maxClients { windows.removeAll() }
            windows[client] = window
            guard window.count <= allowed else {
                return .throttle(retryAfter: max(1, window.start + Self.windowSeconds - now))
            }
            return .refuse(log: window.count == 1)
        }
    }

    /// True while `client` is throttled at `now`: its requests are refused before the key is checked.
    func isThrottled(client: String, now: Int64) -> Int64? {
        windows.withLock { windows in
            guard let window = windows[client], window.count > allowed, now - window.start < Self.windowSeconds else {
                return nil
            }
            return max(1, window.start + Self.windowSeconds - now)
        }
    }
}
